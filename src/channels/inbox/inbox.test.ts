import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_APP_SECRET } from '../../../test/chanA-app.js';
import { postWebhook, textMessage, wamid, webhookPayload } from '../../../test/fakes/chanA-webhooks.js';
import { createPipelineScene, usePipelineTestApp, waitFor } from '../../../test/pipeline-factories.js';
import { channelInbox, messages } from '../../core/db/schema/index.js';
import { startWorkers } from '../../workers/index.js';
import { messageJobId } from '../chan-a/webhook.service.js';
import { INBOX_GRACE_MS } from './inbox.js';

// No workers at first: the test plays the queue losing a job before any worker took it.
const ctx = usePipelineTestApp({ CHANA_APP_SECRET: TEST_APP_SECRET });
const later = () => Date.now() + INBOX_GRACE_MS + 1000;

const inboxRow = async (jobId: string) =>
  (await ctx.container.db.select().from(channelInbox).where(eq(channelInbox.jobId, jobId)))[0];

describe('the channel inbox', () => {
  it('keeps an acknowledged message, enqueues it again when its job is lost, and settles it once processed', async () => {
    const scene = await createPipelineScene(ctx.container);
    const id = wamid();
    const jobId = messageJobId(id);
    const payload = webhookPayload({ messages: [textMessage(scene.phone, 'How many vacation days?', id)] });
    const res = await postWebhook(ctx.app, payload, { appSecret: TEST_APP_SECRET });
    expect(res.statusCode).toBe(200);
    expect(await inboxRow(jobId)).toMatchObject({
      queue: 'chanA-inbound',
      jobName: 'message',
      settledAt: null,
    });

    // The queue loses the job (Redis restarted empty): only the inbox row is left.
    expect(await ctx.container.queue.removeJob('chanA-inbound', jobId)).toBe(true);
    expect(await ctx.container.inbox.sweep(later())).toMatchObject({ requeued: 1, settled: 0 });
    expect(await ctx.container.queue.getJob('chanA-inbound', jobId)).toMatchObject({ state: 'waiting' });
    // A sweep while the job waits changes nothing.
    expect(await ctx.container.inbox.sweep(later())).toMatchObject({ requeued: 0, settled: 0 });

    startWorkers(ctx.container);
    await waitFor('the message to be stored', async () => {
      const rows = await ctx.container.db.select().from(messages).where(eq(messages.channelMessageId, id));
      return rows.length === 1;
    });
    await waitFor('the job to complete', async () => {
      return (await ctx.container.queue.getJob('chanA-inbound', jobId))?.state === 'completed';
    });
    await waitFor('the row to be settled', async () => {
      await ctx.container.inbox.sweep(later());
      return (await inboxRow(jobId))?.settledAt != null;
    });
  });

  it('keeps a repeated delivery once', async () => {
    const id = wamid();
    const payload = webhookPayload({ messages: [textMessage('380501234567', 'hello', id)] });
    for (let i = 0; i < 3; i++) {
      expect((await postWebhook(ctx.app, payload, { appSecret: TEST_APP_SECRET })).statusCode).toBe(200);
    }
    const rows = await ctx.container.db
      .select()
      .from(channelInbox)
      .where(eq(channelInbox.jobId, messageJobId(id)));
    expect(rows).toHaveLength(1);
  });
});
