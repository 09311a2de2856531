import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { intentTrust, namespaces } from '../../core/db/schema/index.js';

export type IntentTrustRow = typeof intentTrust.$inferSelect;

export function createIntentTrustRepository(db: Database) {
  return {
    async get(namespaceId: string, intentName: string, tx: DbExecutor = db): Promise<IntentTrustRow | null> {
      const [row] = await tx
        .select()
        .from(intentTrust)
        .where(and(eq(intentTrust.namespaceId, namespaceId), eq(intentTrust.intentName, intentName)));
      return row ?? null;
    },

    /** The record with its namespace's department, for scope checks. */
    async findWithDepartment(
      id: string,
      tx: DbExecutor = db,
    ): Promise<{ trust: IntentTrustRow; departmentId: string } | null> {
      const [row] = await tx
        .select({ trust: intentTrust, departmentId: namespaces.departmentId })
        .from(intentTrust)
        .innerJoin(namespaces, eq(namespaces.id, intentTrust.namespaceId))
        .where(eq(intentTrust.id, id));
      return row ?? null;
    },

    /** Creates the records with the column defaults where missing; existing ones are left alone. */
    async ensure(namespaceId: string, intentNames: readonly string[], tx: DbExecutor = db): Promise<void> {
      if (intentNames.length === 0) return;
      await tx
        .insert(intentTrust)
        .values([...new Set(intentNames)].map((intentName) => ({ namespaceId, intentName })))
        .onConflictDoNothing({ target: [intentTrust.namespaceId, intentTrust.intentName] });
    },

    /** Records of a namespace by intent name. */
    async list(
      namespaceId: string,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: IntentTrustRow[]; total: number }> {
      const where = eq(intentTrust.namespaceId, namespaceId);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(intentTrust)
            .where(where)
            .orderBy(asc(intentTrust.intentName))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(intentTrust).where(where),
      });
    },

    /**
     * Sets samplingRate and/or threshold in one UPDATE. A threshold at or
     * below the approvals already counted makes the intent autonomous; a
     * higher one never revokes autonomy.
     */
    async update(
      id: string,
      patch: { samplingRate?: number; threshold?: number },
      tx: DbExecutor = db,
    ): Promise<IntentTrustRow | null> {
      const threshold = patch.threshold ?? null;
      const [row] = await tx
        .update(intentTrust)
        .set({
          ...(patch.samplingRate === undefined ? {} : { samplingRate: patch.samplingRate }),
          ...(patch.threshold === undefined ? {} : { threshold: patch.threshold }),
          isAutonomous: sql`${intentTrust.isAutonomous} OR ${intentTrust.successfulCount} >= coalesce(${threshold}::integer, ${intentTrust.threshold})`,
          updatedAt: new Date(),
        })
        .where(eq(intentTrust.id, id))
        .returning();
      return row ?? null;
    },

    /**
     * One approval, atomically (a single INSERT … ON CONFLICT DO UPDATE …
     * RETURNING, so concurrent approvals each count): successfulCount + 1,
     * autonomous once it reaches the threshold; a missing record is created
     * with the defaults and a count of 1.
     */
    async recordApproval(
      namespaceId: string,
      intentName: string,
      tx: DbExecutor = db,
    ): Promise<IntentTrustRow> {
      const [row] = await tx
        .insert(intentTrust)
        .values({
          namespaceId,
          intentName,
          successfulCount: 1,
          // A new record has the default threshold (5), which one approval does not reach.
          isAutonomous: false,
        })
        .onConflictDoUpdate({
          target: [intentTrust.namespaceId, intentTrust.intentName],
          set: {
            successfulCount: sql`${intentTrust.successfulCount} + 1`,
            isAutonomous: sql`${intentTrust.isAutonomous} OR ${intentTrust.successfulCount} + 1 >= ${intentTrust.threshold}`,
            updatedAt: new Date(),
          },
        })
        .returning();
      return row!;
    },
  };
}

export type IntentTrustRepository = ReturnType<typeof createIntentTrustRepository>;
