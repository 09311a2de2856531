import type { Config } from '../../../core/config/config.js';
import type { Database } from '../../../core/db/client.js';
import type { EmbeddingProvider } from '../../../core/llm/llm.js';
import type { NotificationsPort } from '../../notifications/notifications.service.js';
import type { DocumentFiles } from '../document-files.js';
import type { DocumentsRepository } from '../documents.repository.js';
import type { KnowledgeBasesRepository } from '../knowledge-bases.repository.js';
import { createDecoder } from './decoder.js';
import { createIngestionService, type IngestionLogger } from './ingestion.service.js';
import { createSyntheticQuestions, type SyntheticQuestionsWiring } from './synthetic-questions.js';
import { ingestionFetchGuards } from './url-fetch.js';

/** What the knowledge module passes through to ingestion. */
export interface IngestionDeps {
  db: Database;
  embeddings: EmbeddingProvider;
  logger: IngestionLogger;
  config: Pick<Config, 'dataDir' | 'uploadMaxBytes' | 'knowledgeUrlAllowPrivate' | 'decoders'>;
  /** The notifications service: the uploader's document_ready or failure notice. */
  notifications: NotificationsPort;
  /** The LLM (null without LLM_API_KEY), tracing and prices of the syntheticQuestions option. */
  syntheticQuestions?: SyntheticQuestionsWiring;
}

export function createIngestionModule(
  deps: IngestionDeps & {
    documents: DocumentsRepository;
    files: DocumentFiles;
    bases: KnowledgeBasesRepository;
  },
) {
  const { config } = deps;
  const decoder = createDecoder({ dataDir: config.dataDir, limits: config.decoders });
  const fetchGuards = ingestionFetchGuards(config.knowledgeUrlAllowPrivate, config.uploadMaxBytes);
  const syntheticQuestions = createSyntheticQuestions({
    writer: null,
    ...deps.syntheticQuestions,
    logger: deps.logger,
    optionOf: async (id) => (await deps.bases.findById(id))?.syntheticQuestions ?? null,
  });
  return createIngestionService({ ...deps, decoder, fetchGuards, syntheticQuestions });
}
