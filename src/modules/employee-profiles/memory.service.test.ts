import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { testDatabaseUrl } from '../../../test/database.js';
import { createDepartment, createUser } from '../../../test/factories.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { agentTasks, conversations, employeeProfiles, messages } from '../../core/db/schema/index.js';

const ctx = useTestApp();

/** A conversation of a new employee with one inbound message and its finished task; answers both ids. */
async function employeeWithTask(text: string, intent: string) {
  const { db } = ctx.container;
  const department = await createDepartment(ctx.container);
  const { user } = await createUser(ctx.container, { departmentId: department.id });
  const [conversation] = await db
    .insert(conversations)
    .values({ channel: 'web', channelUserId: user.id, userId: user.id, departmentId: department.id })
    .returning({ id: conversations.id });
  const taskId = await addTask(conversation!.id, department.id, text, intent);
  return { userId: user.id, conversationId: conversation!.id, departmentId: department.id, taskId };
}

async function addTask(conversationId: string, departmentId: string, text: string, intent: string) {
  const { db } = ctx.container;
  await db.insert(messages).values({ conversationId, channel: 'web', direction: 'inbound', content: text });
  const [task] = await db
    .insert(agentTasks)
    .values({ jobId: `memory-${text}`, departmentId, conversationId, status: 'done', output: { intent } })
    .returning({ id: agentTasks.id });
  return task!.id;
}

const profileOf = async (userId: string) =>
  (await ctx.container.db.select().from(employeeProfiles).where(eq(employeeProfiles.userId, userId)))[0]!;

describe('memory extraction', () => {
  it("refreshes the sender's profile from their history, and answers false for a task that is gone", async () => {
    const { userId, taskId } = await employeeWithTask('how many vacation days are left?', 'vacation');
    expect(await ctx.container.employeeProfiles.memory.extractAfterTask(taskId)).toBe(true);
    const profile = await profileOf(userId);
    expect(profile.frequentIntents).toEqual(['vacation']);
    expect(profile.summary).toContain('vacation');
    expect(await ctx.container.employeeProfiles.memory.extractAfterTask(crypto.randomUUID())).toBe(false);
  });

  // PGlite runs one transaction at a time, so its jobs take turns anyway; PostgreSQL needs the row lock.
  it.skipIf(!testDatabaseUrl())(
    'lets a second job of the sender wait for the first and read what was written meanwhile',
    async () => {
      const { userId, conversationId, departmentId, taskId } = await employeeWithTask(
        'first question',
        'vacation',
      );
      // Another job of the sender, holding the profile's row (as one that read before the next task ends).
      const pool = (ctx.container.db as unknown as { $client: pg.Pool }).$client;
      const holder = await pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM employee_profiles WHERE user_id = $1 FOR UPDATE', [userId]);
        const job = ctx.container.employeeProfiles.memory.extractAfterTask(taskId);
        await waitFor('the job waiting for the row', async () => {
          const { rows } = await pool.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE NOT l.granted AND a.datname = current_database()`,
          );
          return rows[0]!.waiting > 0;
        });
        // A task of the sender ends while the job waits: the job must see it.
        await addTask(conversationId, departmentId, 'second question about payroll', 'payroll');
        await holder.query('COMMIT');
        expect(await job).toBe(true);
      } finally {
        holder.release();
      }
      const profile = await profileOf(userId);
      expect([...(profile.frequentIntents ?? [])].sort()).toEqual(['payroll', 'vacation']);
      expect(profile.summary).toContain('payroll');
    },
  );
});
