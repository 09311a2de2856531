import { defineModule } from '../../core/module.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { createDocumentFiles } from './document-files.js';
import { createDocumentsRepository } from './documents.repository.js';
import { documentsRoutes } from './documents.routes.js';
import { createDocumentsService } from './documents.service.js';
import { startIngestionWorker } from './ingestion/ingestion.jobs.js';
import { createIngestionModule, type IngestionDeps } from './ingestion/ingestion.module.js';
import { createKnowledgeBasesRepository } from './knowledge-bases.repository.js';
import { knowledgeBasesRoutes } from './knowledge-bases.routes.js';
import { createKnowledgeBasesService } from './knowledge-bases.service.js';

/** Knowledge bases, their documents, and the ingestion that turns documents into chunks. */
export function createKnowledgeModule(
  deps: IngestionDeps & { departments: DepartmentsRepository; queue: QueueDriver },
) {
  const files = createDocumentFiles(deps.config.dataDir);
  const repositories = {
    bases: createKnowledgeBasesRepository(deps.db),
    documents: createDocumentsRepository(deps.db),
  };
  const bases = createKnowledgeBasesService({ ...deps, bases: repositories.bases, files });
  const documents = createDocumentsService({ ...deps, ...repositories, files });
  const ingestion = createIngestionModule({
    ...deps,
    documents: repositories.documents,
    bases: repositories.bases,
    files,
  });
  return defineModule({
    bases,
    documents,
    files,
    ingestion,
    repositories,
    routes: async (api) => {
      await api.register(knowledgeBasesRoutes, { bases });
      await api.register(documentsRoutes, { documents, files, uploadMaxBytes: deps.config.uploadMaxBytes });
    },
    jobs: { 'knowledge-ingest': () => startIngestionWorker(deps.queue, ingestion) },
  });
}
