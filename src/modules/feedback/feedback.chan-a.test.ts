import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChanATestApp, startChanATestApp, TEST_APP_SECRET } from '../../../test/chanA-app.js';
import { createUser } from '../../../test/factories.js';
import { postWebhook, wamid, webhookPayload } from '../../../test/fakes/chanA-webhooks.js';
import { createReply, createReplyScene } from '../../../test/feedback-factories.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import type { InboundItem } from '../../channels/chan-a/webhook-payload.js';
import { agentTasks, messages, notifications, replyFeedback } from '../../core/db/schema/index.js';

let app: ChanATestApp;

beforeAll(async () => {
  app = await startChanATestApp();
});
afterAll(async () => {
  await app?.close();
});

/** A reaction as the platform posts it: on message `target`, `emoji` empty when it was removed. */
const reaction = (from: string, target: string, emoji: string, id = wamid()) => ({
  from,
  id,
  timestamp: String(Math.floor(Date.now() / 1000)),
  type: 'reaction',
  reaction: { message_id: target, emoji },
});

const react = async (from: string, target: string, emoji: string) => {
  const res = await postWebhook(app.ctx.app, webhookPayload({ messages: [reaction(from, target, emoji)] }), {
    appSecret: TEST_APP_SECRET,
  });
  expect(res.statusCode).toBe(200);
};

/** The intake's work on one reaction, taken straight (its outcome is the only thing to wait for). */
const intake = (from: string, target: string, emoji: string) => {
  const item: InboundItem = {
    id: wamid(),
    from,
    timestamp: null,
    type: 'reaction',
    reaction: { messageId: target, emoji },
  };
  return app.ctx.container.chanA.intake.handle(item, { lastAttempt: true });
};

const feedbackOf = (messageId: string) =>
  app.ctx.container.db.select().from(replyFeedback).where(eq(replyFeedback.messageId, messageId));

describe('channel A reactions on assistant replies', () => {
  it('store one rating per reply and sender through signed webhooks: 👍 up, 👎🏿 down replaces it, a removed reaction removes it', async () => {
    const scene = await createReplyScene(app.ctx.container);
    const target = wamid();
    const { reply, conversationId } = await createReply(app.ctx.container, scene, {
      channel: 'chanA',
      channelMessageId: target,
    });

    await react(scene.phone, target, '👍🏽');
    const up = await waitFor('the up rating', async () => {
      const rows = await feedbackOf(reply.id);
      return rows[0]?.rating === 'up' ? rows : null;
    });
    expect(up).toEqual([
      expect.objectContaining({ userId: scene.employee.user.id, rating: 'up', channel: 'chanA' }),
    ]);

    await react(scene.phone, target, '👎🏿');
    const down = await waitFor('the down rating', async () => {
      const rows = await feedbackOf(reply.id);
      return rows[0]?.rating === 'down' ? rows : null;
    });
    expect(down).toHaveLength(1);
    const noticed = await app.ctx.container.db
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, reply.id));
    expect(noticed.map((n) => n.userId)).toContain(scene.approver.user.id);

    await react(scene.phone, target, '');
    await waitFor('the rating to be removed', async () => (await feedbackOf(reply.id)).length === 0);

    // No reaction became a message of the conversation, got an answer or started a task.
    const stored = await app.ctx.container.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId));
    expect(stored.map((m) => m.id).sort()).toEqual(
      [reply.id, stored.find((m) => m.direction === 'inbound')!.id].sort(),
    );
    const tasks = await app.ctx.container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.conversationId, conversationId));
    expect(tasks).toHaveLength(1);
    expect(app.graph.messageCalls().filter((c) => JSON.stringify(c.body).includes(scene.phone))).toEqual([]);
  });

  it('ignores other emoji, a stranger’s reaction, a reply the sender does not own and a message that is not an assistant reply', async () => {
    const scene = await createReplyScene(app.ctx.container);
    const target = wamid();
    const { reply, conversationId } = await createReply(app.ctx.container, scene, {
      channel: 'chanA',
      channelMessageId: target,
    });
    const fixedId = wamid();
    const fixed = await createReply(app.ctx.container, scene, {
      channel: 'chanA',
      conversationId,
      fixedText: true,
      channelMessageId: fixedId,
    });
    const strangerPhone = `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`;
    await createUser(app.ctx.container, { departmentId: scene.departmentId, phone: strangerPhone });

    expect(await intake(scene.phone, target, '😂')).toBe('reaction');
    expect(await intake(strangerPhone, target, '👍')).toBe('reaction');
    expect(await intake('380000000001', target, '👍')).toBe('reaction');
    expect(await intake(scene.phone, fixedId, '👎')).toBe('reaction');
    expect(await intake(scene.phone, wamid(), '👎')).toBe('reaction');
    expect(await feedbackOf(reply.id)).toEqual([]);
    expect(await feedbackOf(fixed.reply.id)).toEqual([]);

    // The employee's own reaction still counts after all that.
    expect(await intake(scene.phone, target, '👎')).toBe('reaction');
    expect((await feedbackOf(reply.id)).map((r) => r.rating)).toEqual(['down']);
  });
});
