import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import type { DbExecutor } from '../../core/db/client.js';
import { NotFoundError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { IntentExamplesRepository } from './intent-examples.repository.js';
import type { IntentTrustRepository, IntentTrustRow } from './intent-trust.repository.js';

export function toIntentTrust(row: IntentTrustRow) {
  return {
    id: row.id,
    namespaceId: row.namespaceId,
    intentName: row.intentName,
    successfulCount: row.successfulCount,
    threshold: row.threshold,
    isAutonomous: row.isAutonomous,
    samplingRate: row.samplingRate,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * The trust matrix: one record per (namespace, intent), created with the
 * defaults when the intent gets its first example. The pipeline reads it and
 * counts approvals; managers tune samplingRate and threshold. Nothing here
 * resets autonomy: that is a direct database update only.
 */
export function createIntentTrustService(deps: {
  trust: IntentTrustRepository;
  examples: IntentExamplesRepository;
}) {
  const { trust, examples } = deps;
  return {
    /** The record of an intent, or null when the intent has none. No access checks. */
    async get(namespaceId: string, intentName: string, tx?: DbExecutor): Promise<IntentTrustRow | null> {
      return trust.get(namespaceId, intentName, tx);
    },

    /**
     * Counts one plain approval of a reply for the intent, atomically:
     * successfulCount + 1, and isAutonomous becomes true once successfulCount
     * reaches the threshold. Creates the record with the defaults when
     * missing. Pass the approval's transaction as `tx`. No access checks.
     */
    async recordApproval(namespaceId: string, intentName: string, tx?: DbExecutor): Promise<IntentTrustRow> {
      return trust.recordApproval(namespaceId, intentName, tx);
    },

    /**
     * The namespace's trust records by intent name.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async list(actor: Actor, query: { namespaceId: string; limit?: number; offset?: number }) {
      const namespace = await examples.namespace(query.namespaceId);
      assertVisible(actor, namespace, (n) => n.departmentId, `Namespace ${query.namespaceId} not found`);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await trust.list(query.namespaceId, { limit, offset });
      return { items: rows.map(toIntentTrust), total, limit, offset };
    },

    /**
     * Changes samplingRate and/or threshold. Lowering the threshold to or
     * below successfulCount makes the intent autonomous at once; raising it
     * never revokes autonomy.
     * @throws NotFoundError when the record is missing or its namespace is outside the actor's departments.
     */
    async update(actor: Actor, id: string, patch: { samplingRate?: number; threshold?: number }) {
      const found = assertVisible(
        actor,
        await trust.findWithDepartment(id),
        (r) => r.departmentId,
        `Intent trust record ${id} not found`,
      );
      if (patch.samplingRate === undefined && patch.threshold === undefined)
        return toIntentTrust(found.trust);
      const row = await trust.update(id, patch);
      // Deleted with its namespace in the meantime.
      if (!row) throw new NotFoundError(`Intent trust record ${id} not found`);
      return toIntentTrust(row);
    },
  };
}

export type IntentTrustService = ReturnType<typeof createIntentTrustService>;
