import type { Database, DbExecutor } from '../../../core/db/client.js';
import { notifications } from '../../../core/db/schema/index.js';

export type NewNotification = typeof notifications.$inferInsert;

/** What ingestion writes besides documents and chunks: the uploader's notification row. */
export function createIngestionRepository(db: Database) {
  return {
    /** The durable record of a notification; a socket push, when wired, follows the commit. */
    async insertNotification(values: NewNotification, tx: DbExecutor = db): Promise<void> {
      await tx.insert(notifications).values(values);
    },
  };
}

export type IngestionRepository = ReturnType<typeof createIngestionRepository>;
