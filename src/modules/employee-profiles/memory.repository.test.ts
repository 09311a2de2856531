import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createUser } from '../../../test/factories.js';
import { explainPlan } from '../../../test/plans.js';
import { agentTasks, conversations, messages } from '../../core/db/schema/index.js';
import { createMemoryRepository, senderHistoryQuery } from './memory.repository.js';

const ctx = useTestApp();
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute));

let employeeId: string;
let otherId: string;

/** A conversation of `userId` with its inbound messages and finished tasks. */
async function conversationOf(
  userId: string,
  departmentId: string,
  history: Array<{ minute: number; text: string; intent?: string | null; status?: 'done' | 'failed' }>,
) {
  const { db } = ctx.container;
  const [conversation] = await db
    .insert(conversations)
    .values({ channel: 'web', channelUserId: `${userId}-${history[0]!.minute}`, userId, departmentId })
    .returning({ id: conversations.id });
  for (const { minute, text, intent, status } of history) {
    await db.insert(messages).values([
      {
        conversationId: conversation!.id,
        channel: 'web',
        direction: 'inbound',
        content: text,
        createdAt: at(minute),
      },
      {
        conversationId: conversation!.id,
        channel: 'web',
        direction: 'outbound',
        content: `re: ${text}`,
        createdAt: at(minute),
      },
    ]);
    await db.insert(agentTasks).values({
      jobId: `memory-test-${userId}-${minute}`,
      departmentId,
      conversationId: conversation!.id,
      status: status ?? 'done',
      output: intent === null ? {} : { intent: intent ?? 'unknown' },
      createdAt: at(minute),
    });
  }
}

/** The id of the task written for `userId`'s message at `minute`. */
async function taskOf(userId: string, minute: number): Promise<string> {
  const [task] = await ctx.container.db
    .select({ id: agentTasks.id })
    .from(agentTasks)
    .where(eq(agentTasks.jobId, `memory-test-${userId}-${minute}`));
  return task!.id;
}

describe('memory extraction reads', () => {
  beforeAll(async () => {
    const department = await createDepartment(ctx.container);
    employeeId = (await createUser(ctx.container, { departmentId: department.id })).user.id;
    otherId = (await createUser(ctx.container, { departmentId: department.id })).user.id;
    await conversationOf(employeeId, department.id, [
      { minute: 1, text: 'first', intent: 'vacation' },
      { minute: 2, text: 'second', intent: 'payroll' },
      { minute: 3, text: 'third', intent: 'vacation', status: 'failed' },
    ]);
    await conversationOf(employeeId, department.id, [
      { minute: 4, text: 'fourth', intent: 'vacation' },
      { minute: 5, text: 'fifth' },
      { minute: 6, text: 'sixth', intent: null },
    ]);
    await conversationOf(otherId, department.id, [{ minute: 7, text: 'someone else', intent: 'vacation' }]);
    // Other employees' tasks in bulk: the reads must not depend on them.
    await ctx.container.db.execute(sql`INSERT INTO agent_tasks (job_id, department_id, status, output)
      SELECT 'memory-bulk-' || g, ${department.id}, 'done', '{"intent":"bulk"}'::jsonb FROM generate_series(1, 500) g`);
  });

  it('answers the sender of each task with the version of their profile, and nothing for a task that is gone', async () => {
    const memory = createMemoryRepository(ctx.container.db);
    const [taskId, sameSender, otherSender] = [
      await taskOf(employeeId, 5),
      await taskOf(employeeId, 1),
      await taskOf(otherId, 7),
    ];
    const histories = await memory.historiesOfTasks(
      [taskId, crypto.randomUUID(), sameSender, 'not-a-task-id', otherSender],
      2,
    );
    expect([...histories.keys()].sort()).toEqual([taskId, sameSender, otherSender].sort());
    expect(histories.get(taskId)?.userId).toBe(employeeId);
    expect(histories.get(taskId)?.version).toMatch(/^[0-9]+$/);
    expect(histories.get(sameSender)).toBe(histories.get(taskId));
    expect(histories.get(otherSender)?.userId).toBe(otherId);
    expect(histories.get(otherSender)?.recentQuestions).toEqual(['someone else']);
  });

  it('counts the employee’s finished tasks by intent over all their conversations, with the latest time', async () => {
    const taskId = await taskOf(employeeId, 1);
    const history = (await createMemoryRepository(ctx.container.db).historiesOfTasks([taskId], 1)).get(
      taskId,
    );
    const counts = history!.intentCounts;
    expect(counts.sort((a, b) => a.intent.localeCompare(b.intent))).toEqual([
      { intent: 'payroll', count: 1, lastAt: at(2) },
      { intent: 'vacation', count: 2, lastAt: at(4) },
    ]);
  });

  it('answers the employee’s latest inbound messages across conversations, newest first, at most the limit', async () => {
    const memory = createMemoryRepository(ctx.container.db);
    const questions = async (userId: string, minute: number, limit: number) => {
      const taskId = await taskOf(userId, minute);
      return (await memory.historiesOfTasks([taskId], limit)).get(taskId)!.recentQuestions;
    };
    expect(await questions(employeeId, 1, 4)).toEqual(['sixth', 'fifth', 'fourth', 'third']);
    expect(await questions(employeeId, 6, 10)).toEqual([
      'sixth',
      'fifth',
      'fourth',
      'third',
      'second',
      'first',
    ]);
    expect(await questions(otherId, 7, 10)).toEqual(['someone else']);
  });

  it('reads the finished tasks of the employee’s conversations only, not every finished task', async () => {
    // Without statistics (the test database has none yet, PGlite never has any), the planner once
    // ANDed the status index in: every message's refresh then read every finished task's entry.
    const tasks = [await taskOf(employeeId, 1), await taskOf(otherId, 7)];
    const plan = await explainPlan(ctx.container.db, senderHistoryQuery(tasks, 3));
    expect(plan).toMatch(/agent_tasks_done_conversation_idx/);
    expect(plan).not.toMatch(/agent_tasks_status_idx/);
  });
});
