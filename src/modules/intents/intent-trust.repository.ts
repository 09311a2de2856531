import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { intentInteractions, intentTrust, namespaces, trustEvents } from '../../core/db/schema/index.js';
import type { TrustEventKind } from './trust-evidence.js';

export type IntentTrustRow = typeof intentTrust.$inferSelect;

/** Counts of an intent's trust events by kind over its whole history. */
export interface TrustEventTotals {
  clean: number;
  edits: number;
  rejections: number;
  notCounted: number;
}

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
      options: { promote: boolean } = { promote: true },
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
            // The confidence mode decides autonomy from the bound, not from the count.
            ...(options.promote
              ? {
                  isAutonomous: sql`${intentTrust.isAutonomous} OR ${intentTrust.successfulCount} + 1 >= ${intentTrust.threshold}`,
                }
              : {}),
            updatedAt: new Date(),
          },
        })
        .returning();
      return row!;
    },

    /** Every record of a namespace. */
    async all(namespaceId: string, tx: DbExecutor = db): Promise<IntentTrustRow[]> {
      return tx
        .select()
        .from(intentTrust)
        .where(eq(intentTrust.namespaceId, namespaceId))
        .orderBy(asc(intentTrust.intentName));
    },

    /** The namespace's `config` (its trust policy), null when the namespace is missing. */
    async namespaceConfig(namespaceId: string, tx: DbExecutor = db): Promise<Record<string, unknown> | null> {
      const [row] = await tx
        .select({ config: namespaces.config })
        .from(namespaces)
        .where(eq(namespaces.id, namespaceId));
      return (row?.config as Record<string, unknown> | undefined) ?? null;
    },

    /** Locks the intent's record for a decision that may change its autonomy; creates it when missing. */
    /** Records that the employee has met this intent in the namespace (idempotent). */
    async recordInteraction(userId: string, namespaceId: string, intent: string, tx: DbExecutor) {
      await tx
        .insert(intentInteractions)
        .values({ userId, namespaceId, intentName: intent })
        .onConflictDoNothing();
    },

    async lockRecord(namespaceId: string, intentName: string, tx: DbExecutor): Promise<IntentTrustRow> {
      await tx
        .insert(intentTrust)
        .values({ namespaceId, intentName })
        .onConflictDoNothing({ target: [intentTrust.namespaceId, intentTrust.intentName] });
      const [row] = await tx
        .select()
        .from(intentTrust)
        .where(and(eq(intentTrust.namespaceId, namespaceId), eq(intentTrust.intentName, intentName)))
        .for('update');
      return row!;
    },

    /** Sets autonomy; a demotion also clears the counts, so the intent earns trust anew. */
    async setAutonomous(id: string, isAutonomous: boolean, tx: DbExecutor): Promise<IntentTrustRow> {
      const [row] = await tx
        .update(intentTrust)
        .set(
          isAutonomous
            ? { isAutonomous, updatedAt: new Date() }
            : { isAutonomous, successfulCount: 0, consecutiveFailures: 0, updatedAt: new Date() },
        )
        .where(eq(intentTrust.id, id))
        .returning();
      return row!;
    },

    /** Records what one decision or rating did to the intent's trust. */
    async recordEvent(
      event: {
        namespaceId: string;
        intentName: string;
        kind: TrustEventKind;
        approvalId?: string | null;
        messageId?: string | null;
      },
      tx: DbExecutor,
    ): Promise<boolean> {
      // A reply's `down` is recorded once, however many times it is given (the partial unique index).
      const rows = await tx
        .insert(trustEvents)
        .values({ ...event, approvalId: event.approvalId ?? null, messageId: event.messageId ?? null })
        .onConflictDoNothing()
        .returning({ id: trustEvents.id });
      return rows.length > 0;
    },

    /** Withdraws the `down` of a reply (its rating was removed or turned up); answers whether one was there. */
    async removeDown(messageId: string, tx: DbExecutor): Promise<boolean> {
      const rows = await tx
        .delete(trustEvents)
        .where(and(eq(trustEvents.messageId, messageId), eq(trustEvents.kind, 'down')))
        .returning({ id: trustEvents.id });
      return rows.length > 0;
    },

    /** The intent's most recent counted events, newest first, at most `limit`. */
    async recentKinds(
      namespaceId: string,
      intentName: string,
      limit: number,
      tx: DbExecutor = db,
    ): Promise<TrustEventKind[]> {
      const rows = await tx
        .select({ kind: trustEvents.kind })
        .from(trustEvents)
        .where(
          and(
            eq(trustEvents.namespaceId, namespaceId),
            eq(trustEvents.intentName, intentName),
            ne(trustEvents.kind, 'not_counted'),
          ),
        )
        .orderBy(desc(trustEvents.createdAt), desc(trustEvents.id))
        .limit(limit);
      return rows.map((r) => r.kind as TrustEventKind);
    },

    /** Every intent's most recent counted events of a namespace (newest first, at most `limit` each). */
    async recentByIntent(
      namespaceId: string,
      limit: number,
      tx: DbExecutor = db,
    ): Promise<Map<string, TrustEventKind[]>> {
      const rows = rowsOf<{ intent_name: string; kind: string }>(
        await tx.execute(sql`
        select intent_name, kind from (
          select intent_name, kind, created_at, id,
                 row_number() over (partition by intent_name order by created_at desc, id desc) as n
          from ${trustEvents}
          where namespace_id = ${namespaceId} and kind <> 'not_counted'
        ) ranked
        where n <= ${limit}
        order by intent_name, created_at desc, id desc`),
      );
      const byIntent = new Map<string, TrustEventKind[]>();
      for (const row of rows) {
        const list = byIntent.get(row.intent_name) ?? [];
        list.push(row.kind as TrustEventKind);
        byIntent.set(row.intent_name, list);
      }
      return byIntent;
    },

    /** Every intent's event counts of a namespace, over its whole history. */
    async totalsByIntent(namespaceId: string, tx: DbExecutor = db): Promise<Map<string, TrustEventTotals>> {
      const rows = await tx
        .select({ intentName: trustEvents.intentName, kind: trustEvents.kind, n: count() })
        .from(trustEvents)
        .where(eq(trustEvents.namespaceId, namespaceId))
        .groupBy(trustEvents.intentName, trustEvents.kind);
      const totals = new Map<string, TrustEventTotals>();
      for (const row of rows) {
        const t = totals.get(row.intentName) ?? { clean: 0, edits: 0, rejections: 0, notCounted: 0 };
        const n = Number(row.n);
        if (row.kind === 'clean') t.clean += n;
        else if (row.kind === 'edit') t.edits += n;
        else if (row.kind === 'reject') t.rejections += n;
        else if (row.kind === 'not_counted') t.notCounted += n;
        totals.set(row.intentName, t);
      }
      return totals;
    },
  };
}

export type IntentTrustRepository = ReturnType<typeof createIntentTrustRepository>;
