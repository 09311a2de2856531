import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { DocumentFiles } from '../knowledge/document-files.js';
import type { DocumentsService } from '../knowledge/documents.service.js';
import { createDocumentGenerationsRepository } from './document-generations.repository.js';
import { documentGenerationsRoutes } from './document-generations.routes.js';
import {
  createDocumentGenerationsService,
  type GenerationsServiceDeps,
} from './document-generations.service.js';
import { createDocumentTemplatesRepository } from './document-templates.repository.js';
import { documentTemplatesRoutes } from './document-templates.routes.js';
import { createDocumentTemplatesService, type NamespaceLookup } from './document-templates.service.js';

/** Document templates, generation from them (md, html, docx) and the generation history. */
export function createDocumentTemplatesModule(deps: {
  db: Database;
  namespaces: NamespaceLookup;
  knowledgeBases: GenerationsServiceDeps['knowledgeBases'];
  documents: Pick<DocumentsService, 'upload'>;
  files: Pick<DocumentFiles, 'receive'>;
}) {
  const repositories = {
    templates: createDocumentTemplatesRepository(deps.db),
    generations: createDocumentGenerationsRepository(deps.db),
  };
  const service = createDocumentTemplatesService({ ...deps, templates: repositories.templates });
  const generations = createDocumentGenerationsService({ ...deps, ...repositories, templates: service });
  return defineModule({
    service,
    generations,
    repositories,
    routes: async (api) => {
      await api.register(documentTemplatesRoutes, { templates: service, generations });
      await api.register(documentGenerationsRoutes, { generations });
    },
  });
}
