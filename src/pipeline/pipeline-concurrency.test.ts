import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../test/fakes/llm-server.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  VACATION_QUESTION,
  waitFor,
} from '../../test/pipeline-factories.js';
import { agentTasks } from '../core/db/schema/index.js';

/**
 * Tasks in flight are not bounded by model calls in flight: a process keeps
 * many tasks waiting on the model at once (AGENT_TASK_CONCURRENCY), and
 * never has more than LLM_MAX_CONCURRENCY requests at the provider.
 */

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(() => fake?.close());

/** Sends one web message from each of `count` new employees of a fresh scene; answers their task ids. */
async function burst(ctx: PipelineTestContext, count: number): Promise<string[]> {
  const { container } = ctx;
  const scene = await createPipelineScene(container);
  const senders = await Promise.all(
    Array.from({ length: count }, () => createUser(container, { departmentId: scene.departmentId })),
  );
  const received = await Promise.all(
    senders.map(({ user }) =>
      container.pipeline.inbound.receive({
        channel: 'web',
        channelUserId: user.id,
        userId: user.id,
        text: VACATION_QUESTION,
      }),
    ),
  );
  return received.map((r) => r.taskId!);
}

async function statuses(ctx: PipelineTestContext, taskIds: string[]) {
  const rows = await ctx.container.db
    .select({ status: agentTasks.status })
    .from(agentTasks)
    .where(inArray(agentTasks.id, taskIds));
  return rows.map((r) => r.status);
}

const allDone = (ctx: PipelineTestContext, taskIds: string[]) =>
  waitFor(
    'every task done',
    async () => {
      const now = await statuses(ctx, taskIds);
      return now.length === taskIds.length && now.every((s) => s === 'done');
    },
    60_000,
  );

describe('with the default limits', () => {
  let ctx: PipelineTestContext;
  beforeAll(async () => {
    ctx = await createPipelineTestApp(
      { LLM_API_KEY: fake.apiKey, LLM_BASE_URL: fake.baseUrl },
      { workers: true },
    );
  });
  afterAll(() => ctx?.close());

  it('has twenty tasks waiting on the model at once, none holding the others back', async () => {
    fake.reset();
    fake.hold();
    const taskIds = await burst(ctx, 20);

    // All twenty reach the model before any answer comes back.
    await waitFor('twenty model calls in flight', () => fake.inFlight() === 20, 60_000);
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(20);
    expect(await statuses(ctx, taskIds)).toEqual(Array(20).fill('running'));

    fake.release();
    await allDone(ctx, taskIds);
  });
});

describe('with LLM_MAX_CONCURRENCY=2', () => {
  let ctx: PipelineTestContext;
  beforeAll(async () => {
    ctx = await createPipelineTestApp(
      { LLM_API_KEY: fake.apiKey, LLM_BASE_URL: fake.baseUrl, LLM_MAX_CONCURRENCY: '2' },
      { workers: true },
    );
  });
  afterAll(() => ctx?.close());

  it('keeps two model calls in flight while the other tasks wait their turn', async () => {
    fake.reset();
    fake.hold();
    const taskIds = await burst(ctx, 8);

    await fake.whenInFlight(2);
    // Every task is running, six of them waiting for a place among the model calls.
    await waitFor('every task running', async () =>
      (await statuses(ctx, taskIds)).every((s) => s === 'running'),
    );
    expect(fake.inFlight()).toBe(2);
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(2);

    fake.release();
    await allDone(ctx, taskIds);
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(8);
    expect(fake.maxInFlight()).toBe(2);
  });
});
