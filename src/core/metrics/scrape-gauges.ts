import { QUEUE_NAMES, type QueueDriver } from '../queue/queue.js';
import type { Metrics } from './metrics.js';

/**
 * `aos_queue_jobs{queue,state}`: each queue's jobs per state, asked of the
 * queue driver at scrape time (the embedded driver counts rows, BullMQ asks
 * Redis), so every process reports the shared queue's current depth.
 */
export function addQueueDepth(metrics: Metrics, queue: Pick<QueueDriver, 'counts'>): void {
  metrics.addScrapeGauge({
    name: 'aos_queue_jobs',
    help: 'Jobs per queue and state (waiting, delayed, active, completed, failed), read at scrape time.',
    labelNames: ['queue', 'state'],
    async read() {
      const perQueue = await Promise.all(
        QUEUE_NAMES.map(async (name) => ({ name, counts: await queue.counts(name) })),
      );
      return perQueue.flatMap(({ name, counts }) =>
        Object.entries(counts).map(([state, value]) => ({ labels: { queue: name, state }, value })),
      );
    },
  });
}

/**
 * `aos_approvals_waiting{namespace_id}`: approvals pending or escalated per
 * namespace (`none` for approvals whose namespace was deleted), counted at
 * scrape time by `count`.
 */
export function addApprovalsWaiting(
  metrics: Metrics,
  count: () => Promise<ReadonlyArray<{ namespaceId: string | null; waiting: number }>>,
): void {
  metrics.addScrapeGauge({
    name: 'aos_approvals_waiting',
    help: 'Approvals waiting for a human (pending or escalated) by namespace id, read at scrape time.',
    labelNames: ['namespace_id'],
    async read() {
      const rows = await count();
      return rows.map((row) => ({ labels: { namespace_id: row.namespaceId ?? 'none' }, value: row.waiting }));
    },
  });
}
