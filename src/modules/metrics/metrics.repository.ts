import { count, inArray } from 'drizzle-orm';
import type { Database } from '../../core/db/client.js';
import { approvals } from '../../core/db/schema/index.js';

/** Read-only counts for the scrape-time gauges; the tables stay their owners' to write. */
export function createMetricsRepository(db: Database) {
  return {
    /** Approvals waiting for a human (pending or escalated), grouped by namespace. */
    async approvalsWaitingByNamespace(): Promise<Array<{ namespaceId: string | null; waiting: number }>> {
      return db
        .select({ namespaceId: approvals.namespaceId, waiting: count() })
        .from(approvals)
        .where(inArray(approvals.status, ['pending', 'escalated']))
        .groupBy(approvals.namespaceId);
    },
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
