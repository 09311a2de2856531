import { assertCanConfer, assertCanManage } from '../../core/auth/access-guards.js';
import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import type { Bus } from '../../core/bus/bus.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { NotFoundError, ValidationError } from '../../core/errors/app-errors.js';
import { publishAccessChange } from '../../core/realtime/access-changes.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { OverrideKey } from './override-keys.js';
import { effectiveAccessOf } from './user-views.js';
import type { NewUser, UserRow, UsersRepository } from './users.repository.js';

export interface UserOverridesServiceDeps {
  db: Database;
  users: UsersRepository;
  roles: RolesRepository;
  departments: DepartmentsRepository;
  bus: Bus;
}

type ListName = 'extraPermissions' | 'revokedPermissions' | 'extraDepartmentIds' | 'revokedDepartmentIds';

function listOf(key: OverrideKey, list: 'grant' | 'revoke'): ListName {
  if (key.kind === 'permission') return list === 'grant' ? 'extraPermissions' : 'revokedPermissions';
  return list === 'grant' ? 'extraDepartmentIds' : 'revokedDepartmentIds';
}

const keyValue = (key: OverrideKey): string =>
  key.kind === 'permission' ? key.permission : key.departmentId;

/**
 * Per-user grants and revokes (docs/access.md, rules 1-3). The four lists are
 * independent: a grant never clears a revoke, and a revoke always wins, so
 * access comes back only when its revoke entry is removed. Every change
 * re-checks the user's open sockets before it answers (docs/realtime.md).
 */
export function createUserOverridesService(deps: UserOverridesServiceDeps) {
  const { db, users, roles, departments, bus } = deps;
  const accessStamps = accessStampsOf(db);

  /** Locks the target; 404 when missing or out of scope, 403 when their role holds more than the caller. */
  async function lockManageable(actor: Actor, id: string, tx: DbExecutor): Promise<UserRow> {
    const user = await users.findByIdForUpdate(id, tx);
    const visible =
      user && id === actor.userId
        ? user
        : assertVisible(actor, user, (u) => u.departmentId, `User ${id} not found`);
    const role = await roles.findById(visible.roleId, tx);
    if (id !== actor.userId && role) assertCanManage(actor, role);
    return visible;
  }

  async function requireDepartment(key: OverrideKey, tx: DbExecutor): Promise<void> {
    if (key.kind !== 'department') return;
    if (!(await departments.findById(key.departmentId, tx))) {
      throw new ValidationError([
        { field: 'body.departmentId', message: 'must name an existing department' },
      ]);
    }
  }

  /** Widening access (a grant, or removing a revoke) is limited to what the caller holds. */
  function assertCanWiden(actor: Actor, key: OverrideKey): void {
    assertCanConfer(
      actor,
      key.kind === 'permission' ? { permissions: [key.permission] } : { departmentIds: [key.departmentId] },
    );
  }

  async function change(
    actor: Actor,
    id: string,
    apply: (user: UserRow, tx: DbExecutor) => Promise<Partial<NewUser>>,
  ) {
    const user = await db.transaction(async (tx) => {
      const target = await lockManageable(actor, id, tx);
      const patch = await apply(target, tx);
      return Object.keys(patch).length > 0 ? (await users.update(id, patch, tx))! : target;
    });
    // After the commit and before the answer: the user's next request, on any replica, sees the
    // change, and their open sockets are re-checked (on this replica before the answer).
    await accessStamps.bumpUser(user.id);
    await publishAccessChange(bus, { userId: user.id });
    const found = await users.findWithRole(user.id);
    return effectiveAccessOf(found!.user, found!.role);
  }

  function add(user: UserRow, list: ListName, value: string): Partial<NewUser> {
    return user[list].includes(value) ? {} : { [list]: [...user[list], value] };
  }

  function remove(user: UserRow, list: ListName, value: string, what: string): Partial<NewUser> {
    if (!user[list].includes(value))
      throw new NotFoundError(`User ${user.id} has no ${what} entry for ${value}`);
    return { [list]: user[list].filter((v) => v !== value) };
  }

  return {
    /**
     * Adds a permission or department grant (idempotent). Answers the new effective access.
     * @throws NotFoundError (user missing or out of scope), ForbiddenError (granting what the
     *   caller lacks, or a user more powerful than the caller), ValidationError (unknown department).
     */
    async grant(actor: Actor, id: string, key: OverrideKey) {
      return change(actor, id, async (user, tx) => {
        await requireDepartment(key, tx);
        assertCanWiden(actor, key);
        return add(user, listOf(key, 'grant'), keyValue(key));
      });
    },

    /**
     * Adds a permission or department revoke (idempotent); it wins over the role and any grant.
     * @throws NotFoundError, ForbiddenError, ValidationError as for grant.
     */
    async revoke(actor: Actor, id: string, key: OverrideKey) {
      return change(actor, id, async (user, tx) => {
        await requireDepartment(key, tx);
        return add(user, listOf(key, 'revoke'), keyValue(key));
      });
    },

    /**
     * Removes a grant entry.
     * @throws NotFoundError when the user or the entry does not exist; ForbiddenError as for grant.
     */
    async removeGrant(actor: Actor, id: string, key: OverrideKey) {
      return change(actor, id, async (user) => remove(user, listOf(key, 'grant'), keyValue(key), 'grant'));
    },

    /**
     * Removes a revoke entry, which restores access the role or a grant gives.
     * @throws NotFoundError when the user or the entry does not exist; ForbiddenError when the
     *   caller does not hold what would come back.
     */
    async removeRevoke(actor: Actor, id: string, key: OverrideKey) {
      return change(actor, id, async (user) => {
        const patch = remove(user, listOf(key, 'revoke'), keyValue(key), 'revoke');
        assertCanWiden(actor, key);
        return patch;
      });
    },
  };
}

export type UserOverridesService = ReturnType<typeof createUserOverridesService>;
