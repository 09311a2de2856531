import type { QueueDriver } from '../../core/queue/queue.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { createDocumentFiles } from './document-files.js';
import { createDocumentsRepository } from './documents.repository.js';
import { createDocumentsService } from './documents.service.js';
import { createIngestionModule, type IngestionDeps } from './ingestion/ingestion.module.js';
import { createKnowledgeBasesRepository } from './knowledge-bases.repository.js';
import { createKnowledgeBasesService } from './knowledge-bases.service.js';

export function createKnowledgeModule(
  deps: IngestionDeps & { departments: DepartmentsRepository; queue: QueueDriver },
) {
  const files = createDocumentFiles(deps.config.dataDir);
  const bases = createKnowledgeBasesRepository(deps.db);
  const documents = createDocumentsRepository(deps.db);
  return {
    files,
    repositories: { bases, documents },
    bases: createKnowledgeBasesService({ ...deps, bases, files }),
    documents: createDocumentsService({ ...deps, documents, bases, files }),
    ingestion: createIngestionModule({ ...deps, documents, files }),
  };
}
