import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createReply, createReplyScene } from '../../../test/feedback-factories.js';
import { securityChecks } from '../../../test/security.js';
import { auditLogs, notifications, replyFeedback, trustEvents } from '../../core/db/schema/index.js';

const ctx = useTestApp();

const rate = (caller: TestUser, messageId: string, payload: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/conversations/web/messages/${messageId}/feedback`,
    headers: caller.headers,
    payload,
  });

const feedbackOf = (messageId: string) =>
  ctx.container.db.select().from(replyFeedback).where(eq(replyFeedback.messageId, messageId));

const downNotices = (userId: string, messageId: string) =>
  ctx.container.db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.entityType, 'message'),
        eq(notifications.entityId, messageId),
      ),
    );

const downEvents = (messageId: string) =>
  ctx.container.db
    .select()
    .from(trustEvents)
    .where(and(eq(trustEvents.messageId, messageId), eq(trustEvents.kind, 'down')));

securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/conversations/web/messages/${randomUUID()}/feedback`,
  payload: { rating: 'up' },
  otherDepartmentUrl: async () => {
    const scene = await createReplyScene(ctx.container);
    const { reply } = await createReply(ctx.container, scene, { channel: 'web' });
    return `/api/v1/conversations/web/messages/${reply.id}/feedback`;
  },
});

describe('POST /conversations/web/messages/:id/feedback', () => {
  it('stores the caller’s rating of their reply once: a second rating replaces the first', async () => {
    const scene = await createReplyScene(ctx.container);
    const { reply } = await createReply(ctx.container, scene, { channel: 'web' });

    const first = await rate(scene.employee, reply.id, { rating: 'up' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      messageId: reply.id,
      rating: 'up',
      comment: null,
      updatedAt: expect.any(String),
    });
    const second = await rate(scene.employee, reply.id, { rating: 'down', comment: 'Wrong number of days' });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ rating: 'down', comment: 'Wrong number of days' });

    const rows = await feedbackOf(reply.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: scene.employee.user.id,
      rating: 'down',
      comment: 'Wrong number of days',
      channel: 'web',
    });
    const [audited] = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, reply.id), eq(auditLogs.action, 'rate')));
    expect(audited?.userId).toBe(scene.employee.user.id);
  });

  it('rates approved replies too, and an approval’s detail shows the feedback its reply received', async () => {
    const scene = await createReplyScene(ctx.container);
    const { reply, approvalId } = await createReply(ctx.container, scene, { channel: 'web', approved: true });
    const detail = () =>
      ctx.app.inject({ url: `/api/v1/approvals/${approvalId}`, headers: scene.approver.headers });
    expect((await detail()).json().feedback).toEqual([]);

    expect((await rate(scene.employee, reply.id, { rating: 'up', comment: 'Clear' })).statusCode).toBe(200);
    const res = await detail();
    expect(res.statusCode).toBe(200);
    expect(res.json().feedback).toEqual([
      {
        userId: scene.employee.user.id,
        rating: 'up',
        comment: 'Clear',
        channel: 'web',
        updatedAt: expect.any(String),
      },
    ]);
  });

  it('answers 404, the same for each and storing nothing, for any message but an assistant reply of the caller’s own web conversation', async () => {
    const scene = await createReplyScene(ctx.container);
    const mine = await createReply(ctx.container, scene, { channel: 'web' });
    const colleague = await createUser(ctx.container, { departmentId: scene.departmentId });
    const theirs = await createReply(ctx.container, { ...scene, employee: colleague }, { channel: 'web' });
    const fixed = await createReply(ctx.container, scene, {
      channel: 'web',
      conversationId: mine.conversationId,
      fixedText: true,
    });
    const chanA = await createReply(ctx.container, scene, { channel: 'chanA' });
    const cases = [
      theirs.reply.id, // another user's conversation
      mine.inbound.id, // the caller's own question
      fixed.reply.id, // an outbound text no task wrote
      chanA.reply.id, // the caller's reply on another channel
      randomUUID(), // nothing at all
    ];
    const bodies = new Set<string>();
    for (const id of cases) {
      const res = await rate(scene.employee, id, { rating: 'down' });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('NotFoundError');
      bodies.add(res.json().message.replace(id, '<id>'));
      expect(await feedbackOf(id)).toEqual([]);
    }
    expect(bodies.size).toBe(1);
    // An admin is not the employee either.
    const admin = await createUser(ctx.container, { role: 'admin' });
    expect((await rate(admin, mine.reply.id, { rating: 'up' })).statusCode).toBe(404);
    expect(await downNotices(scene.approver.user.id, theirs.reply.id)).toEqual([]);
  });

  it('answers 422 for a bad rating, an empty or too long comment, unknown fields and a malformed id, storing nothing', async () => {
    const scene = await createReplyScene(ctx.container);
    const { reply } = await createReply(ctx.container, scene, { channel: 'web' });
    for (const payload of [
      {},
      { rating: 'meh' },
      { rating: 'up', comment: '' },
      { rating: 'up', comment: 'x'.repeat(2001) },
      { rating: 'up', extra: true },
    ]) {
      const res = await rate(scene.employee, reply.id, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
    expect((await rate(scene.employee, 'not-a-uuid', { rating: 'up' })).statusCode).toBe(422);
    expect(await feedbackOf(reply.id)).toEqual([]);
    expect(
      (await rate(scene.employee, reply.id, { rating: 'up', comment: 'x'.repeat(2000) })).statusCode,
    ).toBe(200);
  });
});

describe('a "down" rating', () => {
  it('notifies the department’s approvers once per rating, in their language: up → down notifies, down → down does not', async () => {
    const scene = await createReplyScene(ctx.container);
    const ukApprover = await createUser(ctx.container, {
      role: 'approver',
      departmentId: scene.departmentId,
    });
    await ctx.container.repositories.users.update(ukApprover.user.id, { language: 'uk' });
    const { reply } = await createReply(ctx.container, scene, { channel: 'web' });

    await rate(scene.employee, reply.id, { rating: 'up' });
    expect(await downNotices(scene.approver.user.id, reply.id)).toEqual([]);
    await rate(scene.employee, reply.id, { rating: 'down', comment: 'It is 28 days' });
    await rate(scene.employee, reply.id, { rating: 'down', comment: 'It is 28 days, really' });

    const [notice, ...more] = await downNotices(scene.approver.user.id, reply.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ type: 'system', body: 'It is 28 days' });
    expect(notice?.title).toContain('rated an assistant reply down');
    const [ukNotice] = await downNotices(ukApprover.user.id, reply.id);
    expect(ukNotice?.title).toContain('оцінює відповідь асистента');
    // The employee is not told of their own rating.
    expect(await downNotices(scene.employee.user.id, reply.id)).toEqual([]);
  });

  it('counts against trust on an auto-sent reply (one down event, withdrawn by an up) and not on an approved one', async () => {
    const scene = await createReplyScene(ctx.container);
    const auto = await createReply(ctx.container, scene, { channel: 'web' });
    await rate(scene.employee, auto.reply.id, { rating: 'down' });
    await rate(scene.employee, auto.reply.id, { rating: 'down', comment: 'again' });
    const events = await downEvents(auto.reply.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ namespaceId: scene.namespaceId, intentName: 'vacation' });
    await rate(scene.employee, auto.reply.id, { rating: 'up' });
    expect(await downEvents(auto.reply.id)).toEqual([]);

    const approved = await createReply(ctx.container, scene, {
      channel: 'web',
      conversationId: auto.conversationId,
      approved: true,
    });
    await rate(scene.employee, approved.reply.id, { rating: 'down' });
    expect(await downEvents(approved.reply.id)).toEqual([]);
    // Approved or not, the approvers hear of it.
    expect(await downNotices(scene.approver.user.id, approved.reply.id)).toHaveLength(1);
  });
});
