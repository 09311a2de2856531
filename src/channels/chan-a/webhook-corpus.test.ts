import { randomInt } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_APP_SECRET, useChanATestApp } from '../../../test/chanA-app.js';
import { sentChanAMessage } from '../../../test/chanA-outbound.js';
import { postWebhook, wamid } from '../../../test/fakes/chanA-webhooks.js';
import {
  CHAN_A_CORPUS,
  type ChanACorpusCase,
  type CorpusExpectation,
} from '../../../test/fixtures/chanA-webhook-corpus.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { agentTasks, conversations, messages } from '../../core/db/schema/index.js';
import { fixedReply } from './replies.js';
import { messageJobId, statusJobId } from './webhook.service.js';

const app = useChanATestApp();
const db = () => app.ctx.container.db;

/** The platform id of an outbound message to `phone` as the sending side leaves it. */
const sentTo = async (phone: string) => (await sentChanAMessage(app.ctx.container, { phone })).ids[0]!;

const inbound = async (id: string) =>
  (
    await db()
      .select()
      .from(messages)
      .where(and(eq(messages.channel, 'chanA'), eq(messages.channelMessageId, id)))
  )[0];

const jobDone = async (jobId: string) =>
  (await app.ctx.container.queue.getJob('chanA-inbound', jobId))?.state === 'completed';

/** Waits until the part of a payload came to what the corpus says, and checks it. */
async function holds(expected: CorpusExpectation, from: string): Promise<void> {
  const what = `${expected.outcome} of ${expected.id}`;
  switch (expected.outcome) {
    case 'message': {
      const row = await waitFor(what, () => inbound(expected.id));
      expect(row.content).toBe(expected.text);
      if (expected.platformType) expect(row.metadata).toMatchObject({ platformType: expected.platformType });
      await waitFor(`the task of ${expected.id}`, async () => {
        const [task] = await db().select().from(agentTasks).where(eq(agentTasks.messageId, row.id));
        return task;
      });
      return;
    }
    case 'fixed_reply': {
      const row = await waitFor(what, () => inbound(expected.id));
      expect(row.content).toMatch(/^\[.+ message\]$/);
      expect(row.metadata).toMatchObject({ fixedReply: expected.kind });
      const reply = fixedReply(expected.kind, 'en');
      await waitFor(`the fixed reply to ${from}`, () =>
        app.graph
          .messageCalls()
          .some((call) => call.body.to === from && (call.body.text as { body?: string })?.body === reply),
      );
      return;
    }
    case 'skipped':
      expect(await app.ctx.container.queue.getJob('chanA-inbound', messageJobId(expected.id))).toBeFalsy();
      expect(await inbound(expected.id)).toBeUndefined();
      return;
    case 'reaction':
    case 'press':
      await waitFor(what, () => jobDone(messageJobId(expected.id)));
      expect(await inbound(expected.id)).toBeUndefined();
      return;
    case 'status': {
      if (expected.status !== 'sent')
        await waitFor(what, () => jobDone(statusJobId(expected.id, expected.status)));
      const row = await waitFor(`the receipt of ${expected.id}`, async () => {
        const [sent] = await db().select().from(messages).where(eq(messages.channelMessageId, expected.id));
        return sent?.status === expected.status ? sent : null;
      });
      if (expected.errorCode) {
        expect(row.metadata.deliveryError).toMatchObject({ code: expected.errorCode });
      }
    }
  }
}

/** Posts a case's payload, signed as the platform signs it, and checks every part's outcome. */
async function runCase(corpusCase: ChanACorpusCase) {
  const from = `3805${randomInt(10_000_000, 99_999_999)}`;
  const sent: string[] = [];
  for (let i = 0; i < (corpusCase.sent ?? 0); i += 1) sent.push(await sentTo(from));
  const { body, expect: expected } = corpusCase.build({
    from,
    id: wamid,
    sent,
    media: (id, mimeType, content) => app.graph.addMedia(id, { mimeType, bytes: Buffer.from(content) }),
  });
  const res = await postWebhook(app.ctx.app, body, { appSecret: TEST_APP_SECRET });
  expect(res.statusCode, corpusCase.name).toBe(200);
  expect(res.json()).toEqual({ received: true });
  for (const part of expected) await holds(part, from);
  return { from, expected };
}

describe('channel A webhook corpus', () => {
  it('holds at least 40 distinct payloads', () => {
    expect(CHAN_A_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CHAN_A_CORPUS.map((c) => c.name)).size).toBe(CHAN_A_CORPUS.length);
  });

  it('answers every payload 200 and each part comes to its documented outcome', async () => {
    const results = await Promise.all(CHAN_A_CORPUS.map(runCase));
    // Nothing answers a skipped part, a reaction, a press or a receipt: only messages and fixed replies are stored.
    const senders = results.map((r) => r.from);
    const stored = await db()
      .select({ id: messages.channelMessageId })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(inArray(conversations.channelUserId, senders), eq(messages.direction, 'inbound')));
    const expectedStored = results.flatMap((r) =>
      r.expected.filter((e) => e.outcome === 'message' || e.outcome === 'fixed_reply').map((e) => e.id),
    );
    // (The receipts' set-up stores conversations whose inbound message has no platform id.)
    const platformIds = stored.flatMap((s) => (s.id ? [s.id] : []));
    expect(platformIds.sort()).toEqual(expectedStored.sort());
  });
});
