import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../test/fakes/llm-server.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  startLlmProxy,
  startSecondWorker,
  waitFor,
} from '../../test/pipeline-factories.js';
import { agentTasks, approvals } from '../core/db/schema/index.js';

const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

let fake: FakeLlmServer;
let proxy: Awaited<ReturnType<typeof startLlmProxy>>;
let ctx: PipelineTestContext;
let second: Awaited<ReturnType<typeof startSecondWorker>> | null = null;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  proxy = await startLlmProxy(fake);
  const llm = { LLM_API_KEY: fake.apiKey, LLM_BASE_URL: proxy.baseUrl };
  // Two workers either way: two processes on PostgreSQL + Redis, or two slots of one embedded worker.
  ctx = await createPipelineTestApp(
    { ...llm, AGENT_TASK_CONCURRENCY: distributed ? '1' : '2' },
    { workers: true },
  );
  if (distributed) second = await startSecondWorker(ctx.container, { ...llm, AGENT_TASK_CONCURRENCY: '1' });
});
afterAll(async () => {
  proxy.release();
  await second?.close();
  await ctx.close();
  await proxy.close();
  await fake.close();
});

async function task(id: string) {
  const [row] = await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.id, id));
  return row!;
}

describe('pipeline ordering', () => {
  it('processes two messages of one conversation in the order they arrived', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    proxy.setMode('hold');
    const first = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'How many vacation days do I get?',
    });
    const second = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'And is sick leave paid?',
    });
    expect(second.conversationId).toBe(first.conversationId);

    // The first task is generating (its model call is held); the second was taken by the other worker and waits.
    await waitFor('the first model call', () => proxy.heldCount() === 1);
    await waitFor('the second task to wait its turn', () =>
      container.queue.getJob('agent-tasks', `agent-task-${second.taskId}-1`),
    );
    expect((await task(second.taskId!)).status).toBe('queued');
    expect(proxy.heldCount()).toBe(1);

    proxy.release();
    const done = async (id: string) =>
      waitFor(`task ${id} done`, async () => {
        const row = await task(id);
        return row.status === 'done' ? row : null;
      });
    const one = await done(first.taskId!);
    const two = await done(second.taskId!);
    expect(two.startedAt!.getTime()).toBeGreaterThanOrEqual(one.finishedAt!.getTime());
    // Tokens from the provider's usage, priced by model.
    for (const finished of [one, two]) {
      expect(finished.totalTokens).toBe(finished.inputTokens + finished.outputTokens);
      expect(finished.totalTokens).toBeGreaterThan(0);
      expect(finished.costUsd).toBeGreaterThan(0);
      expect(finished.traceId).toBeTruthy();
    }

    // The first reply waits for a human; the second message did not wait for that decision.
    const [approval] = await container.db.select().from(approvals).where(eq(approvals.taskId, one.id));
    expect(approval!.status).toBe('pending');
    const calls = await container.pipeline.repositories.tasks.toolCalls(two.id);
    const turns = (calls[0]!.outputData as { turns: Array<{ role: string; content: string }> }).turns;
    expect(turns).toEqual([
      { role: 'user', content: 'How many vacation days do I get?', createdAt: expect.any(String) },
    ]);
  });
});
