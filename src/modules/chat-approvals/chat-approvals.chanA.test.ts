import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApprovalFixture,
  approvalWithStatus,
  chatDecisionAudits,
  createApprovalFixture,
  notifyApprovalPending,
} from '../../../test/approval-factories.js';
import { TEST_APP_SECRET, TEST_VERIFY_TOKEN } from '../../../test/chanA-app.js';
import { sendChanAMessage } from '../../../test/chanA-inbound.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  type FakeGraphServer,
  type GraphRequest,
  startFakeGraphServer,
} from '../../../test/fakes/chanA-graph-server.js';
import { TEST_PHONE_NUMBER_ID, textMessage, wamid } from '../../../test/fakes/chanA-webhooks.js';
import {
  createPipelineTestApp,
  type PipelineTestContext,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { approvalChatRequests, channelIdentities, messages, users } from '../../core/db/schema/index.js';
import { chatTexts } from './chat-approval-texts.js';

const TEMPLATE = 'approval_waiting';
const BUSINESS_NUMBER = '15550783881';
const en = chatTexts('en');

interface Interactive {
  type: 'button' | 'list';
  body: { text: string };
  action: {
    buttons?: Array<{ type: 'reply'; reply: { id: string; title: string } }>;
    button?: string;
    sections?: Array<{ rows: Array<{ id: string; title: string }> }>;
  };
}

/**
 * Approvals in chat on channel A, end to end: the whole service with its workers, the fake Graph
 * server for everything sent, signed webhooks for everything the approver does.
 */
describe('approvals in chat on channel A', () => {
  let graph: FakeGraphServer;
  let ctx: PipelineTestContext;

  beforeAll(async () => {
    graph = await startFakeGraphServer();
    ctx = await createPipelineTestApp(
      {
        CHANA_APP_SECRET: TEST_APP_SECRET,
        CHANA_WEBHOOK_VERIFY_TOKEN: TEST_VERIFY_TOKEN,
        CHANA_PHONE_NUMBER_ID: TEST_PHONE_NUMBER_ID,
        CHANA_ACCESS_TOKEN: 'test-access-token',
        CHANA_PHONE_NUMBER: BUSINESS_NUMBER,
        CHANA_API_BASE_URL: `${graph.url}/v21.0`,
        CHANA_APPROVAL_TEMPLATE: TEMPLATE,
      },
      { workers: true },
    );
  });
  afterAll(async () => {
    await ctx?.close();
    await graph?.close();
  });

  const db = () => ctx.container.db;
  const newPhone = () => `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`;

  /**
   * An approver of `departmentId` with chat approvals on channel A. `wrote`: they linked their number
   * by sending a link code from it (so their 24-hour window is open); else the identity is recorded
   * as an administrator would, and they never wrote.
   */
  async function approver(
    departmentId: string,
    options: { wrote: boolean; language?: 'uk' },
  ): Promise<{ user: TestUser; phone: string }> {
    const user = await createUser(ctx.container, { role: 'approver', departmentId });
    const phone = newPhone();
    if (options.wrote) {
      const code = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/me/channel-link-codes',
        headers: user.headers,
        payload: { channel: 'chanA' },
      });
      expect(code.statusCode).toBe(201);
      await sendChanAMessage(ctx.app, phone, textMessage(phone, code.json().code));
      await waitFor('the channel A identity', async () => {
        const [row] = await db()
          .select()
          .from(channelIdentities)
          .where(and(eq(channelIdentities.channel, 'chanA'), eq(channelIdentities.channelUserId, phone)));
        return row?.userId === user.user.id;
      });
    } else {
      await ctx.container.pipeline.repositories.senders.insertIdentity('chanA', phone, user.user.id, db());
    }
    if (options.language) {
      await db().update(users).set({ language: options.language }).where(eq(users.id, user.user.id));
    }
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/me/approval-channels',
      headers: user.headers,
      payload: { channels: ['chanA'] },
    });
    expect(res.statusCode).toBe(200);
    return { user, phone };
  }

  /** The `approval_pending` notification the pipeline writes for `userId`, then a pass of the requests. */
  async function notify(userId: string, approvalId: string): Promise<void> {
    await notifyApprovalPending(ctx.container, approvalId, userId);
    await ctx.container.chatApprovals.requests.run();
  }

  /** The first messages call to `phone` that `match` accepts, once it was made. */
  const callTo = (what: string, phone: string, match: (call: GraphRequest) => boolean) =>
    waitFor(what, () => graph.messageCalls().find((call) => call.body.to === phone && match(call)), 25_000);

  /** The request about `fixture` sent to `phone` with its reply buttons, and its platform id. */
  async function requestTo(phone: string, fixture: ApprovalFixture) {
    const call = await callTo('the request with its buttons', phone, (c) => {
      const interactive = c.body.interactive as Interactive | undefined;
      return interactive?.type === 'button' && interactive.body.text.includes(fixture.employee.user.name);
    });
    const interactive = call.body.interactive as Interactive;
    const buttons = (interactive.action.buttons ?? []).map((b) => b.reply);
    // The copy keeps the id the platform answered for this very message.
    const platformMessageId = await waitFor('the request’s row', async () => {
      const [row] = await db()
        .select()
        .from(approvalChatRequests)
        .where(
          and(
            eq(approvalChatRequests.approvalId, fixture.approval.id),
            eq(approvalChatRequests.address, phone),
            eq(approvalChatRequests.status, 'sent'),
          ),
        );
      return row?.platformMessageId;
    });
    expect(platformMessageId).toBe(call.messageId);
    return { interactive, buttons, platformMessageId };
  }

  /** The approver presses a reply button or list row (`id` a token) under the message `contextId`. */
  async function press(
    phone: string,
    kind: 'button_reply' | 'list_reply',
    row: { id: string; title: string },
    contextId: string,
  ): Promise<string> {
    const id = wamid();
    await sendChanAMessage(ctx.app, phone, {
      from: phone,
      id,
      timestamp: String(Math.floor(Date.now() / 1000)),
      type: 'interactive',
      interactive: { type: kind, [kind]: row },
      context: { from: BUSINESS_NUMBER, id: contextId },
    });
    return id;
  }

  /** The approver writes `text`; answers the message's platform id. */
  async function write(phone: string, text: string): Promise<string> {
    const id = wamid();
    await sendChanAMessage(ctx.app, phone, textMessage(phone, text, id));
    return id;
  }

  const textTo = (what: string, phone: string, body: (text: string) => boolean) =>
    callTo(what, phone, (c) => c.body.type === 'text' && body((c.body.text as { body: string }).body));

  const decided = (approvalId: string, status: string) =>
    approvalWithStatus(ctx.container, approvalId, status, 25_000);
  const auditOf = (approvalId: string, action: string) =>
    chatDecisionAudits(ctx.container, approvalId, action, 'chanA');

  /**
   * The approver's message `id` was never stored, so never reached the pipeline (which stores a
   * message before anything else). Called once the decision it made is seen: its intake is over.
   */
  async function neverReachedThePipeline(id: string): Promise<void> {
    const stored = await db().select().from(messages).where(eq(messages.channelMessageId, id));
    expect(stored).toEqual([]);
  }

  it('an approver who wrote gets the reply buttons and approves with one press', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    const { user, phone } = await approver(fixture.departmentId, { wrote: true });
    await notify(user.user.id, fixture.approval.id);

    const request = await requestTo(phone, fixture);
    expect(request.interactive.body.text).toContain('How many vacation days do I get?');
    expect(request.buttons.map((b) => b.title)).toEqual([en.approve, en.reject, en.more]);
    for (const button of request.buttons) {
      expect(button.id).toMatch(/^apv:.{36}$/);
      expect(button.id).not.toContain(fixture.approval.id);
    }

    const pressId = await press(phone, 'button_reply', request.buttons[0]!, request.platformMessageId);
    const row = await decided(fixture.approval.id, 'approved');
    expect(row.decidedById).toBe(user.user.id);
    const [audit, ...more] = await waitFor('the audit', async () => {
      const rows = await auditOf(fixture.approval.id, 'approve');
      return rows.length ? rows : null;
    });
    expect(more).toEqual([]);
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanA', platformMessageId: request.platformMessageId },
    });
    // The outcome answers the request itself.
    const outcome = await textTo('the outcome', phone, (text) =>
      text.startsWith(`✅ Approved by ${user.user.name}`),
    );
    expect(outcome.body.context).toEqual({ message_id: request.platformMessageId });
    await neverReachedThePipeline(pressId);
  });

  it('rejects with the reason sent as the next message, which never reaches the assistant', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    const { user, phone } = await approver(fixture.departmentId, { wrote: true });
    await notify(user.user.id, fixture.approval.id);
    const request = await requestTo(phone, fixture);

    const pressId = await press(phone, 'button_reply', request.buttons[1]!, request.platformMessageId);
    await textTo('the question for a reason', phone, (text) => text === en.askReason);
    const reasonId = await write(phone, 'The policy changed this year.');

    const row = await decided(fixture.approval.id, 'rejected');
    expect(row).toMatchObject({ decidedById: user.user.id, reason: 'The policy changed this year.' });
    const [audit] = await waitFor('the audit', async () => {
      const rows = await auditOf(fixture.approval.id, 'reject');
      return rows.length ? rows : null;
    });
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanA', reason: 'The policy changed this year.' },
    });
    await textTo('the outcome', phone, (text) => text.startsWith(`❌ Rejected by ${user.user.name}`));
    await neverReachedThePipeline(pressId);
    await neverReachedThePipeline(reasonId);
  });

  it('edits through More… and the list: the next message becomes the reply', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    const { user, phone } = await approver(fixture.departmentId, { wrote: true });
    await notify(user.user.id, fixture.approval.id);
    const request = await requestTo(phone, fixture);

    await press(phone, 'button_reply', request.buttons[2]!, request.platformMessageId);
    const list = await callTo('the list of More…', phone, (c) => {
      return (c.body.interactive as Interactive | undefined)?.type === 'list';
    });
    const interactive = list.body.interactive as Interactive;
    expect(interactive.body.text).toBe(en.moreText);
    expect(interactive.action.button).toBe(en.choose);
    const rows = interactive.action.sections?.[0]?.rows ?? [];
    expect(rows[0]?.title).toBe(en.edit);
    expect(rows.every((r) => r.id.startsWith('apv:'))).toBe(true);

    const listPress = await press(phone, 'list_reply', rows[0]!, list.messageId!);
    await textTo('the question for the new text', phone, (text) => text === en.askEdit);
    const editId = await write(phone, 'You get 24 days of paid vacation a year.');

    const row = await decided(fixture.approval.id, 'edited');
    expect(row).toMatchObject({
      decidedById: user.user.id,
      editedContent: 'You get 24 days of paid vacation a year.',
    });
    const [audit] = await waitFor('the audit', async () => {
      const audits = await auditOf(fixture.approval.id, 'approve');
      return audits.length ? audits : null;
    });
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanA', editedContent: 'You get 24 days of paid vacation a year.' },
    });
    const outcome = await textTo('the outcome', phone, (text) =>
      text.startsWith(`✏️ Approved with edits by ${user.user.name}`),
    );
    expect(outcome.body.context).toEqual({ message_id: request.platformMessageId });
    await neverReachedThePipeline(listPress);
    await neverReachedThePipeline(editId);
  });

  it('escalates through More… and the list of the department’s other approvers', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    const { user, phone } = await approver(fixture.departmentId, { wrote: true });
    const colleague = await createUser(ctx.container, {
      role: 'approver',
      departmentId: fixture.departmentId,
      name: `Colleague ${Math.random().toString(36).slice(2, 8)}`,
    });
    await notify(user.user.id, fixture.approval.id);
    const request = await requestTo(phone, fixture);

    await press(phone, 'button_reply', request.buttons[2]!, request.platformMessageId);
    const more = await callTo('the list of More…', phone, (c) => {
      return (c.body.interactive as Interactive | undefined)?.body.text === en.moreText;
    });
    const escalate = (more.body.interactive as Interactive).action.sections?.[0]?.rows.find(
      (r) => r.title === en.escalate,
    );
    expect(escalate).toBeDefined();
    await press(phone, 'list_reply', escalate!, more.messageId!);
    const people = await callTo('the list of approvers', phone, (c) => {
      return (c.body.interactive as Interactive | undefined)?.body.text === en.escalateTo;
    });
    const rows = (people.body.interactive as Interactive).action.sections?.[0]?.rows ?? [];
    // The reviewer is not offered to themself.
    expect(rows.map((r) => r.title)).toEqual([colleague.user.name]);
    await press(phone, 'list_reply', rows[0]!, people.messageId!);

    const row = await decided(fixture.approval.id, 'escalated');
    expect(row.escalatedToId).toBe(colleague.user.id);
    const [audit] = await waitFor('the audit', async () => {
      const audits = await auditOf(fixture.approval.id, 'escalate');
      return audits.length ? audits : null;
    });
    expect(audit).toMatchObject({
      userId: user.user.id,
      changes: { via: 'chanA', escalatedToId: colleague.user.id },
    });
    await textTo('the outcome', phone, (text) => text === `↗️ Escalated to ${colleague.user.name}`);
  });

  it('outside the window invites with the template, and the request follows the approver’s first message', async () => {
    const fixture = await createApprovalFixture(ctx.container);
    const { user, phone } = await approver(fixture.departmentId, { wrote: false, language: 'uk' });
    await notify(user.user.id, fixture.approval.id);

    const invitation = await callTo('the invitation', phone, (c) => c.body.type === 'template');
    expect(invitation.body.template).toEqual({ name: TEMPLATE, language: { code: 'uk' } });
    await waitFor('the request recorded as invited', async () => {
      const [row] = await db()
        .select()
        .from(approvalChatRequests)
        .where(eq(approvalChatRequests.approvalId, fixture.approval.id));
      return row?.status === 'invited';
    });
    expect(graph.messageCalls().filter((c) => c.body.to === phone)).toHaveLength(1);

    await write(phone, 'Привіт');
    const request = await requestTo(phone, fixture);
    const uk = chatTexts('uk');
    expect(request.buttons.map((b) => b.title)).toEqual([uk.approve, uk.reject, uk.more]);
    // Only the one invitation went.
    expect(
      graph.messageCalls().filter((c) => c.body.to === phone && c.body.type === 'template'),
    ).toHaveLength(1);
  });
});
