import type { Config } from '../../../core/config/config.js';
import type { Database } from '../../../core/db/client.js';
import type { EmbeddingProvider } from '../../../core/llm/llm.js';
import type { NotificationsPort } from '../../notifications/notifications.service.js';
import type { DocumentFiles } from '../document-files.js';
import type { DocumentsRepository } from '../documents.repository.js';
import { createIngestionService, type IngestionLogger } from './ingestion.service.js';
import { createOcr } from './ocr.js';
import { ingestionFetchGuards } from './url-fetch.js';

/** What the knowledge module passes through to ingestion. */
export interface IngestionDeps {
  db: Database;
  embeddings: EmbeddingProvider;
  logger: IngestionLogger;
  config: Pick<Config, 'dataDir' | 'uploadMaxBytes' | 'knowledgeUrlAllowPrivate'>;
  /** The notifications service: the uploader's document_ready or failure notice. */
  notifications: NotificationsPort;
}

export function createIngestionModule(
  deps: IngestionDeps & { documents: DocumentsRepository; files: DocumentFiles },
) {
  const { config } = deps;
  const ocr = createOcr(config.dataDir);
  const fetchGuards = ingestionFetchGuards(config.knowledgeUrlAllowPrivate, config.uploadMaxBytes);
  return createIngestionService({ ...deps, ocr, fetchGuards });
}
