import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createDepartment, createUser } from '../../test/factories.js';
import { explainPlan } from '../../test/plans.js';
import { rowsOf } from '../core/db/client.js';
import { conversations } from '../core/db/schema/index.js';
import { statusFromApprovals } from '../modules/conversations/conversations.repository.js';

const ctx = useTestApp();

/** Decided approvals seeded over the conversations: the table a long-running service has. */
const DECIDED = 4000;
const CONVERSATIONS = 20;

let conversationIds: string[];

describe.runIf(Boolean(process.env.DATABASE_URL))("a conversation's status on PostgreSQL: the index", () => {
  beforeAll(async () => {
    const { db } = ctx.container;
    const department = await createDepartment(ctx.container);
    const owner = await createUser(ctx.container, { departmentId: department.id });
    conversationIds = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const [row] = await db
        .insert(conversations)
        .values({
          channel: 'chanA',
          channelUserId: `u-${i}`,
          userId: owner.user.id,
          departmentId: department.id,
        })
        .returning({ id: conversations.id });
      conversationIds.push(row!.id);
    }
    const ids = sql`${`{${conversationIds.join(',')}}`}::uuid[]`;
    await db.execute(sql`
      INSERT INTO approvals (conversation_id, department_id, status, original_content)
      SELECT (${ids})[1 + g % ${CONVERSATIONS}], ${department.id}::uuid,
        CASE WHEN g % 2 = 0 THEN 'approved' ELSE 'rejected' END, 'reply'
      FROM generate_series(1, ${DECIDED}) AS g`);
    // The first conversation waits for a human, the second was escalated, the others wait for nothing.
    await db.execute(sql`
      INSERT INTO approvals (conversation_id, department_id, status, original_content) VALUES
        (${conversationIds[0]}::uuid, ${department.id}::uuid, 'pending', 'reply'),
        (${conversationIds[1]}::uuid, ${department.id}::uuid, 'pending', 'reply'),
        (${conversationIds[1]}::uuid, ${department.id}::uuid, 'escalated', 'reply')`);
    await db.execute(sql`ANALYZE approvals`);
  }, 60_000);

  const statusOf = (conversationId: string) => statusFromApprovals(sql`${conversationId}::uuid`);

  it('reads the waiting approvals of one conversation through approvals_conversation_id_waiting_idx', async () => {
    const plan = await explainPlan(ctx.container.db, sql`SELECT ${statusOf(conversationIds[2]!)}`);
    expect(plan).toMatch(/approvals_conversation_id_waiting_idx/);
    expect(plan).not.toMatch(/Seq Scan on approvals/);
  });

  it('answers escalated, awaiting_approval or open from them', async () => {
    const [row] = rowsOf<{ first: string; second: string; third: string }>(
      await ctx.container.db.execute(
        sql`SELECT ${statusOf(conversationIds[0]!)} AS first, ${statusOf(conversationIds[1]!)} AS second,
          ${statusOf(conversationIds[2]!)} AS third`,
      ),
    );
    expect(row).toEqual({ first: 'awaiting_approval', second: 'escalated', third: 'open' });
  });
});
