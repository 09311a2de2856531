import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalFixture, notifyApprovalPending } from '../../../test/approval-factories.js';
import { chanBTestEnv, chatIds, linkChanBUser } from '../../../test/chanB-app.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { type FakeBotServer, startFakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import { createPipelineTestApp, type PipelineTestContext } from '../../../test/pipeline-factories.js';
import { approvalChatRequests, namespaces, users } from '../../core/db/schema/index.js';
import { MAX_REQUESTS_PER_WINDOW, RATE_WINDOW_MS } from './chat-requests.js';

const TOKEN = '7000001:chat-requests';

/**
 * The requests themselves (no worker runs: each pass is run with its own clock): who gets one,
 * what it says, the rate limit and its digest, and the copies after a decision.
 */
describe('approval requests in chat', () => {
  let bot: FakeBotServer;
  let ctx: PipelineTestContext;
  const chat = chatIds(700_000);

  beforeAll(async () => {
    bot = await startFakeBotServer({ token: TOKEN });
    ctx = await createPipelineTestApp(chanBTestEnv(bot.url, TOKEN));
  });
  afterAll(async () => {
    await ctx?.close();
    await bot?.close();
  });

  /** An approver of `departmentId` with chat approvals on channel B, and their chat. */
  async function optedInApprover(
    departmentId: string,
    options: { role?: 'approver' | 'dept_head'; language?: 'uk' } = {},
  ): Promise<{ user: TestUser; chat: number }> {
    const user = await createUser(ctx.container, { role: options.role ?? 'approver', departmentId });
    const id = chat();
    await linkChanBUser(ctx, id, user.user.id);
    if (options.language) {
      await ctx.container.db
        .update(users)
        .set({ language: options.language })
        .where(eq(users.id, user.user.id));
    }
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/me/approval-channels',
      headers: user.headers,
      payload: { channels: ['chanB'] },
    });
    expect(res.statusCode).toBe(200);
    return { user, chat: id };
  }

  /** The `approval_pending` notification the pipeline writes for `userId` about `approvalId`. */
  const notify = (userId: string, approvalId: string) =>
    notifyApprovalPending(ctx.container, approvalId, userId);

  const requests = () => ctx.container.chatApprovals.requests;
  const sentTo = (id: number) => bot.sent.filter((m) => m.chatId === String(id));
  const rowsOf = (userId: string) =>
    ctx.container.db.select().from(approvalChatRequests).where(eq(approvalChatRequests.userId, userId));

  it('sends each opted-in approver one request with the question, draft, reasons, confidence and four buttons', async () => {
    const fixture = await createApprovalFixture(ctx.container, { confidence: 0.4321 });
    const approver = await optedInApprover(fixture.departmentId);
    await notify(approver.user.user.id, fixture.approval.id);
    await requests().run();
    await requests().run();

    const [message, ...more] = sentTo(approver.chat);
    expect(more).toEqual([]);
    expect(message?.plain).toContain(fixture.employee.user.name);
    expect(message?.plain).toContain('How many vacation days do I get?');
    expect(message?.plain).toContain('You get twenty four days of paid vacation.');
    expect(message?.plain).toContain('first question, trust not earned yet');
    expect(message?.plain).toContain('Confidence: 43%');
    const keyboard = (message?.replyMarkup?.inline_keyboard ?? []) as Array<
      Array<{ text: string; callback_data: string }>
    >;
    expect(keyboard.flat().map((b) => b.text)).toEqual(['Approve', 'Edit', 'Reject', 'Escalate']);
    for (const button of keyboard.flat()) {
      expect(button.callback_data).toMatch(/^apv:/);
      expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
      expect(button.callback_data).not.toContain(fixture.approval.id);
    }
    expect((await rowsOf(approver.user.user.id)).map((r) => r.status)).toEqual(['sent']);
  });

  it('writes in the approver’s language', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    const approver = await optedInApprover(fixture.departmentId, { language: 'uk' });
    await notify(approver.user.user.id, fixture.approval.id);
    await requests().run();
    const [message] = sentTo(approver.chat);
    expect(message?.plain).toContain('Потрібне погодження');
    const keyboard = (message?.replyMarkup?.inline_keyboard ?? []) as Array<Array<{ text: string }>>;
    expect(keyboard.flat().map((b) => b.text)).toEqual(['Погодити', 'Змінити', 'Відхилити', 'Передати']);
  });

  it('sends nothing for an approval decided first, nor to an approver whose permission was revoked', async () => {
    const decided = await createApprovalFixture(ctx.container);
    const approver = await optedInApprover(decided.departmentId);
    await notify(approver.user.user.id, decided.approval.id);
    const approved = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${decided.approval.id}/approve`,
      headers: approver.user.headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);

    const other = await createApprovalFixture(ctx.container);
    const revoked = await optedInApprover(other.departmentId);
    await ctx.container.db
      .update(users)
      .set({ revokedPermissions: ['canApprove'] })
      .where(eq(users.id, revoked.user.user.id));
    await notify(revoked.user.user.id, other.approval.id);

    await requests().run();
    expect(sentTo(approver.chat)).toEqual([]);
    expect(sentTo(revoked.chat)).toEqual([]);
    expect((await rowsOf(revoked.user.user.id)).map((r) => r.status)).toEqual(['skipped']);
  });

  it(`sends at most ${MAX_REQUESTS_PER_WINDOW} requests in 10 minutes, then one digest with the count`, async () => {
    const first = await createApprovalFixture(ctx.container);
    const approver = await optedInApprover(first.departmentId);
    const fixtures = [first];
    for (let i = 1; i < MAX_REQUESTS_PER_WINDOW + 3; i += 1) {
      fixtures.push(
        await createApprovalFixture(ctx.container, {
          departmentId: first.departmentId,
          namespaceId: first.namespaceId,
        }),
      );
    }
    for (const fixture of fixtures) await notify(approver.user.user.id, fixture.approval.id);
    const start = new Date();
    await requests().run(start);
    expect(sentTo(approver.chat)).toHaveLength(MAX_REQUESTS_PER_WINDOW);
    // One of the held approvals is decided meanwhile: the digest counts only what still waits.
    const held = (await rowsOf(approver.user.user.id)).filter((r) => r.status === 'held');
    expect(held).toHaveLength(3);
    const rejected = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${held[0]!.approvalId}/reject`,
      headers: approver.user.headers,
      payload: {},
    });
    expect(rejected.statusCode).toBe(200);
    await requests().run(new Date(start.getTime() + RATE_WINDOW_MS / 2));
    expect(sentTo(approver.chat)).toHaveLength(MAX_REQUESTS_PER_WINDOW);

    await requests().run(new Date(start.getTime() + RATE_WINDOW_MS + 1000));
    const messages = sentTo(approver.chat);
    expect(messages).toHaveLength(MAX_REQUESTS_PER_WINDOW + 1);
    expect(messages.at(-1)?.plain).toMatch(/^2 more replies wait for your approval\./);
    expect(messages.at(-1)?.replyMarkup).toBeNull();
    const statuses = (await rowsOf(approver.user.user.id)).map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill('digested'), ...Array(MAX_REQUESTS_PER_WINDOW).fill('sent')]);
  });

  it('shows a console decision on the chat copy', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    const approver = await optedInApprover(fixture.departmentId);
    await notify(approver.user.user.id, fixture.approval.id);
    await requests().run();
    const [request] = sentTo(approver.chat);

    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: approver.user.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    await requests().run();
    const edits = bot
      .callsOf('editMessageText')
      .filter((c) => String(c.body.chat_id) === String(approver.chat));
    expect(edits).toHaveLength(1);
    expect(edits[0]?.body.message_id).toBe(request?.messageId);
    expect(String(edits[0]?.body.text)).toMatch(
      new RegExp(`^✅ Approved by ${approver.user.user.name} at \\d\\d:\\d\\d UTC$`),
    );
    const [row] = await rowsOf(approver.user.user.id);
    expect(row?.outcome).toBe(edits[0]?.body.text);
  });

  it('sends the deadline’s escalation to the department heads who opted in', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    await ctx.container.db
      .update(namespaces)
      .set({ config: { approvalSlaMinutes: 5 } })
      .where(eq(namespaces.id, fixture.namespaceId));
    const head = await optedInApprover(fixture.departmentId, { role: 'dept_head' });
    const later = new Date(Date.now() + 6 * 60_000);
    expect(await ctx.container.approvals.sla.escalateOverdue(later)).toContain(fixture.approval.id);
    await requests().run(later);
    const [message] = sentTo(head.chat);
    expect(message?.plain).toContain('You get twenty four days of paid vacation.');
  });
});
