import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../test/fakes/llm-server.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  startLlmProxy,
  VACATION_QUESTION,
  waitFor,
} from '../../test/pipeline-factories.js';
import { agentTasks, approvals, messages } from '../core/db/schema/index.js';
import { type EventEnvelope, subscribeEvents } from '../core/realtime/events.js';

let fake: FakeLlmServer;
let proxy: Awaited<ReturnType<typeof startLlmProxy>>;
let ctx: PipelineTestContext;
const events: EventEnvelope[] = [];

beforeAll(async () => {
  fake = await startFakeLlmServer();
  proxy = await startLlmProxy(fake);
  ctx = await createPipelineTestApp(
    { LLM_API_KEY: fake.apiKey, LLM_BASE_URL: proxy.baseUrl, AGENT_TASK_TIMEOUT_MS: '3000' },
    { workers: true },
  );
  await subscribeEvents(ctx.container.bus, 'agent-task', (envelope) => events.push(envelope));
});
afterAll(async () => {
  await ctx.close();
  await proxy.close();
  await fake.close();
});

async function finishedTask(taskId: string) {
  return waitFor(`task ${taskId} to finish`, async () => {
    const [task] = await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.id, taskId));
    return task && ['done', 'failed', 'timeout'].includes(task.status) ? task : null;
  });
}

async function send(phone: string) {
  return ctx.container.pipeline.inbound.receive({
    channel: 'chanA',
    channelUserId: phone,
    text: VACATION_QUESTION,
  });
}

describe('pipeline failures', () => {
  it('ends the task as timeout when the model outlives AGENT_TASK_TIMEOUT_MS', async () => {
    const scene = await createPipelineScene(ctx.container);
    proxy.setMode('hang');
    const received = await send(scene.phone);
    const task = await finishedTask(received.taskId!);
    proxy.setMode('pass');
    expect(task.status).toBe('timeout');
    expect(task.errorMessage).toMatch(/^generate: .*3000 ms/);
    const calls = await ctx.container.pipeline.repositories.tasks.toolCalls(task.id);
    expect(calls.map((c) => [c.stepName, c.status])).toEqual([
      ['inject_profile', 'done'],
      ['rag_search', 'done'],
      ['generate', 'timeout'],
    ]);
    expect(calls[2]!.errorMessage).toBe(task.errorMessage);
    const failed = await waitFor('the failed event', () =>
      events.find(
        (e) => e.event === 'agent-task.failed' && (e.payload as { taskId: string }).taskId === task.id,
      ),
    );
    expect(failed.payload).toMatchObject({ status: 'timeout', errorMessage: task.errorMessage });
    // Nothing was routed.
    expect(await ctx.container.db.select().from(approvals).where(eq(approvals.taskId, task.id))).toEqual([]);
  });

  it('ends the task as failed when the model answers 500 after the provider retries, without a second run', async () => {
    const scene = await createPipelineScene(ctx.container);
    proxy.setMode('fail500');
    const chatBefore = proxy.counts.chat;
    const received = await send(scene.phone);
    const task = await finishedTask(received.taskId!);
    expect(task.status).toBe('failed');
    expect(task.errorMessage).toMatch(/^generate: .*HTTP 500/);
    // One request and the provider's four retries.
    expect(proxy.counts.chat - chatBefore).toBe(5);
    const calls = await ctx.container.pipeline.repositories.tasks.toolCalls(task.id);
    expect(calls.map((c) => [c.stepName, c.status])).toEqual([
      ['inject_profile', 'done'],
      ['rag_search', 'done'],
      ['generate', 'failed'],
    ]);
    // The job itself completed: the queue does not run the task a second time.
    const job = await waitFor('the job to complete', async () => {
      const found = await ctx.container.queue.getJob('agent-tasks', task.jobId);
      return found?.state === 'completed' ? found : null;
    });
    expect(job.attemptsMade).toBeLessThanOrEqual(1);
    proxy.setMode('pass');
    expect(await ctx.container.db.select().from(messages).where(eq(messages.taskId, task.id))).toEqual([]);
  });

  it('fails the task when its job runs out of tries before it starts', async () => {
    const scene = await createPipelineScene(ctx.container);
    const received = await send(scene.phone);
    const task = await finishedTask(received.taskId!);
    // A fresh task stuck in queued whose job failed for good: onFailed ends it.
    const [stuck] = await ctx.container.db
      .update(agentTasks)
      .set({ status: 'queued', finishedAt: null, output: null })
      .where(eq(agentTasks.id, task.id))
      .returning();
    await ctx.container.pipeline.runner.failAfterRetries(
      stuck!.id,
      new Error('the worker stopped during the last try'),
    );
    const [ended] = await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.id, task.id));
    expect(ended).toMatchObject({ status: 'failed' });
    expect(ended!.errorMessage).toContain('the worker stopped during the last try');
  });
});
