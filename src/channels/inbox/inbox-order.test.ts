import { asc, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_APP_SECRET } from '../../../test/chanA-app.js';
import { postWebhook, textMessage, wamid, webhookPayload } from '../../../test/fakes/chanA-webhooks.js';
import { createPipelineScene, usePipelineTestApp, waitFor } from '../../../test/pipeline-factories.js';
import { channelInbox, messages } from '../../core/db/schema/index.js';
import { startWorkers } from '../../workers/index.js';
import { messageJobId } from '../chan-a/webhook.service.js';

// Workers start inside the test, once the queue holds only the later message's job.
const ctx = usePipelineTestApp({ CHANA_APP_SECRET: TEST_APP_SECRET });

describe('one sender’s messages', () => {
  it('are stored in the order the platform sent them, even when the earlier one’s job is lost', async () => {
    const scene = await createPipelineScene(ctx.container);
    const [first, second] = [wamid(), wamid()];
    for (const [id, text] of [
      [first, 'First question'],
      [second, 'Second question'],
    ] as const) {
      const payload = webhookPayload({ messages: [textMessage(scene.phone, text, id)] });
      expect((await postWebhook(ctx.app, payload, { appSecret: TEST_APP_SECRET })).statusCode).toBe(200);
    }
    // The first message's job is lost: only the second one's is there to be taken.
    expect(await ctx.container.queue.removeJob('chanA-inbound', messageJobId(first))).toBe(true);
    startWorkers(ctx.container);
    // The second one's consumer finds the first untaken, and stores it first, from the inbox.
    const stored = await waitFor('both messages stored', async () => {
      const rows = await ctx.container.db
        .select({ id: messages.channelMessageId, at: messages.createdAt })
        .from(messages)
        .where(inArray(messages.channelMessageId, [first, second]))
        .orderBy(asc(messages.createdAt), asc(messages.id));
      return rows.length === 2 ? rows : null;
    });
    expect(stored.map((row) => row.id)).toEqual([first, second]);
    // Each is marked taken once stored (a moment after its message row commits).
    await waitFor('both items marked taken', async () => {
      const rows = await ctx.container.db
        .select({ takenAt: channelInbox.takenAt })
        .from(channelInbox)
        .where(inArray(channelInbox.jobId, [messageJobId(first), messageJobId(second)]));
      return rows.length === 2 && rows.every((row) => row.takenAt !== null);
    });
  });
});
