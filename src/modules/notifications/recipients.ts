import { computeEffectiveAccess } from '../../core/auth/actor.js';
import type { Permission } from '../../core/auth/permissions.js';
import type { DbExecutor } from '../../core/db/client.js';
import { groupCommit } from '../../core/group-commit.js';
import type { AccessCandidate, RecipientsRepository } from './recipients.repository.js';

/** Whose approvers a task asks for ({@link createRecipients}). */
interface ApproversAsk {
  departmentId: string;
  roleIds: readonly string[] | undefined;
}

function reaches(user: AccessCandidate, departmentId: string): boolean {
  const access = computeEffectiveAccess(user);
  return access.isGlobal || access.departmentIds.includes(departmentId);
}

/**
 * Who a reply or a decision concerns: the approvers and the role members of
 * a department, by effective access (role, extra grants and revocations),
 * so that the pipeline, the approvals and the channel delivery notify the
 * same people.
 */
export function createRecipients(rows: Pick<RecipientsRepository, 'accessCandidates'>) {
  /**
   * Active users holding `permission` whose effective departments include
   * `departmentId`. `roleIds`, when given, are the roles that grant the
   * permission, read already (the pipeline reads canApprove's with the
   * task's context); they are read here otherwise.
   */
  async function withPermission(
    departmentId: string,
    permission: Permission,
    options: { tx?: DbExecutor; roleIds?: readonly string[] | undefined } = {},
  ): Promise<string[]> {
    const candidates = await rows.accessCandidates(departmentId, { permission }, options.tx, options.roleIds);
    return candidates
      .filter(
        (user) =>
          computeEffectiveAccess(user).permissions.includes(permission) && reaches(user, departmentId),
      )
      .map((user) => user.id);
  }

  /**
   * The approvers asked for at once (group commit): one read per department
   * and set of approver roles in a batch, shared by the tasks that asked.
   */
  const sharedApprovers = groupCommit((asks: ReadonlyArray<ApproversAsk>) => {
    const reads = new Map<string, Promise<string[] | Error>>();
    return Promise.all(
      asks.map(({ departmentId, roleIds }) => {
        const key = `${departmentId} ${roleIds?.join(',') ?? '-'}`;
        let read = reads.get(key);
        if (!read) {
          // A failed read fails the tasks that shared it, not the rest of the batch.
          read = withPermission(departmentId, 'canApprove', { roleIds }).catch((reason: unknown) =>
            reason instanceof Error ? reason : new Error(String(reason)),
          );
          reads.set(key, read);
        }
        return read;
      }),
    );
  });

  return {
    withPermission,

    /**
     * The users who approve the replies of `departmentId` (canApprove, as
     * {@link withPermission}), outside a transaction. Tasks that ask at the
     * same time share one read per department ({@link groupCommit}); the
     * list answered is shared too, and must not be changed.
     */
    approvers(departmentId: string, roleIds?: readonly string[]): Promise<readonly string[]> {
      return sharedApprovers({ departmentId, roleIds });
    },

    /** Active users of role `roleSlug` whose effective departments include `departmentId`. */
    async withRole(departmentId: string, roleSlug: string, tx?: DbExecutor): Promise<string[]> {
      const candidates = await rows.accessCandidates(departmentId, { roleSlug }, tx);
      return candidates
        .filter((user) => user.roleSlug === roleSlug && reaches(user, departmentId))
        .map((user) => user.id);
    },
  };
}

export type Recipients = ReturnType<typeof createRecipients>;
