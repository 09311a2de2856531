import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { testDatabaseUrl } from '../../../test/database.js';
import { createDepartment, createUser } from '../../../test/factories.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { agentTasks, conversations, employeeProfiles, messages } from '../../core/db/schema/index.js';
import { createMemoryRepository } from './memory.repository.js';

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

  it('writes a profile only over the version it read', async () => {
    const { userId, taskId } = await employeeWithTask('where is the handbook?', 'handbook');
    const memory = createMemoryRepository(ctx.container.db);
    const read = (await memory.historiesOfTasks([taskId], 3)).get(taskId);
    expect(read?.userId).toBe(userId);
    await ctx.container.db
      .update(employeeProfiles)
      .set({ summary: 'written meanwhile' })
      .where(eq(employeeProfiles.userId, userId));
    const stale = { userId, version: read!.version, frequentIntents: ['stale'], summary: 'stale' };
    expect(await memory.updateMemories([stale])).toEqual(new Set());
    expect((await profileOf(userId)).summary).toBe('written meanwhile');
    const again = (await memory.historiesOfTasks([taskId], 3)).get(taskId);
    expect(again!.version).not.toBe(read!.version);
    const fresh = { userId, version: again!.version, frequentIntents: ['fresh'], summary: 'fresh' };
    expect(await memory.updateMemories([fresh])).toEqual(new Set([userId]));
    const profile = await profileOf(userId);
    expect(profile.summary).toBe('fresh');
    expect(profile.frequentIntents).toEqual(['fresh']);
  });

  it('refreshes the senders of jobs that run at once together, each from their own history', async () => {
    const first = await employeeWithTask('how do I book a vacation?', 'vacation');
    const later = await addTask(first.conversationId, first.departmentId, 'when is payday?', 'payroll');
    const other = await employeeWithTask('who signs my expense report?', 'expenses');
    const { memory } = ctx.container.employeeProfiles;
    // Called together, they run as one batch: two tasks of one sender, another sender, a task that is gone.
    const answers = await Promise.all([
      memory.extractAfterTask(first.taskId),
      memory.extractAfterTask(other.taskId),
      memory.extractAfterTask(crypto.randomUUID()),
      memory.extractAfterTask(later),
    ]);
    expect(answers).toEqual([true, true, false, true]);
    const firstProfile = await profileOf(first.userId);
    expect([...(firstProfile.frequentIntents ?? [])].sort()).toEqual(['payroll', 'vacation']);
    expect(firstProfile.summary).toContain('when is payday?');
    expect(firstProfile.summary).toContain('how do I book a vacation?');
    const otherProfile = await profileOf(other.userId);
    expect(otherProfile.frequentIntents).toEqual(['expenses']);
    expect(otherProfile.summary).toContain('expense report');
    expect(otherProfile.summary).not.toContain('payday');
  });

  // Two connections are needed to interleave a write with a job's; PGlite has one.
  it.skipIf(!testDatabaseUrl())(
    'reads again when the profile changed under it, and then sees a task that finished meanwhile',
    async () => {
      const { userId, conversationId, departmentId, taskId } = await employeeWithTask(
        'first question',
        'vacation',
      );
      const pool = (ctx.container.db as unknown as { $client: pg.Pool }).$client;
      const holder = await pool.connect();
      try {
        // Another job of the sender, writing the profile: the job below reads, then waits on the row.
        await holder.query('BEGIN');
        await holder.query("UPDATE employee_profiles SET summary = 'another job' WHERE user_id = $1", [
          userId,
        ]);
        const job = ctx.container.employeeProfiles.memory.extractAfterTask(taskId);
        await waitFor('the job waiting for the row', async () => {
          const { rows } = await pool.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE NOT l.granted AND a.datname = current_database()`,
          );
          return rows[0]!.waiting > 0;
        });
        // A task of the sender ends before the other job commits: the job must not write its older view.
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
