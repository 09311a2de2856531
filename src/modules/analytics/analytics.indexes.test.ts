import { type SQLWrapper, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createUser } from '../../../test/factories.js';
import { explainPlan } from '../../../test/plans.js';
import { conversations } from '../../core/db/schema/index.js';
import type { AnalyticsWindow } from './analytics.repository.js';

const ctx = useTestApp();

/** Rows seeded per table: a few thousand over 20 departments and 90 days. */
const ROWS = 4000;
const DEPARTMENTS = 20;
const DAY_MS = 86_400_000;

let departmentIds: string[];
/** The dashboard's usual question: the last week. */
let lastWeek: { from: Date; to: Date };

/**
 * The plan PostgreSQL picks for a dashboard query, unforced (no planner
 * switch turned off): with the tables analysed, a week of one department (or
 * of all of them) is a small slice, and the plan must read it through an index.
 */
const planOf = (query: SQLWrapper) => explainPlan(ctx.container.db, query);

describe.runIf(Boolean(process.env.DATABASE_URL))('analytics dashboard on PostgreSQL: the indexes', () => {
  beforeAll(async () => {
    const { db } = ctx.container;
    departmentIds = [];
    for (let i = 0; i < DEPARTMENTS; i++) departmentIds.push((await createDepartment(ctx.container)).id);
    const owner = await createUser(ctx.container, { departmentId: departmentIds[0]! });
    const conversationIds: string[] = [];
    for (const departmentId of departmentIds) {
      const [row] = await db
        .insert(conversations)
        .values({ channel: 'chanA', channelUserId: `u-${departmentId}`, userId: owner.user.id, departmentId })
        .returning({ id: conversations.id });
      conversationIds.push(row!.id);
    }
    const now = Date.now();
    lastWeek = { from: new Date(now - 7 * DAY_MS), to: new Date(now) };
    const departments = sql`${`{${departmentIds.join(',')}}`}::uuid[]`;
    const conversationArray = sql`${`{${conversationIds.join(',')}}`}::uuid[]`;
    // Row g belongs to department g % 20 and lies (g % 90) days and some minutes in the past.
    const createdAt = sql`now() - ((g % 90) * interval '1 day') - ((g % 1440) * interval '1 minute')`;
    await db.execute(sql`
      INSERT INTO agent_tasks (job_id, department_id, status, duration_ms, total_tokens, output, created_at)
      SELECT 'seed-' || g, (${departments})[1 + g % ${DEPARTMENTS}], 'done', 100 + g % 900, g % 500,
        jsonb_build_object('intent', 'i' || g % 7), ${createdAt}
      FROM generate_series(1, ${ROWS}) AS g`);
    await db.execute(sql`
      INSERT INTO approvals (conversation_id, department_id, status, original_content, triggers, created_at)
      SELECT (${conversationArray})[1 + g % ${DEPARTMENTS}], (${departments})[1 + g % ${DEPARTMENTS}],
        'approved', 'reply', '[{"type":"low_confidence"}]'::jsonb, ${createdAt}
      FROM generate_series(1, ${ROWS}) AS g`);
    await db.execute(sql`
      INSERT INTO messages (conversation_id, channel, direction, content, created_at)
      SELECT (${conversationArray})[1 + g % ${DEPARTMENTS}], 'chanA',
        CASE WHEN g % 2 = 0 THEN 'inbound' ELSE 'outbound' END, 'text', ${createdAt}
      FROM generate_series(1, ${ROWS}) AS g`);
    await db.execute(sql`ANALYZE agent_tasks`);
    await db.execute(sql`ANALYZE approvals`);
    await db.execute(sql`ANALYZE messages`);
    await db.execute(sql`ANALYZE conversations`);
  }, 60_000);

  const oneDepartment = (): AnalyticsWindow => ({
    ...lastWeek,
    scope: { all: false, departmentIds: [departmentIds[3]!] },
  });
  const everyDepartment = (): AnalyticsWindow => ({ ...lastWeek, scope: { all: true } });
  const repository = () => ctx.container.analytics.repositories.analytics;

  it('reads a department’s tasks (the main aggregate) through agent_tasks_department_id_created_at_idx', async () => {
    const plan = await planOf(repository().tasksByDay(oneDepartment()));
    expect(plan).toMatch(
      /Index (Only )?Scan using agent_tasks_department_id_created_at_idx|Bitmap Index Scan on agent_tasks_department_id_created_at_idx/,
    );
    expect(plan).not.toMatch(/Seq Scan on agent_tasks/);
  });

  it('reads every department’s tasks of the week through agent_tasks_created_at_idx', async () => {
    const plan = await planOf(repository().tasksByDay(everyDepartment()));
    expect(plan).toMatch(/agent_tasks_created_at_idx/);
    expect(plan).not.toMatch(/Seq Scan on agent_tasks/);
  });

  it('reads approvals through approvals_department_id_created_at_idx or approvals_created_at_idx', async () => {
    const scoped = await planOf(repository().approvalsByDay(oneDepartment()));
    expect(scoped).toMatch(/approvals_department_id_created_at_idx/);
    expect(scoped).not.toMatch(/Seq Scan on approvals/);
    const all = await planOf(repository().approvalsByDay(everyDepartment()));
    expect(all).toMatch(/approvals_created_at_idx/);
    expect(all).not.toMatch(/Seq Scan on approvals/);
  });

  it('reads the week’s messages through messages_created_at_idx', async () => {
    const plan = await planOf(repository().messagesByDay(everyDepartment()));
    expect(plan).toMatch(/messages_created_at_idx/);
    expect(plan).not.toMatch(/Seq Scan on messages/);
  });
});
