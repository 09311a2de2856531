import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalFixture } from '../../../test/approval-factories.js';
import { type ChanBTestApp, startChanBTestApp } from '../../../test/chanB-app.js';
import { createDepartment, createNamespace, createUser } from '../../../test/factories.js';
import type { FakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import { type PipelineTestContext, waitFor } from '../../../test/pipeline-factories.js';
import { approvals, conversations, messages, users } from '../../core/db/schema/index.js';
import { holdingReplyLanguage, holdingReplyText } from './holding-reply.js';

const TOKEN = '7000045:holding-reply-test-token';

// The whole service with its workers and the fake Bot API: a holding reply on channel B goes out
// through the real chanB-outbound worker. The approvals are created at the real time and the sweep
// is called with a clock minutes ahead, so the scheduler's own sweeps (real clock) never find them due.
let app: ChanBTestApp;
let ctx: PipelineTestContext;
let bot: FakeBotServer;

beforeAll(async () => {
  app = await startChanBTestApp({ token: TOKEN });
  ({ ctx, bot } = app);
});
afterAll(() => app?.close());

const minutesAhead = (start: number, minutes: number) => new Date(start + minutes * 60_000);

async function scene(config: Record<string, unknown>) {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id, config });
  const approver = await createUser(ctx.container, { role: 'approver', departmentId: department.id });
  return { departmentId: department.id, namespaceId: namespace.id, approver };
}

/** An employee of the department whose chosen language is `language`. */
async function employee(departmentId: string, language: 'en' | 'uk' | 'ru' | null) {
  const phone = `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`;
  const created = await createUser(ctx.container, { departmentId, phone });
  await ctx.container.db.update(users).set({ language }).where(eq(users.id, created.user.id));
  return created;
}

/** The service's own messages in a conversation (the holding reply has neither task nor approval). */
const outbound = (conversationId: string) =>
  ctx.container.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.direction, 'outbound')));

const approvalRow = async (id: string) =>
  (await ctx.container.db.select().from(approvals).where(eq(approvals.id, id)))[0]!;

describe('holding reply sweep', () => {
  it('tells the employee once, after afterMinutes and not before, with the deadline as the wait', async () => {
    const start = Date.now();
    const s = await scene({ holdingReply: { afterMinutes: 30 }, approvalSlaMinutes: 120 });
    const fixture = await createApprovalFixture(ctx.container, { ...s, createdAt: new Date(start) });
    const unset = await scene({ approvalSlaMinutes: 120 });
    const noSetting = await createApprovalFixture(ctx.container, { ...unset, createdAt: new Date(start) });
    const sweep = ctx.container.approvals.holding;

    expect(await sweep.run(minutesAhead(start, 29))).not.toContain(fixture.approval.id);
    expect(await outbound(fixture.conversationId)).toEqual([]);

    const sent = await sweep.run(minutesAhead(start, 31));
    expect(sent).toContain(fixture.approval.id);
    expect(sent).not.toContain(noSetting.approval.id);
    const [message, ...more] = await outbound(fixture.conversationId);
    expect(more).toEqual([]);
    expect(message).toMatchObject({
      content: 'A colleague is checking the answer to your question. Expect an answer within 120 minutes.',
      channel: 'web',
      status: 'delivered',
      taskId: null,
      approvalId: null,
    });
    const row = await approvalRow(fixture.approval.id);
    expect(row.status).toBe('pending');
    expect(row.holdingReplyAt?.getTime()).toBe(minutesAhead(start, 31).getTime());
    // The reply still waits: the conversation stays where it was.
    const [conversation] = await ctx.container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, fixture.conversationId));
    expect(conversation!.status).toBe('awaiting_approval');

    // Later sweeps send nothing more.
    expect(await sweep.run(minutesAhead(start, 45))).not.toContain(fixture.approval.id);
    expect(await outbound(fixture.conversationId)).toHaveLength(1);
    expect(await outbound(noSetting.conversationId)).toEqual([]);
  });

  it('reaches an employee on channel B in Ukrainian through the fake Bot API, also while escalated', async () => {
    const start = Date.now();
    const s = await scene({ holdingReply: { afterMinutes: 10 } });
    const worker = await employee(s.departmentId, 'uk');
    const fixture = await createApprovalFixture(ctx.container, {
      ...s,
      employee: worker,
      channel: 'chanB',
      status: 'escalated',
      createdAt: new Date(start),
    });

    expect(await ctx.container.approvals.holding.run(minutesAhead(start, 11))).toContain(fixture.approval.id);
    // Neither expectMinutes nor approvalSlaMinutes: the default says it without a time.
    const text = 'Колега перевіряє відповідь на ваше запитання. Ви отримаєте її якнайшвидше.';
    const delivered = await waitFor('the holding reply on channel B', () =>
      bot.sent.find((m) => m.chatId === worker.user.phone),
    );
    expect(delivered.plain).toBe(text);
    expect(delivered.replyMarkup).toBeNull();
    const [message, ...more] = await waitFor('the message to be marked sent', async () => {
      const rows = await outbound(fixture.conversationId);
      return rows.every((m) => m.status === 'sent') ? rows : null;
    });
    expect(more).toEqual([]);
    expect(message).toMatchObject({ channel: 'chanB', content: text, taskId: null, approvalId: null });
  });

  it('sends nothing when the approval was decided first: the reply itself went out', async () => {
    const start = Date.now();
    const s = await scene({ holdingReply: { afterMinutes: 5 }, approvalSlaMinutes: 60 });
    const fixture = await createApprovalFixture(ctx.container, { ...s, createdAt: new Date(start) });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: s.approver.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);

    expect(await ctx.container.approvals.holding.run(minutesAhead(start, 30))).not.toContain(
      fixture.approval.id,
    );
    const sent = await outbound(fixture.conversationId);
    expect(sent.map((m) => m.approvalId)).toEqual([fixture.approval.id]);
    expect((await approvalRow(fixture.approval.id)).holdingReplyAt).toBeNull();
  });

  it('a decision after the holding reply still delivers the reply, after it', async () => {
    const start = Date.now();
    const s = await scene({ holdingReply: { afterMinutes: 5 } });
    const fixture = await createApprovalFixture(ctx.container, { ...s, createdAt: new Date(start) });
    expect(await ctx.container.approvals.holding.run(minutesAhead(start, 6))).toContain(fixture.approval.id);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: s.approver.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const sent = await outbound(fixture.conversationId);
    expect(sent.map((m) => m.approvalId).sort()).toEqual([fixture.approval.id, null].sort());
  });

  it('uses the configured text of the employee’s language with {minutes}, the default for a language left out', async () => {
    const start = Date.now();
    const s = await scene({
      holdingReply: {
        afterMinutes: 20,
        expectMinutes: 15,
        text: { en: 'Hang on: about {minutes} min ({minutes}).', ru: 'Подождите около {minutes} мин.' },
      },
      approvalSlaMinutes: 90,
    });
    const cases = [
      { language: null, text: 'Hang on: about 15 min (15).' },
      { language: 'ru' as const, text: 'Подождите около 15 мин.' },
      {
        language: 'uk' as const,
        text: 'Колега перевіряє відповідь на ваше запитання. Очікуйте відповідь протягом 15 хв.',
      },
    ];
    const fixtures = [];
    for (const c of cases) {
      const worker = await employee(s.departmentId, c.language);
      fixtures.push(
        await createApprovalFixture(ctx.container, { ...s, employee: worker, createdAt: new Date(start) }),
      );
    }
    const sent = await ctx.container.approvals.holding.run(minutesAhead(start, 20));
    for (const [index, fixture] of fixtures.entries()) {
      expect(sent).toContain(fixture.approval.id);
      expect((await outbound(fixture.conversationId)).map((m) => m.content)).toEqual([cases[index]!.text]);
    }
  });
});

describe('holding reply text and language', () => {
  it('{minutes} without a known wait falls back to the default text without a time', () => {
    const config = { holdingReply: { afterMinutes: 5, text: { en: 'Within {minutes} minutes.' } } };
    expect(holdingReplyText(config, 'en')).toBe(
      'A colleague is checking the answer to your question. You will get it as soon as possible.',
    );
    expect(holdingReplyText({ ...config, approvalSlaMinutes: 1 }, 'en')).toBe('Within 1 minutes.');
    expect(holdingReplyText({ holdingReply: { afterMinutes: 5 }, approvalSlaMinutes: 1 }, 'en')).toBe(
      'A colleague is checking the answer to your question. Expect an answer within 1 minute.',
    );
    expect(holdingReplyText({ holdingReply: null, approvalSlaMinutes: 30 }, 'en')).toBeNull();
    expect(holdingReplyText({}, 'ru')).toBeNull();
  });

  it('reads the chosen language first, then the reply’s, then the question’s, then English', () => {
    const context = { language: 'ru' };
    expect(holdingReplyLanguage({ employeeLanguage: 'uk', context, question: 'Hello' })).toBe('uk');
    expect(holdingReplyLanguage({ employeeLanguage: null, context, question: 'Hello' })).toBe('ru');
    expect(
      holdingReplyLanguage({ employeeLanguage: null, context: {}, question: 'Коли виплачують зарплату?' }),
    ).toBe('uk');
    expect(holdingReplyLanguage({ employeeLanguage: null, context: {}, question: null })).toBe('en');
  });
});

describe('config.holdingReply validation', () => {
  it('answers 422 for values out of range or unknown keys, and keeps a valid setting or null', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const create = (config: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/namespaces',
        headers: admin.headers,
        payload: { name: 'Support', departmentId: admin.user.departmentId, config },
      });
    for (const holdingReply of [
      {},
      { afterMinutes: 0 },
      { afterMinutes: 1441 },
      { afterMinutes: 2.5 },
      { afterMinutes: 10, expectMinutes: 10_081 },
      { afterMinutes: 10, text: { en: 'x'.repeat(501) } },
      { afterMinutes: 10, text: { en: '' } },
      { afterMinutes: 10, text: { de: 'Bitte warten' } },
      { afterMinutes: 10, other: true },
      'soon',
    ]) {
      const res = await create({ holdingReply });
      expect(res.statusCode, JSON.stringify(holdingReply)).toBe(422);
    }
    const full = {
      afterMinutes: 1440,
      expectMinutes: 10_080,
      text: { en: 'x'.repeat(500), uk: 'Зачекайте {minutes} хв.', ru: 'Подождите {minutes} мин.' },
    };
    const ok = await create({ holdingReply: full });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().config).toEqual({ holdingReply: full });
    const off = await create({ holdingReply: null });
    expect(off.statusCode).toBe(201);
    expect(off.json().config).toEqual({ holdingReply: null });
  });
});
