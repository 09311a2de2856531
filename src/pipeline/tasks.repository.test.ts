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
});
