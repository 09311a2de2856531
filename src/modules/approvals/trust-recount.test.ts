import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createApprovalFixture } from '../../../test/approval-factories.js';
import { createDepartment, createNamespace, createUser } from '../../../test/factories.js';
import {
  approvals,
  auditLogs,
  intentTrust,
  notifications,
  trustEvents,
  users,
} from '../../core/db/schema/index.js';

const ctx = useTestApp();

/** The data part of migration 0023: the recount an upgrade runs over the approvals decided before it. */
function recountStatements(): string[] {
  const file = readFileSync(new URL('../../core/db/migrations/0023_trust_loop.sql', import.meta.url), 'utf8');
  const data = file.slice(file.indexOf('-- Recount every intent'));
  return data
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter(Boolean);
}

async function decidedBeforeUpgrade(
  scene: { departmentId: string; namespaceId: string },
  intent: string,
  status: 'approved' | 'edited' | 'rejected',
  confidence: number,
) {
  const { approval } = await createApprovalFixture(ctx.container, { ...scene, intent, confidence });
  await ctx.container.db
    .update(approvals)
    .set({ status, decidedAt: new Date() })
    .where(eq(approvals.id, approval.id));
  return approval.id;
}

describe('migration 0023: trust recounted under the grounded rule', () => {
  it('takes autonomy earned only through ungrounded approvals away, audited, heads notified in their language', async () => {
    const department = await createDepartment(ctx.container);
    const namespace = await createNamespace(ctx.container, { departmentId: department.id });
    const scene = { departmentId: department.id, namespaceId: namespace.id };
    const head = await createUser(ctx.container, { role: 'dept_head', departmentId: department.id });
    await ctx.container.db.update(users).set({ language: 'uk' }).where(eq(users.id, head.user.id));
    const employee = await createUser(ctx.container, { role: 'employee', departmentId: department.id });

    // vacation: autonomous through 5 plain approvals, 4 of them of ungrounded drafts; an edit too.
    const ungrounded = [];
    for (let i = 0; i < 4; i++)
      ungrounded.push(await decidedBeforeUpgrade(scene, 'vacation', 'approved', 0.35));
    const grounded = await decidedBeforeUpgrade(scene, 'vacation', 'approved', 0.9);
    const edited = await decidedBeforeUpgrade(scene, 'vacation', 'edited', 0.35);
    // payroll: autonomous through 5 grounded approvals.
    for (let i = 0; i < 5; i++) await decidedBeforeUpgrade(scene, 'payroll', 'approved', 0.88);
    await ctx.container.db.insert(intentTrust).values([
      { namespaceId: namespace.id, intentName: 'vacation', successfulCount: 5, isAutonomous: true },
      { namespaceId: namespace.id, intentName: 'payroll', successfulCount: 5, isAutonomous: true },
    ]);

    const run = async () => {
      for (const statement of recountStatements()) await ctx.container.db.execute(sql.raw(statement));
    };
    await run();

    const records = await ctx.container.db
      .select()
      .from(intentTrust)
      .where(eq(intentTrust.namespaceId, namespace.id));
    const byName = Object.fromEntries(records.map((r) => [r.intentName, r]));
    expect(byName.vacation).toMatchObject({ successfulCount: 1, isAutonomous: false });
    expect(byName.payroll).toMatchObject({ successfulCount: 5, isAutonomous: true });

    const [notCounted] = await ctx.container.db
      .select()
      .from(approvals)
      .where(eq(approvals.id, ungrounded[0]!));
    expect(notCounted).toMatchObject({ trustCounted: false, trustReason: 'no_grounded_answer' });
    for (const id of [grounded, edited]) {
      const [row] = await ctx.container.db.select().from(approvals).where(eq(approvals.id, id));
      expect(row).toMatchObject({ trustCounted: true, trustReason: null });
    }
    const events = await ctx.container.db
      .select({ kind: trustEvents.kind })
      .from(trustEvents)
      .where(and(eq(trustEvents.namespaceId, namespace.id), eq(trustEvents.intentName, 'vacation')));
    expect(events.map((e) => e.kind).sort()).toEqual(
      ['clean', 'edit', ...Array(4).fill('not_counted')].sort(),
    );

    const audit = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'demote'), eq(auditLogs.entityId, byName.vacation!.id)));
    expect(audit).toMatchObject([
      {
        userId: null,
        entityType: 'intents',
        changes: {
          intent: 'vacation',
          reason: 'recount_grounded_approvals',
          notCounted: 4,
          cleanApprovals: 1,
        },
      },
    ]);
    const notices = await ctx.container.db
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, byName.vacation!.id));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ userId: head.user.id, type: 'system' });
    expect(notices[0]!.title).toContain('більше не автономний');
    expect(notices.some((n) => n.userId === employee.user.id)).toBe(false);

    // Run again (a second process, a retried upgrade): nothing changes.
    await run();
    const again = await ctx.container.db
      .select()
      .from(trustEvents)
      .where(eq(trustEvents.namespaceId, namespace.id));
    expect(again).toHaveLength(11);
    expect(
      await ctx.container.db.select().from(auditLogs).where(eq(auditLogs.entityId, byName.vacation!.id)),
    ).toHaveLength(1);
  });
});
