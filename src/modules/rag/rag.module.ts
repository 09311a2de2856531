import type { Database } from '../../core/db/client.js';
import type { LlmProviders } from '../../core/llm/llm.js';
import { defineModule } from '../../core/module.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { createRagRepository } from './rag.repository.js';
import { ragRoutes } from './rag.routes.js';
import { createRagService } from './rag.service.js';
import { createRetrieval, type RetrievalOptions } from './retrieval.js';

/** Retrieval over the knowledge bases (the pipeline's search step) and the RAG endpoints. */
export function createRagModule(deps: {
  db: Database;
  llm: LlmProviders;
  departments: DepartmentsRepository;
  retrieval?: RetrievalOptions;
  /** The process's memory budget for the in-memory indexes (SEARCH_INDEX_MEMORY_MB) and the vectors' size. */
  searchIndex?: { memoryMb: number; dimensions: number };
}) {
  const rag = createRagRepository(deps.db, {
    efSearch: deps.retrieval?.efSearch,
    ...(deps.searchIndex
      ? { indexMemoryBytes: deps.searchIndex.memoryMb * 2 ** 20, dimensions: deps.searchIndex.dimensions }
      : {}),
  });
  const retrieval = createRetrieval({ rag, embeddings: deps.llm.embeddings, options: deps.retrieval });
  const service = createRagService({ rag, departments: deps.departments, retrieval, chat: deps.llm.chat });
  return defineModule({
    service,
    retrieval,
    repositories: { rag },
    routes: (api) => api.register(ragRoutes, { rag: service }),
  });
}
