import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import type { DbExecutor } from '../../core/db/client.js';
import { NotFoundError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { IntentExamplesRepository } from './intent-examples.repository.js';
import type { IntentTrustRepository, IntentTrustRow } from './intent-trust.repository.js';
import { evidenceOf, type TrustEvidence, trustPolicyOf } from './trust-evidence.js';

const NO_EVENTS = { clean: 0, edits: 0, rejections: 0, notCounted: 0 };

/** What `GET /intents/trust` shows of a record's evidence (its mode, counts, bound and what is still needed). */
function evidenceView(evidence: TrustEvidence | undefined) {
  if (!evidence) return null;
  const { counted, cleanApprovals, edits, rejections, notCounted, lowerBound, neededForPromotion } = evidence;
  return { counted, cleanApprovals, edits, rejections, notCounted, lowerBound, neededForPromotion };
}

export function toIntentTrust(row: IntentTrustRow, evidence?: TrustEvidence) {
  return {
    ...(evidence ? { mode: evidence.mode } : {}),
    id: row.id,
    namespaceId: row.namespaceId,
    intentName: row.intentName,
    successfulCount: row.successfulCount,
    threshold: row.threshold,
    isAutonomous: row.isAutonomous,
    samplingRate: row.samplingRate,
    ...(evidence ? { evidence: evidenceView(evidence) } : {}),
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

  /**
   * The evidence of every intent of a namespace that has a trust record or trust events, by
   * intent name, under the namespace's trust policy (docs/approvals.md). No access checks.
   */
  async function evidence(namespaceId: string, tx?: DbExecutor): Promise<Map<string, TrustEvidence>> {
    const policy = trustPolicyOf(await trust.namespaceConfig(namespaceId, tx));
    const [records, totals, recent] = await Promise.all([
      trust.all(namespaceId, tx),
      trust.totalsByIntent(namespaceId, tx),
      policy.mode === 'confidence'
        ? trust.recentByIntent(namespaceId, policy.window, tx)
        : Promise.resolve(new Map<string, never[]>()),
    ]);
    const byName = new Map(records.map((r) => [r.intentName, r]));
    const names = new Set([...byName.keys(), ...totals.keys()]);
    const fresh = { successfulCount: 0, threshold: 5, isAutonomous: false };
    return new Map(
      [...names].map((name) => [
        name,
        evidenceOf(byName.get(name) ?? fresh, recent.get(name) ?? [], totals.get(name) ?? NO_EVENTS, policy),
      ]),
    );
  }

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

    evidence,

    /**
     * The namespace's trust records by intent name, each with its evidence.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async list(actor: Actor, query: { namespaceId: string; limit?: number; offset?: number }) {
      const namespace = await examples.namespace(query.namespaceId);
      assertVisible(actor, namespace, (n) => n.departmentId, `Namespace ${query.namespaceId} not found`);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await trust.list(query.namespaceId, { limit, offset });
      const byIntent = await evidence(query.namespaceId);
      return {
        items: rows.map((row) => toIntentTrust(row, byIntent.get(row.intentName))),
        total,
        limit,
        offset,
      };
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
      const row =
        patch.samplingRate === undefined && patch.threshold === undefined
          ? found.trust
          : await trust.update(id, patch);
      // Deleted with its namespace in the meantime.
      if (!row) throw new NotFoundError(`Intent trust record ${id} not found`);
      return toIntentTrust(row, (await evidence(row.namespaceId)).get(row.intentName));
    },
  };
}

export type IntentTrustService = ReturnType<typeof createIntentTrustService>;
