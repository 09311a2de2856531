import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { createDepartment, createUser, type TestUser } from '../../../test/factories.js';
import { type FakeGraphServer, startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import type { Container } from '../../container.js';
import { conversations, messages, notifications } from '../../core/db/schema/index.js';
import { createChannelDelivery } from '../outbound/channel-delivery.js';
import type { OutboundJobData } from '../outbound/outbound-worker.js';
import { createChanAOutbound } from './chan-a.outbound.js';
import { CHANA_TEXT_LIMIT } from './chan-a.transport.js';
import { formatForChanA } from './formatter.js';
import { chanATokenKeys } from './token-lifecycle.js';

const SENDER_NUMBER = '15550001111';
const PHONE_NUMBER_ID = '106540352242922';
const TEMPLATE = 'reopen_conversation';

let fake: FakeGraphServer;
let ctx: TestContext;
const keys = chanATokenKeys(SENDER_NUMBER);

beforeAll(async () => {
  fake = await startFakeGraphServer();
  ctx = await createTestApp(
    {
      CHANA_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      CHANA_PHONE_NUMBER: SENDER_NUMBER,
      CHANA_ACCESS_TOKEN: 'env-token',
      CHANA_APP_ID: 'app-1',
      CHANA_APP_SECRET: 'app-secret-1',
      CHANA_API_BASE_URL: `${fake.url}/v21.0`,
      CHANA_RATE_LIMIT_PER_MIN: '10',
      CHANA_REENGAGEMENT_TEMPLATE: TEMPLATE,
    },
    { workers: true },
  );
  // The token check runs at start and stores CHANA_ACCESS_TOKEN; the tests then store their own.
  await waitFor('the configured token stored', () => ctx.container.kv.get(keys.accessToken));
  await ctx.container.kv.set(keys.accessToken, 'stored-token');
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

let phoneCounter = 0;
const newPhone = () =>
  `38067${String(Date.now() % 100000).padStart(5, '0')}${String(++phoneCounter).padStart(2, '0')}`;

interface Scene {
  departmentId: string;
  employee: TestUser;
  approver: TestUser;
  phone: string;
  conversation: typeof conversations.$inferSelect;
}

/** A department with an approver and an employee talking on channel A from a number of their own. */
async function scene(container: Container): Promise<Scene> {
  const department = await createDepartment(container);
  const phone = newPhone();
  const employee = await createUser(container, { departmentId: department.id, phone });
  const approver = await createUser(container, { departmentId: department.id, role: 'approver' });
  const [conversation] = await container.db
    .insert(conversations)
    .values({ channel: 'chanA', channelUserId: phone, userId: employee.user.id, departmentId: department.id })
    .returning();
  return { departmentId: department.id, employee, approver, phone, conversation: conversation! };
}

/** A reply as the pipeline (or an approval) writes it: the queued message, then its job after the commit. */
async function queueReply(container: Container, s: Scene, content: string) {
  const { message, effects } = await container.db.transaction((tx) =>
    container.pipeline.routing.deliverReply(tx, {
      conversation: s.conversation,
      taskId: null,
      approvalId: null,
      content,
    }),
  );
  await container.pipeline.routing.publish(effects);
  return message;
}

/** A queued reply without a job, for calling the worker's handler directly. */
async function queuedMessage(container: Container, s: Scene, content: string) {
  const [row] = await container.db
    .insert(messages)
    .values({
      conversationId: s.conversation.id,
      channel: 'chanA',
      direction: 'outbound',
      content,
      status: 'queued',
    })
    .returning();
  return row!;
}

const messageRow = async (id: string) =>
  (await ctx.container.db.select().from(messages).where(eq(messages.id, id)))[0]!;

const settled = (id: string) =>
  waitFor(`message ${id} sent or failed`, async () => {
    const row = await messageRow(id);
    return row.status === 'sent' || row.status === 'failed' ? row : null;
  });

/** The shared channel sender wired to the container as container.ts wires it, logging to `logger`. */
const channelDeliveryOf = (container: Container, logger = container.logger) =>
  createChannelDelivery({
    db: container.db,
    queue: container.queue,
    kv: container.kv,
    notifications: container.notifications.service,
    approversOf: (departmentId, tx) =>
      container.pipeline.recipients.withPermission(departmentId, 'canApprove', { tx }),
    logger,
  });

const callsTo = (phone: string) => fake.messageCalls().filter((call) => call.body.to === phone);

const job = (data: OutboundJobData) => ({
  id: `manual-${randomUUID()}`,
  queue: 'chanA-outbound' as const,
  name: 'send',
  data,
  attemptsMade: 0,
  maxAttempts: 3,
});

describe('chanA outbound', () => {
  it('sends with the token from the key-value store, not the configured one, and records the platform id', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const message = await queueReply(container, s, 'You get **24 days** of paid vacation.');
    const row = await settled(message.id);

    expect(row.status).toBe('sent');
    const [call, ...more] = callsTo(s.phone);
    expect(more).toEqual([]);
    expect(call!.path).toBe(`/${PHONE_NUMBER_ID}/messages`);
    expect(call!.headers.authorization).toBe('Bearer stored-token');
    expect(call!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: s.phone,
      type: 'text',
      text: { body: 'You get *24 days* of paid vacation.', preview_url: false },
    });
    expect(row.channelMessageId).toMatch(/^wamid\.fake-\d+$/);
    expect(row.metadata).toMatchObject({ partsSent: 1, platformMessageIds: [row.channelMessageId] });
    const lastOutbound = await container.kv.get('chanA:last-outbound-at');
    expect(Date.parse(lastOutbound ?? '')).toBeGreaterThanOrEqual(row.createdAt.getTime());
  });

  it('sends a long reply as ordered parts that join into the formatted reply', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const paragraphs = Array.from(
      { length: 30 },
      (_, i) =>
        `**Section ${i + 1}.** ${'Vacation days carry over to the next year when approved. '.repeat(5)}`,
    );
    const content = paragraphs.join('\n\n');
    const message = await queueReply(container, s, content);
    const row = await settled(message.id);

    expect(row.status).toBe('sent');
    const bodies = callsTo(s.phone).map((call) => (call.body.text as { body: string }).body);
    expect(bodies.length).toBeGreaterThan(2);
    for (const body of bodies) expect(body.length).toBeLessThanOrEqual(CHANA_TEXT_LIMIT);
    expect(bodies.join('\n\n')).toBe(formatForChanA(content));
    expect(bodies[0]).toMatch(/^\*Section 1\.\*/);
    const ids = row.metadata.platformMessageIds as string[];
    expect(ids).toHaveLength(bodies.length);
    expect(row.metadata.partsSent).toBe(bodies.length);
    expect(row.channelMessageId).toBe(ids[ids.length - 1]);
  });

  it('retries a 429 after its Retry-After, then sends', async () => {
    const { container } = ctx;
    const s = await scene(container);
    fake.replyNext('messages', {
      status: 429,
      headers: { 'retry-after': '1' },
      body: {
        error: { message: 'Too many messages', type: 'OAuthException', code: 130429, fbtrace_id: 'x' },
      },
    });
    const message = await queueReply(container, s, 'Your request is approved.');
    const row = await settled(message.id);

    expect(row.status).toBe('sent');
    // Two calls: the refused one, then the retry, which the platform accepted.
    expect(callsTo(s.phone)).toHaveLength(2);
    // The row is marked sent inside the job, a moment before the queue marks the job completed.
    const retry = await waitFor('the retry job to complete', async () => {
      const job = await container.queue.getJob<OutboundJobData>(
        'chanA-outbound',
        `outbound-${message.id}-r1`,
      );
      return job?.state === 'completed' ? job : null;
    });
    expect(retry).toMatchObject({ state: 'completed', data: { messageId: message.id, retries: 1 } });
    expect(row.metadata).toMatchObject({ partsSent: 1 });
  });

  it('fails a message the platform refuses for good, with the reason, and tells the department’s approvers', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const outsider = await createUser(container, { role: 'approver' });
    fake.replyNext('messages', fake.graphError(400, '(#100) Invalid parameter', 100));
    const message = await queueReply(container, s, 'Here is the policy.');
    const row = await settled(message.id);

    expect(row.status).toBe('failed');
    expect(row.metadata.failureReason).toBe('Graph API 400 (code 100): (#100) Invalid parameter');
    const notices = await container.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.entityId, message.id), eq(notifications.type, 'system')));
    expect(notices.map((n) => n.userId)).toEqual([s.approver.user.id]);
    expect(notices[0]).toMatchObject({ entityType: 'message', title: 'A reply could not be delivered' });
    expect(notices[0]!.body).toContain('(#100) Invalid parameter');
    expect(notices.some((n) => n.userId === outsider.user.id || n.userId === s.employee.user.id)).toBe(false);
  });

  it('gives up after the last retry: failed with the reason, approvers told', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const message = await queuedMessage(container, s, 'Try again later.');
    fake.replyNext('messages', fake.graphError(503, 'Service temporarily unavailable', 2));
    const result = await container.chanA.sending.worker.handle(job({ messageId: message.id, retries: 8 }));

    expect(result).toBe('failed');
    const row = await messageRow(message.id);
    expect(row.status).toBe('failed');
    expect(row.metadata.failureReason).toBe(
      'Graph API 503 (code 2): Service temporarily unavailable (gave up after 9 tries)',
    );
    const [notice] = await container.db
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, message.id));
    expect(notice).toMatchObject({ userId: s.approver.user.id, type: 'system' });
  });

  it('outside the 24-hour window (131047) sends the re-engagement template once and fails the free text', async () => {
    const { container } = ctx;
    const s = await scene(container);
    fake.replyNext(
      'messages',
      fake.graphError(400, 'Message failed to send because more than 24 hours have passed', 131047),
    );
    const message = await queueReply(container, s, 'The answer to your question.');
    const row = await settled(message.id);

    expect(row.status).toBe('failed');
    const [refused, template, ...more] = callsTo(s.phone);
    expect(more).toEqual([]);
    expect(refused!.body.type).toBe('text');
    expect(template!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: s.phone,
      type: 'template',
      template: { name: TEMPLATE, language: { code: 'en_US' } },
    });
    expect(row.metadata.failureReason).toMatch(/^Outside the 24-hour window \(code 131047\)/);
    expect(row.metadata.failureReason).toContain(
      `The re-engagement template "${TEMPLATE}" was sent (wamid.fake-`,
    );

    // A second reply refused the same way does not send the template again.
    fake.replyNext('messages', fake.graphError(400, 'Re-engagement message', 131047));
    const second = await settled((await queueReply(container, s, 'Another answer.')).id);
    expect(second.metadata.failureReason).toContain('was sent to this employee within the last 24 hours');
    expect(callsTo(s.phone).filter((call) => call.body.type === 'template')).toHaveLength(1);
  });

  it('a 131047 receipt after the platform accepted the message goes the same way', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const sent = await settled((await queueReply(container, s, 'Accepted, then failed.')).id);
    expect(sent.status).toBe('sent');
    expect(
      await container.chanA.sending.reengagement.handleReengagementFailure(sent.id, 'Re-engagement message'),
    ).toBe(true);
    const row = await messageRow(sent.id);
    expect(row.status).toBe('failed');
    expect(row.metadata.failureReason).toContain('Re-engagement message');
    expect(callsTo(s.phone).map((call) => call.body.type)).toEqual(['text', 'template']);
    // Handled once: a repeated hand-over changes nothing.
    expect(await container.chanA.sending.reengagement.handleReengagementFailure(sent.id)).toBe(false);
  });

  it('without a re-engagement template a 131047 only fails the message with the reason', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const sending = createChanAOutbound({
      config: { ...container.config.chanA, reengagementTemplate: null },
      outbound: channelDeliveryOf(container),
    });
    const message = await queuedMessage(container, s, 'Outside the window.');
    fake.replyNext('messages', fake.graphError(400, 'Re-engagement message', 131047));
    expect(await sending.worker.handle(job({ messageId: message.id }))).toBe('failed');
    const row = await messageRow(message.id);
    expect(row.status).toBe('failed');
    expect(row.metadata.failureReason).toBe(
      'Outside the 24-hour window (code 131047), the reply was not delivered: Graph API 400 (code 131047): Re-engagement message. No re-engagement template is configured (CHANA_REENGAGEMENT_TEMPLATE).',
    );
    expect(callsTo(s.phone)).toHaveLength(1);
  });

  it('delivers once: a replayed job is a no-op, and a retry resumes after the parts already sent', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const sent = await settled((await queueReply(container, s, 'Delivered once.')).id);
    expect(await container.chanA.sending.worker.handle(job({ messageId: sent.id }))).toBe('skipped');
    expect(callsTo(s.phone)).toHaveLength(1);

    // A two-part reply whose first part went out before a crash: only the second is sent.
    const content = `${'a'.repeat(3000)}\n\n${'b'.repeat(3000)}`;
    const message = await queuedMessage(container, s, content);
    await container.db
      .update(messages)
      .set({
        metadata: { partsSent: 1, platformMessageIds: ['wamid.before-crash'] },
        channelMessageId: 'wamid.before-crash',
      })
      .where(eq(messages.id, message.id));
    expect(await container.chanA.sending.worker.handle(job({ messageId: message.id }))).toBe('sent');
    const bodies = callsTo(s.phone).map((call) => (call.body.text as { body: string }).body);
    expect(bodies).toEqual(['Delivered once.', 'b'.repeat(3000)]);
    const row = await messageRow(message.id);
    expect(row.metadata).toMatchObject({ partsSent: 2 });
    expect((row.metadata.platformMessageIds as string[])[0]).toBe('wamid.before-crash');
    expect(row.channelMessageId).toBe((row.metadata.platformMessageIds as string[])[1]);
  });

  it('records each attempt before the call: a resend after an attempt left open is logged as a possible duplicate', async () => {
    const { container } = ctx;
    const s = await scene(container);
    const warnings: string[] = [];
    const logger = {
      ...container.logger,
      warn: (_object: object, message?: string) => void warnings.push(message ?? ''),
    };
    const sending = createChanAOutbound({
      config: container.config.chanA,
      outbound: channelDeliveryOf(container, logger as typeof container.logger),
    });

    // The platform says "later": the attempt is closed, so the next one repeats nothing.
    const retried = await queuedMessage(container, s, 'Retried after a 429.');
    // An hour's Retry-After keeps the put-back job out of the way of this test's own second try.
    fake.replyNext('messages', {
      status: 429,
      headers: { 'retry-after': '3600' },
      body: { error: { message: 'Rate limit hit', type: 'OAuthException', code: 130429, fbtrace_id: 'x' } },
    });
    expect(await sending.worker.handle(job({ messageId: retried.id }))).toBe('retrying');
    expect((await messageRow(retried.id)).metadata).toMatchObject({ sendAttempt: { n: 1, open: false } });
    expect(await sending.worker.handle(job({ messageId: retried.id, retries: 1 }))).toBe('sent');
    expect(warnings.filter((w) => w.includes('possible duplicate'))).toEqual([]);

    // What a process that died during the platform call leaves: the attempt open, the message queued.
    const crashed = await queuedMessage(container, s, 'Sent while the worker died.');
    await container.db
      .update(messages)
      .set({ metadata: { sendAttempt: { n: 1, open: true, at: new Date().toISOString() } } })
      .where(eq(messages.id, crashed.id));
    expect(await sending.worker.handle(job({ messageId: crashed.id }))).toBe('sent');
    expect(warnings.filter((w) => w.includes('possible duplicate'))).toHaveLength(1);
    expect((await messageRow(crashed.id)).metadata).toMatchObject({ sendAttempt: { n: 2, open: true } });
  });

  it('sends a conversation’s replies in order: a reply waits while an earlier one is unsent, unless that one waits on purpose', async () => {
    const { container } = ctx;
    const s = await scene(container);
    // The earlier reply's job is in a process that died: it is still queued, nobody is sending it.
    const earlier = await queuedMessage(container, s, 'The first answer.');
    const later = await queuedMessage(container, s, 'The second answer.');
    // Written a moment apart, as two tasks' replies are (two inserts can share a clock tick here).
    await container.db
      .update(messages)
      .set({ createdAt: new Date(later.createdAt.getTime() - 1000) })
      .where(eq(messages.id, earlier.id));
    const handle = (messageId: string) => container.chanA.sending.worker.handle(job({ messageId }));
    expect(await handle(later.id)).toBe('held');
    expect(callsTo(s.phone)).toEqual([]);
    // It was put back to look again; this test plays that look itself (the delayed job would skip it).
    expect(await container.queue.removeJob('chanA-outbound', `outbound-${later.id}-h1`)).toBe(true);
    expect(await handle(earlier.id)).toBe('sent');
    expect(await handle(later.id)).toBe('sent');
    expect(callsTo(s.phone).map((call) => (call.body.text as { body: string }).body)).toEqual([
      'The first answer.',
      'The second answer.',
    ]);

    // A reply waiting for its rate limit or a retry (deferred until later) holds nobody up.
    const deferred = await queuedMessage(container, s, 'Waiting for the next window.');
    await container.db
      .update(messages)
      .set({ metadata: { deferredUntil: new Date(Date.now() + 60_000).toISOString() } })
      .where(eq(messages.id, deferred.id));
    const next = await queuedMessage(container, s, 'Not held up.');
    await container.db
      .update(messages)
      .set({ createdAt: new Date(next.createdAt.getTime() + 1000) })
      .where(eq(messages.id, next.id));
    expect(await handle(next.id)).toBe('sent');
  });

  it('rate-limits per sender: 20 replies at 10 a minute are spread out, none dropped, another sender is not held up', async () => {
    const { container } = ctx;
    const busy = await scene(container);
    const other = await scene(container);
    const before = await container.queue.counts('chanA-outbound');
    const burst: Array<{ id: string }> = [];
    for (let i = 0; i < 20; i++) burst.push(await queueReply(container, busy, `Reply number ${i + 1}.`));
    const statusesOf = async () =>
      Promise.all(burst.map(async (message) => (await messageRow(message.id)).status));
    const rateDelayed = async () =>
      (
        await Promise.all(
          burst.map((message) => container.queue.getJob('chanA-outbound', `outbound-${message.id}-d1`)),
        )
      ).filter((info) => info?.state === 'delayed');
    // One after the other (a reply waits for the one before it), then the rest wait for the next window.
    await waitFor('ten replies sent and ten delayed', async () => {
      const sent = (await statusesOf()).filter((status) => status === 'sent').length;
      return sent === 10 && (await rateDelayed()).length === 10;
    });

    const quick = await queueReply(container, other, 'Not held up.');
    expect((await settled(quick.id)).status).toBe('sent');
    // The busy sender's replies are still waiting for the next window: none sent past the limit, none dropped.
    const statuses = await statusesOf();
    expect(statuses.filter((status) => status === 'sent')).toHaveLength(10);
    expect(statuses.filter((status) => status === 'queued')).toHaveLength(10);
    expect(callsTo(busy.phone)).toHaveLength(10);
    expect(await rateDelayed()).toHaveLength(10);
    expect((await container.queue.counts('chanA-outbound')).delayed - before.delayed).toBeGreaterThanOrEqual(
      10,
    );
  });
});
