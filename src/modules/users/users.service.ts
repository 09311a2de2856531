import { assertCanConfer, assertCanManage } from '../../core/auth/access-guards.js';
import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, canAccessDepartment, departmentScope } from '../../core/auth/department-scope.js';
import { hashPassword } from '../../core/auth/passwords.js';
import { DEFAULT_ROLE_SLUG } from '../../core/auth/permissions.js';
import type { Bus } from '../../core/bus/bus.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { isUniqueViolation } from '../../core/db/sql-helpers.js';
import { ConflictError, ForbiddenError, ValidationError } from '../../core/errors/app-errors.js';
import { publishAccessChange } from '../../core/realtime/access-changes.js';
import { publishRevocation } from '../../core/realtime/revocations.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import { effectiveAccessOf, normalisePhone, toUserResponse } from './user-views.js';
import type { NewUser, RoleRow, UserRow, UsersRepository } from './users.repository.js';

export interface UsersServiceDeps {
  db: Database;
  users: UsersRepository;
  roles: RolesRepository;
  departments: DepartmentsRepository;
  bus: Bus;
}

export interface UserListQuery {
  role?: string;
  departmentId?: string;
  search?: string;
  isActive?: boolean;
  limit?: number;
  offset?: number;
}

export interface UserUpdateInput {
  name?: string;
  phone?: string | null;
  /** en, uk or ru, or null to clear. */
  language?: 'en' | 'uk' | 'ru' | null;
  role?: string;
  roleId?: string;
  departmentId?: string;
  isActive?: boolean;
}

/** Fields only a holder of canManageUsers may send (PATCH /users/:id). */
const MANAGED_FIELDS = ['role', 'roleId', 'departmentId', 'isActive'] as const;

export function createUsersService(deps: UsersServiceDeps) {
  const { db, users, roles, departments, bus } = deps;
  // Moved after each committed change to a user row, so cached actors everywhere reload.
  const accessStamps = accessStampsOf(db);

  /** The target with its role; 404 when missing or outside the caller's departments (self is always visible). */
  async function loadVisible(
    actor: Actor,
    id: string,
    tx: DbExecutor = db,
  ): Promise<{ user: UserRow; role: RoleRow }> {
    const found = await users.findWithRole(id, tx);
    if (id === actor.userId && found) return found;
    return assertVisible(actor, found, (f) => f.user.departmentId, `User ${id} not found`);
  }

  /** Reading another user needs canViewAllUsers (403), then the user in scope (404). */
  async function loadReadable(actor: Actor, id: string) {
    if (id !== actor.userId && !actor.permissions.has('canViewAllUsers')) {
      throw new ForbiddenError('Missing permission: canViewAllUsers');
    }
    return loadVisible(actor, id);
  }

  /** The role named by slug and/or id; both must agree. 422 for an unknown one. */
  async function resolveRole(
    input: { role?: string; roleId?: string },
    tx: DbExecutor,
  ): Promise<RoleRow | null> {
    if (input.role === undefined && input.roleId === undefined) return null;
    const byId = input.roleId ? await roles.findById(input.roleId, tx) : null;
    if (input.roleId && !byId)
      throw new ValidationError([{ field: 'body.roleId', message: 'must name an existing role' }]);
    const bySlug = input.role ? await roles.findBySlug(input.role, tx) : null;
    if (input.role && !bySlug)
      throw new ValidationError([{ field: 'body.role', message: 'must name an existing role' }]);
    if (byId && bySlug && byId.id !== bySlug.id) {
      throw new ValidationError([{ field: 'body.roleId', message: 'names a different role than body.role' }]);
    }
    return byId ?? bySlug;
  }

  /** 422 unless the department exists and is not archived; 403 when outside the caller's departments. */
  async function checkDepartment(actor: Actor, departmentId: string, tx: DbExecutor): Promise<void> {
    const department = await departments.findById(departmentId, tx);
    if (!department || department.archivedAt) {
      throw new ValidationError([
        { field: 'body.departmentId', message: 'must name an existing, active department' },
      ]);
    }
    if (!canAccessDepartment(actor, departmentId)) {
      throw new ForbiddenError(`Department ${departmentId} is outside your departments`);
    }
  }

  function conflictOnDuplicate(error: unknown): never {
    if (isUniqueViolation(error)) throw new ConflictError('Email or phone number is already in use');
    throw error;
  }

  async function deactivate(user: UserRow, patch: Partial<NewUser>, tx: DbExecutor): Promise<UserRow> {
    return (await users.bumpTokenVersion(user.id, { ...patch, isActive: false }, tx))!;
  }

  return {
    /**
     * Users whose primary department is one of the caller's (all for global callers), by name.
     * @throws ForbiddenError when `departmentId` is outside the caller's departments.
     */
    async list(actor: Actor, query: UserListQuery) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const scope = departmentScope(actor, query.departmentId);
      const { rows, total } = await users.list(
        scope,
        {
          ...(query.role ? { role: query.role } : {}),
          ...(query.search ? { search: query.search.trim() } : {}),
          ...(query.isActive === undefined ? {} : { isActive: query.isActive }),
        },
        { limit, offset },
      );
      return { items: rows.map(toUserResponse), total, limit, offset };
    },

    /**
     * Creates a user (default role employee) with their employee profile.
     * @throws ValidationError for an unknown or archived department or an unknown role.
     * @throws ForbiddenError when the department is outside the caller's or the role holds access the caller lacks.
     * @throws ConflictError when the email or phone is taken.
     */
    async create(
      actor: Actor,
      input: { email: string; password: string; name: string; phone?: string | null } & UserUpdateInput & {
          departmentId: string;
        },
    ) {
      const passwordHash = await hashPassword(input.password);
      const user = await db
        .transaction(async (tx) => {
          await checkDepartment(actor, input.departmentId, tx);
          const role = (await resolveRole(input, tx)) ?? (await roles.findBySlug(DEFAULT_ROLE_SLUG, tx));
          if (!role) throw new Error(`system role ${DEFAULT_ROLE_SLUG} is missing`);
          assertCanConfer(actor, role);
          if (await users.findByEmail(input.email, tx))
            throw new ConflictError(`Email ${input.email} is already in use`);
          return users.insertWithProfile(
            {
              email: input.email,
              passwordHash,
              name: input.name.trim(),
              phone: normalisePhone(input.phone),
              role: role.slug,
              roleId: role.id,
              departmentId: input.departmentId,
            },
            tx,
          );
        })
        .catch(conflictOnDuplicate);
      return toUserResponse(user);
    },

    /**
     * One user: the caller themself, or with canViewAllUsers a user in the caller's departments.
     * @throws ForbiddenError without canViewAllUsers; NotFoundError when missing or out of scope.
     */
    async get(actor: Actor, id: string) {
      return toUserResponse((await loadReadable(actor, id)).user);
    },

    /**
     * The user's role, overrides and computed effective permissions and departments.
     * @throws ForbiddenError without canViewAllUsers (for another user); NotFoundError when missing or out of scope.
     */
    async effectiveAccess(actor: Actor, id: string) {
      const { user, role } = await loadReadable(actor, id);
      return effectiveAccessOf(user, role);
    },

    /**
     * Anyone may change their own name, phone and language. Role (slug or id, kept in
     * step), primary department and active state need canManageUsers, as does
     * any change to another user. Deactivating ends the user's sessions; a
     * new role or primary department re-checks the user's open sockets on
     * every replica, and on this one before the answer (docs/realtime.md).
     * @throws ForbiddenError, NotFoundError, ValidationError (unknown role or department),
     *   ConflictError (deactivating oneself, phone taken).
     */
    async update(actor: Actor, id: string, input: UserUpdateInput) {
      const self = id === actor.userId;
      const canManage = actor.permissions.has('canManageUsers');
      if (!self && !canManage) throw new ForbiddenError('Missing permission: canManageUsers');
      const managed = MANAGED_FIELDS.filter((field) => input[field] !== undefined);
      const { user, deactivated, accessChanged } = await db
        .transaction(async (tx) => {
          const target = await loadVisible(actor, id, tx);
          if (managed.length > 0 && !canManage) {
            throw new ForbiddenError(`Changing ${managed.join(', ')} needs the canManageUsers permission`);
          }
          if (!self) assertCanManage(actor, target.role);
          if (self && input.isActive === false)
            throw new ConflictError('You cannot deactivate your own account');
          const patch: Partial<NewUser> = {};
          if (input.name !== undefined) patch.name = input.name.trim();
          if (input.phone !== undefined) patch.phone = normalisePhone(input.phone);
          if (input.language !== undefined) patch.language = input.language;
          const role = await resolveRole(input, tx);
          if (role && role.id !== target.user.roleId) {
            assertCanConfer(actor, role);
            Object.assign(patch, { role: role.slug, roleId: role.id });
          }
          if (input.departmentId !== undefined && input.departmentId !== target.user.departmentId) {
            await checkDepartment(actor, input.departmentId, tx);
            patch.departmentId = input.departmentId;
          }
          if (input.isActive === true) patch.isActive = true;
          if (input.isActive === false && target.user.isActive) {
            return {
              user: await deactivate(target.user, patch, tx),
              deactivated: true,
              accessChanged: false,
            };
          }
          const accessChanged = patch.roleId !== undefined || patch.departmentId !== undefined;
          if (Object.keys(patch).length === 0)
            return { user: target.user, deactivated: false, accessChanged };
          return { user: (await users.update(id, patch, tx))!, deactivated: false, accessChanged };
        })
        .catch(conflictOnDuplicate);
      await accessStamps.bumpUser(id);
      if (deactivated) await publishRevocation(bus, { userId: id, reason: 'deactivated' });
      if (accessChanged) await publishAccessChange(bus, { userId: id });
      return toUserResponse(user);
    },

    /**
     * Soft-deactivates a user: isActive false, every token invalid at once,
     * open sockets closed. Deactivating an inactive user changes nothing.
     * @throws ConflictError for oneself; NotFoundError when missing or out of scope;
     *   ForbiddenError when the user's role holds access the caller lacks.
     */
    async deactivate(actor: Actor, id: string) {
      if (id === actor.userId) throw new ConflictError('You cannot deactivate your own account');
      const { user, changed } = await db.transaction(async (tx) => {
        const target = await loadVisible(actor, id, tx);
        assertCanManage(actor, target.role);
        if (!target.user.isActive) return { user: target.user, changed: false };
        return { user: await deactivate(target.user, {}, tx), changed: true };
      });
      if (changed) {
        await accessStamps.bumpUser(id);
        await publishRevocation(bus, { userId: id, reason: 'deactivated' });
      }
      return toUserResponse(user);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
