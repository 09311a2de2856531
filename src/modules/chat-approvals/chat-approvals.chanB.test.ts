import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApprovalFixture,
  approvalWithStatus,
  chatDecisionAudits,
  createApprovalFixture,
  notifyApprovalPending,
} from '../../../test/approval-factories.js';
import { type ChanBTestApp, chatIds, linkChanBUser, startChanBTestApp } from '../../../test/chanB-app.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import type { SentMessage } from '../../../test/fakes/chanB-bot-server.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { approvals, auditLogs, conversations, messages, users } from '../../core/db/schema/index.js';
import { chatTexts } from './chat-approval-texts.js';

const en = chatTexts('en');

type Keyboard = Array<Array<{ text: string; callback_data: string }>>;
const buttonsOf = (message: { replyMarkup: Record<string, unknown> | null } | undefined) =>
  ((message?.replyMarkup?.inline_keyboard ?? []) as Keyboard).flat();

/**
 * Approvals in chat on channel B, end to end: the whole service with its workers (the elected
 * poller, the `chanB-inbound` consumer, the requests' pass), the fake Bot API for everything sent
 * and received. Every press and answer is an update the poller takes, as in production.
 */
describe('approvals in chat on channel B', { timeout: 120_000 }, () => {
  let app: ChanBTestApp;
  const chat = chatIds(720_000_000);

  beforeAll(async () => {
    app = await startChanBTestApp({ token: '7000002:chat-approvals-flow' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const ctx = () => app.ctx;
  const db = () => app.ctx.container.db;
  const bot = () => app.bot;

  /** An approver of `departmentId` with a linked channel B identity and chat approvals on there. */
  async function approver(departmentId: string, name?: string): Promise<{ user: TestUser; chat: number }> {
    const user = await createUser(ctx().container, {
      role: 'approver',
      departmentId,
      ...(name ? { name } : {}),
    });
    const id = chat();
    await linkChanBUser(ctx(), id, user.user.id);
    const res = await ctx().app.inject({
      method: 'PUT',
      url: '/api/v1/me/approval-channels',
      headers: user.headers,
      payload: { channels: ['chanB'] },
    });
    expect(res.statusCode).toBe(200);
    return { user, chat: id };
  }

  /** The `approval_pending` notification the pipeline writes for each of `userIds`, then a pass of the requests. */
  async function notify(approvalId: string, ...userIds: string[]): Promise<void> {
    await notifyApprovalPending(ctx().container, approvalId, ...userIds);
    await ctx().container.chatApprovals.requests.run();
  }

  /** The first message the bot sent to `chatId` that `match` accepts, once sent. */
  const sentTo = (what: string, chatId: number, match: (m: SentMessage) => boolean) =>
    waitFor(what, () => bot().sent.find((m) => m.chatId === String(chatId) && match(m)), 60_000);

  /** The request about `fixture` in `chatId`, with its four buttons. */
  const requestIn = (chatId: number, fixture: ApprovalFixture) =>
    sentTo(
      'the request',
      chatId,
      (m) => m.plain.includes(fixture.employee.user.name) && buttonsOf(m).length === 4,
    );

  /** `chatId`'s user presses the button with `data` under the bot's message `messageId`; answers the press's id. */
  function press(chatId: number, messageId: number, data: string): string {
    const update = bot().callbackUpdate(chatId, messageId, data);
    bot().pushUpdate(update);
    return (update.callback_query as { id: string }).id;
  }

  /** `chatId`'s user writes `text`; answers the message's channel message id, as an inbound one would be stored. */
  function write(chatId: number, text: string): string {
    const update = bot().textUpdate(chatId, text);
    bot().pushUpdate(update);
    return `${chatId}-${(update.message as { message_id: number }).message_id}`;
  }

  /** The press `pressId` was answered; answers the toast (null when none). */
  const answered = (pressId: string) =>
    waitFor(
      `the answer to ${pressId}`,
      () => bot().answered.find((a) => a.callbackQueryId === pressId),
      60_000,
    );

  const decided = (approvalId: string, status: string) =>
    approvalWithStatus(ctx().container, approvalId, status);

  /** The audit entries of `action` on the approval made from channel B. */
  const auditOf = (approvalId: string, action: string) =>
    waitFor(`the ${action} audit`, async () => {
      const rows = await chatDecisionAudits(ctx().container, approvalId, action, 'chanB');
      return rows.length ? rows : null;
    });

  /** The copy `messageId` in `chatId` shows `outcome` and has no buttons left. */
  const showsOutcome = (chatId: number, messageId: number, outcome: string) =>
    waitFor(
      `the copy in ${chatId} showing the outcome`,
      () => {
        const now = bot().messageAt(chatId, messageId);
        return now?.plain.includes(outcome) && buttonsOf(now).length === 0 ? now : null;
      },
      60_000,
    );

  /**
   * What `chatId`'s user wrote never became a conversation message (so no agent task either: the
   * pipeline stores the message and opens the conversation first). Called once its effect is seen.
   */
  async function neverReachedThePipeline(chatId: number, channelMessageId: string): Promise<void> {
    expect(await db().select().from(messages).where(eq(messages.channelMessageId, channelMessageId))).toEqual(
      [],
    );
    const opened = await db()
      .select()
      .from(conversations)
      .where(and(eq(conversations.channel, 'chanB'), eq(conversations.channelUserId, String(chatId))));
    expect(opened).toEqual([]);
  }

  it('an opted-in approver gets four buttons and approves with one press; the copy shows the outcome', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const { user, chat: chatId } = await approver(fixture.departmentId);
    await notify(fixture.approval.id, user.user.id);

    const request = await requestIn(chatId, fixture);
    expect(request.parseMode).toBeNull();
    expect(request.plain).toContain('How many vacation days do I get?');
    const keyboard = request.replyMarkup?.inline_keyboard as Keyboard;
    expect(keyboard.map((row) => row.map((b) => b.text))).toEqual([
      [en.approve, en.edit],
      [en.reject, en.escalate],
    ]);
    for (const button of keyboard.flat()) {
      expect(button.callback_data).toMatch(/^apv:.{36}$/);
      expect(button.callback_data).not.toContain(fixture.approval.id);
    }

    const pressId = press(chatId, request.messageId, buttonsOf(request)[0]!.callback_data);
    const row = await decided(fixture.approval.id, 'approved');
    expect(row.decidedById).toBe(user.user.id);
    const [audit, ...more] = await auditOf(fixture.approval.id, 'approve');
    expect(more).toEqual([]);
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanB', platformMessageId: String(request.messageId) },
    });
    expect(await answered(pressId)).toEqual({ callbackQueryId: pressId, text: null });
    await showsOutcome(chatId, request.messageId, `✅ Approved by ${user.user.name}`);
    await neverReachedThePipeline(chatId, `${chatId}-cb-${pressId}`);
  });

  it('edits: the next message becomes the reply and never reaches the assistant', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const { user, chat: chatId } = await approver(fixture.departmentId);
    await notify(fixture.approval.id, user.user.id);
    const request = await requestIn(chatId, fixture);

    const pressId = press(chatId, request.messageId, buttonsOf(request)[1]!.callback_data);
    await answered(pressId);
    await sentTo('the question for the new text', chatId, (m) => m.plain === en.askEdit);
    const editId = write(chatId, 'You get 24 days of paid vacation a year.');

    const row = await decided(fixture.approval.id, 'edited');
    expect(row).toMatchObject({
      decidedById: user.user.id,
      editedContent: 'You get 24 days of paid vacation a year.',
    });
    const [audit] = await auditOf(fixture.approval.id, 'approve');
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanB', editedContent: 'You get 24 days of paid vacation a year.' },
    });
    await showsOutcome(chatId, request.messageId, `✏️ Approved with edits by ${user.user.name}`);
    await neverReachedThePipeline(chatId, editId);
  });

  it('rejects with the reason sent as the next message', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const { user, chat: chatId } = await approver(fixture.departmentId);
    await notify(fixture.approval.id, user.user.id);
    const request = await requestIn(chatId, fixture);

    press(chatId, request.messageId, buttonsOf(request)[2]!.callback_data);
    await sentTo('the question for a reason', chatId, (m) => m.plain === en.askReason);
    const reasonId = write(chatId, 'The policy changed this year.');

    const row = await decided(fixture.approval.id, 'rejected');
    expect(row).toMatchObject({ decidedById: user.user.id, reason: 'The policy changed this year.' });
    const [audit] = await auditOf(fixture.approval.id, 'reject');
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanB', reason: 'The policy changed this year.' },
    });
    await showsOutcome(chatId, request.messageId, `❌ Rejected by ${user.user.name}`);
    await neverReachedThePipeline(chatId, reasonId);
  });

  it('escalates to a user chosen from the list, one a row', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const { user, chat: chatId } = await approver(fixture.departmentId);
    const colleague = await createUser(ctx().container, {
      role: 'approver',
      departmentId: fixture.departmentId,
    });
    await notify(fixture.approval.id, user.user.id);
    const request = await requestIn(chatId, fixture);

    press(chatId, request.messageId, buttonsOf(request)[3]!.callback_data);
    const list = await sentTo('the list of users', chatId, (m) => m.plain === en.escalateTo);
    const rows = list.replyMarkup?.inline_keyboard as Keyboard;
    expect(rows.every((row) => row.length === 1)).toBe(true);
    const choice = rows.flat().find((b) => b.text === colleague.user.name);
    expect(choice?.callback_data).toMatch(/^apv:/);
    expect(rows.flat().some((b) => b.text === user.user.name)).toBe(false);

    press(chatId, list.messageId, choice!.callback_data);
    const row = await decided(fixture.approval.id, 'escalated');
    expect(row.escalatedToId).toBe(colleague.user.id);
    const [audit] = await auditOf(fixture.approval.id, 'escalate');
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanB', escalatedToId: colleague.user.id },
    });
    await showsOutcome(chatId, request.messageId, colleague.user.name);
  });

  it('a second approver’s press after the decision is answered as already decided and changes nothing', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const first = await approver(fixture.departmentId);
    const second = await approver(fixture.departmentId);
    await notify(fixture.approval.id, first.user.user.id, second.user.user.id);
    const mine = await requestIn(first.chat, fixture);
    const theirs = await requestIn(second.chat, fixture);

    press(first.chat, mine.messageId, buttonsOf(mine)[0]!.callback_data);
    const decidedRow = await decided(fixture.approval.id, 'approved');
    // Every copy shows the outcome, so the second approver sees it before pressing anything.
    const outcome = `✅ Approved by ${first.user.user.name}`;
    await showsOutcome(second.chat, theirs.messageId, outcome);

    // A press on a copy still open in a client that has not refreshed it.
    const late = press(second.chat, theirs.messageId, buttonsOf(theirs)[2]!.callback_data);
    const answer = await answered(late);
    expect(answer.text).toMatch(/^Already decided: ✅ Approved by /);
    const [row] = await db().select().from(approvals).where(eq(approvals.id, fixture.approval.id));
    expect(row).toMatchObject({ status: 'approved', decidedById: first.user.user.id, reason: null });
    expect(row?.decidedAt).toEqual(decidedRow.decidedAt);
    const rejections = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, fixture.approval.id), eq(auditLogs.action, 'reject')));
    expect(rejections).toEqual([]);
    // No reason was asked of them.
    expect(bot().sent.some((m) => m.chatId === String(second.chat) && m.plain === en.askReason)).toBe(false);
  });

  it('a decision in the console first updates the chat copy, and a press on it then changes nothing', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const { user, chat: chatId } = await approver(fixture.departmentId);
    await notify(fixture.approval.id, user.user.id);
    const request = await requestIn(chatId, fixture);

    const res = await ctx().app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: user.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    await showsOutcome(chatId, request.messageId, `✅ Approved by ${user.user.name}`);

    const pressId = press(chatId, request.messageId, buttonsOf(request)[2]!.callback_data);
    expect((await answered(pressId)).text).toMatch(/^Already decided: /);
    expect((await decided(fixture.approval.id, 'approved')).decidedById).toBe(user.user.id);
  });

  it('an edit awaited when a colleague decides in the console: the text is answered, never a question to the assistant', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const { user, chat: chatId } = await approver(fixture.departmentId);
    const colleague = await createUser(ctx().container, {
      role: 'approver',
      departmentId: fixture.departmentId,
    });
    await notify(fixture.approval.id, user.user.id);
    const request = await requestIn(chatId, fixture);
    await answered(press(chatId, request.messageId, buttonsOf(request)[1]!.callback_data));
    await sentTo('the question for the new text', chatId, (m) => m.plain === en.askEdit);

    const res = await ctx().app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/reject`,
      headers: colleague.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    await showsOutcome(chatId, request.messageId, `❌ Rejected by ${colleague.user.name}`);
    const editId = write(chatId, 'You get 24 days of paid vacation a year.');
    await sentTo('the answer to the late edit', chatId, (m) =>
      m.plain.startsWith('Already decided: ❌ Rejected by'),
    );
    await neverReachedThePipeline(chatId, editId);
    const [row] = await db().select().from(approvals).where(eq(approvals.id, fixture.approval.id));
    expect(row).toMatchObject({ status: 'rejected', decidedById: colleague.user.id, editedContent: null });
  });

  it('refuses the press of an approver whose permission was revoked after the request was sent', async () => {
    const fixture = await createApprovalFixture(ctx().container);
    const { user, chat: chatId } = await approver(fixture.departmentId);
    await notify(fixture.approval.id, user.user.id);
    const request = await requestIn(chatId, fixture);

    await db()
      .update(users)
      .set({ revokedPermissions: ['canApprove'] })
      .where(eq(users.id, user.user.id));
    const pressId = press(chatId, request.messageId, buttonsOf(request)[0]!.callback_data);
    expect((await answered(pressId)).text).toBe(en.notAllowed);
    const [row] = await db().select().from(approvals).where(eq(approvals.id, fixture.approval.id));
    expect(row).toMatchObject({ status: 'pending', decidedById: null });
    // The copy keeps its buttons: the approval is still open for others.
    expect(buttonsOf(bot().messageAt(chatId, request.messageId))).toHaveLength(4);
  });
});
