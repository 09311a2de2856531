import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/app.js';
import { createKnowledgeBase, createUser } from '../../../../test/factories.js';
import { uploadKnowledgeFile } from '../../../../test/knowledge-documents.js';
import { dieWhileRunning, openQueueProcess, type StallSettings } from '../../../../test/queue-processes.js';
import { stalledOutReason } from '../../../core/queue/queue.js';
import { ingestJobId } from '../document-metadata.js';
import { INGEST_QUEUE, startIngestionWorker } from './ingestion.jobs.js';

// No workers of its own: the processes below take the ingest job, as separate worker processes would.
const ctx = useTestApp({ JOB_MAX_STALLS: '1' });

describe('knowledge-ingest worker', () => {
  it('marks the document failed with the reason when its job stalled out (its process died every time)', async () => {
    const caller = await createUser(ctx.container);
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const { id: documentId } = await uploadKnowledgeFile(ctx.app, caller, {
      knowledgeBaseId: base.id,
      title: 'Poison',
      filename: 'poison.txt',
      content: Buffer.from('Text that kills every process reading it.\n'),
    });

    const stalls: StallSettings = { maxStalls: ctx.container.config.jobMaxStalls, lockMs: 1000 };
    expect(stalls.maxStalls).toBe(1);
    const open = () => openQueueProcess(ctx.container, stalls);
    // The first run and JOB_MAX_STALLS reruns, each in a process that dies with the job.
    const taken = await dieWhileRunning(open, INGEST_QUEUE, stalls.maxStalls + 1);
    expect(taken).toEqual([ingestJobId(documentId, 1), ingestJobId(documentId, 1)]);

    // A healthy worker process fails the job without reading the file again; the document says why.
    const survivor = open();
    try {
      startIngestionWorker(survivor, ctx.container.knowledge.ingestion);
      const reason = stalledOutReason(1);
      await expect
        .poll(
          async () => {
            const res = await ctx.app.inject({
              url: `/api/v1/knowledge/documents/${documentId}`,
              headers: caller.headers,
            });
            const doc = res.json() as { status: string; metadata: { error?: string } };
            return { status: doc.status, error: doc.metadata.error };
          },
          { timeout: 20_000, interval: 100 },
        )
        .toEqual({ status: 'failed', error: reason });
      expect(await survivor.getJob(INGEST_QUEUE, ingestJobId(documentId, 1))).toMatchObject({
        state: 'failed',
        failedReason: reason,
      });
    } finally {
      await survivor.close();
    }
  });
});
