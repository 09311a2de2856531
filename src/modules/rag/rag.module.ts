import type { Database } from '../../core/db/client.js';
import type { LlmProviders } from '../../core/llm/llm.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { createRagRepository } from './rag.repository.js';
import { createRagService } from './rag.service.js';
import { createRetrieval, type RetrievalOptions } from './retrieval.js';

export function createRagModule(deps: {
  db: Database;
  llm: LlmProviders;
  departments: DepartmentsRepository;
  retrieval?: RetrievalOptions;
}) {
  const repository = createRagRepository(deps.db);
  const retrieval = createRetrieval({
    rag: repository,
    embeddings: deps.llm.embeddings,
    options: deps.retrieval,
  });
  const service = createRagService({
    rag: repository,
    departments: deps.departments,
    retrieval,
    chat: deps.llm.chat,
  });
  return { repository, retrieval, service };
}
