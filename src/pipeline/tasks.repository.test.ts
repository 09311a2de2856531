import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createDepartment } from '../../test/factories.js';
import { agentTasks, agentToolCalls } from '../core/db/schema/index.js';
import { createTasksRepository } from './tasks.repository.js';

const ctx = useTestApp();

describe('tool calls', () => {
  it("are written after the task's earlier calls, so created_at keeps their order when the clock does not move", async () => {
    const { db } = ctx.container;
    const department = await createDepartment(ctx.container);
    const [task] = await db
      .insert(agentTasks)
      .values({ jobId: `tool-calls-${department.id}`, departmentId: department.id, status: 'running' })
      .returning({ id: agentTasks.id });
    const tasks = createTasksRepository(db);
    const call = (stepName: string) => ({
      taskId: task!.id,
      stepName,
      status: 'done',
      inputData: {},
      outputData: {},
    });
    await tasks.insertToolCalls([call('inject_profile'), call('rag_search')]);
    // The earlier calls an hour ahead: as if written in the same millisecond of a clock that counts
    // milliseconds (the embedded database's), or by a clock that has since stepped back.
    await db
      .update(agentToolCalls)
      .set({ createdAt: sql`${agentToolCalls.createdAt} + interval '1 hour'` })
      .where(eq(agentToolCalls.taskId, task!.id));
    await tasks.insertToolCalls([call('generate')]);
    await tasks.insertToolCalls([call('confidence_check')]);
    expect((await tasks.toolCalls(task!.id)).map((c) => c.stepName)).toEqual([
      'inject_profile',
      'rag_search',
      'generate',
      'confidence_check',
    ]);
  });

  it("of several tasks are written in one INSERT, each group answered in its order and after its task's earlier calls", async () => {
    const { db } = ctx.container;
    const department = await createDepartment(ctx.container);
    const taskIds: string[] = [];
    for (const n of [1, 2]) {
      const [task] = await db
        .insert(agentTasks)
        .values({ jobId: `tool-calls-${n}-${department.id}`, departmentId: department.id, status: 'running' })
        .returning({ id: agentTasks.id });
      taskIds.push(task!.id);
    }
    const [first, second] = taskIds as [string, string];
    const call = (taskId: string, stepName: string, inputData: unknown = { step: stepName }) => ({
      taskId,
      stepName,
      status: 'done',
      inputData,
      outputData: null,
    });
    const tasks = createTasksRepository(db);
    await tasks.insertToolCalls([call(first, 'inject_profile')]);
    await db
      .update(agentToolCalls)
      .set({ createdAt: sql`${agentToolCalls.createdAt} + interval '1 hour'` })
      .where(eq(agentToolCalls.taskId, first));
    const written = await tasks.insertToolCallsOfTasks([
      [call(second, 'inject_profile'), call(second, 'rag_search', null)],
      [],
      [call(first, 'rag_search')],
    ]);
    expect(written.map((group) => group.map((row) => [row.taskId, row.stepName]))).toEqual([
      [
        [second, 'inject_profile'],
        [second, 'rag_search'],
      ],
      [],
      [[first, 'rag_search']],
    ]);
    expect(written[0]![0]!.inputData).toEqual({ step: 'inject_profile' });
    expect(written[0]![1]!.inputData).toBeNull();
    expect(written[0]![0]!.createdAt).toBeInstanceOf(Date);
    expect((await tasks.toolCalls(first)).map((c) => c.stepName)).toEqual(['inject_profile', 'rag_search']);
    expect((await tasks.toolCalls(second)).map((c) => c.stepName)).toEqual(['inject_profile', 'rag_search']);
  });
});
