import { describe, expect, it } from 'vitest';
import { createPipelineScene, usePipelineTestApp } from '../../test/pipeline-factories.js';
import { messages } from '../core/db/schema/index.js';
import { recurringTasks } from '../workers/schedules.js';

// No workers: the jobs stay in their queues for the test to read.
const ctx = usePipelineTestApp();

describe('replies left queued without their job', () => {
  it('get their job again after a minute, once, and only while queued', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const received = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'When is the office open?',
    });
    const now = Date.now();
    const reply = async (status: string, ageMs: number, channel = 'chanA') => {
      const [row] = await container.db
        .insert(messages)
        .values({
          conversationId: received.conversationId,
          channel,
          direction: 'outbound',
          content: `a reply ${status} ${ageMs} ms ago`,
          status,
          createdAt: new Date(now - ageMs),
        })
        .returning();
      return row!;
    };
    // What a process stopping between a reply's commit and its enqueue leaves: the reply, no job.
    const lost = await reply('queued', 2 * 60_000);
    const fresh = await reply('queued', 5_000);
    const sent = await reply('sent', 2 * 60_000);
    // No transport sends `email`: its replies have no job to wait for.
    await reply('queued', 2 * 60_000, 'email');
    const jobOf = (id: string) => container.queue.getJob('chanA-outbound', `outbound-${id}`);
    expect(await jobOf(lost.id)).toBeNull();

    expect(await container.pipeline.queuedReplies.requeue(now)).toBe(1);
    const job = await jobOf(lost.id);
    expect(job).toMatchObject({ state: 'waiting', data: { messageId: lost.id } });
    // Within its first minute a reply's own enqueue is still on its way; a sent one needs nothing.
    expect(await jobOf(fresh.id)).toBeNull();
    expect(await jobOf(sent.id)).toBeNull();

    // A reply whose job exists is not added twice.
    await container.pipeline.queuedReplies.requeue(now);
    expect(await jobOf(lost.id)).toEqual(job);
    expect(recurringTasks(container).map((task) => task.name)).toContain('requeue-replies');
  });
});
