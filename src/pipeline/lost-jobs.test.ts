import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createPipelineScene, usePipelineTestApp, waitFor } from '../../test/pipeline-factories.js';
import { agentTasks, messages } from '../core/db/schema/index.js';
import { recurringTasks } from '../workers/schedules.js';

// No workers: the jobs stay in their queues for the test to read.
const ctx = usePipelineTestApp();

describe('tasks and replies left queued without their job', () => {
  it('get their job again after a few seconds, once, and only while queued', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const send = (text: string) =>
      container.pipeline.inbound.receive({ channel: 'chanA', channelUserId: scene.phone, text });
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms);

    // What a process stopping between a commit and its enqueue leaves: the row, no job.
    const lostTask = await send('When is the office open?');
    const freshTask = await send('And on Saturdays?');
    const taskJob = (taskId: string) => container.queue.getJob('agent-tasks', `agent-task-${taskId}`);
    for (const { taskId } of [lostTask, freshTask])
      expect(await container.queue.removeJob('agent-tasks', `agent-task-${taskId}`)).toBe(true);
    await container.db
      .update(agentTasks)
      .set({ createdAt: ago(2 * 60_000) })
      .where(eq(agentTasks.id, lostTask.taskId!));

    const reply = async (status: string, ageMs: number, channel = 'chanA') => {
      const [row] = await container.db
        .insert(messages)
        .values({
          conversationId: lostTask.conversationId,
          channel,
          direction: 'outbound',
          content: `a reply ${status} ${ageMs} ms ago`,
          status,
          createdAt: ago(ageMs),
        })
        .returning();
      return row!;
    };
    const lostReply = await reply('queued', 2 * 60_000);
    const freshReply = await reply('queued', 1000);
    const sentReply = await reply('sent', 2 * 60_000);
    // No transport sends `email`: its replies have no job to wait for.
    await reply('queued', 2 * 60_000, 'email');
    const replyJob = (id: string) => container.queue.getJob('chanA-outbound', `outbound-${id}`);

    expect(await container.pipeline.lostJobs.requeue(now)).toEqual({ tasks: 1, replies: 1 });
    const runJob = await taskJob(lostTask.taskId!);
    expect(runJob).toMatchObject({ state: 'waiting', data: { taskId: lostTask.taskId } });
    const sendJob = await replyJob(lostReply.id);
    expect(sendJob).toMatchObject({ state: 'waiting', data: { messageId: lostReply.id } });
    // Within its first seconds a row's own enqueue is still on its way; a sent reply needs nothing.
    expect(await taskJob(freshTask.taskId!)).toBeNull();
    expect(await replyJob(freshReply.id)).toBeNull();
    expect(await replyJob(sentReply.id)).toBeNull();

    // A job that exists is not added twice.
    await container.pipeline.lostJobs.requeue(now);
    expect(await taskJob(lostTask.taskId!)).toEqual(runJob);
    expect(await replyJob(lostReply.id)).toEqual(sendJob);
    expect(recurringTasks(container).map((task) => task.name)).toContain('requeue-lost-jobs');
  });

  it('ends failed a task still queued whose run job failed for good', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const { taskId } = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'Who signs off my expenses?',
    });
    // Its last try failed and so did ending the task (the database was away): the job failed, the task queued.
    const jobId = `agent-task-${taskId}`;
    expect(await container.queue.removeJob('agent-tasks', jobId)).toBe(true);
    container.queue.process('agent-tasks', async () => {
      throw new Error('the database was away');
    });
    await container.queue.add('agent-tasks', 'run', { taskId }, { jobId, attempts: 1 });
    await waitFor('the run job to fail', async () => {
      const job = await container.queue.getJob('agent-tasks', jobId);
      return job?.state === 'failed' ? job : null;
    });
    await container.db
      .update(agentTasks)
      .set({ createdAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(agentTasks.id, taskId!));

    await container.pipeline.lostJobs.requeue();
    const [task] = await container.db.select().from(agentTasks).where(eq(agentTasks.id, taskId!));
    expect(task).toMatchObject({ status: 'failed' });
    expect(task!.errorMessage).toContain('the database was away');
  });
});
