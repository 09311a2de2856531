import { assertCanConfer } from '../../core/auth/access-guards.js';
import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import { PERMISSIONS } from '../../core/auth/permissions.js';
import type { Bus } from '../../core/bus/bus.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../core/db/sql-helpers.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import { publishAccessChange } from '../../core/realtime/access-changes.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { nextFreeSlug, slugify } from '../departments/slug.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { NewRole, RoleRow, RolesRepository } from './roles.repository.js';

export interface RolesServiceDeps {
  db: Database;
  roles: RolesRepository;
  users: UsersRepository;
  departments: DepartmentsRepository;
  bus: Bus;
}

export interface RoleInput {
  name?: string;
  slug?: string;
  description?: string | null;
  allDepartments?: boolean;
  departmentIds?: string[];
  permissions?: string[];
}

/** The seeded role that must keep every permission and every department, so the service stays manageable. */
const ADMIN_SLUG = 'admin';

export function toRoleResponse(row: RoleRow, userCount: number) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    allDepartments: row.allDepartments,
    departmentIds: row.departmentIds,
    permissions: row.permissions,
    isSystem: row.isSystem,
    userCount,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

export function createRolesService(deps: RolesServiceDeps) {
  const { db, roles, users, departments, bus } = deps;
  const accessStamps = accessStampsOf(db);

  async function load(id: string, tx: DbExecutor = db): Promise<RoleRow> {
    const role = await roles.findById(id, tx);
    if (!role) throw new NotFoundError(`Role ${id} not found`);
    return role;
  }

  async function respond(row: RoleRow) {
    const counts = await roles.userCounts([row.id]);
    return toRoleResponse(row, counts.get(row.id) ?? 0);
  }

  /** The write values of an input, deduplicated and checked. */
  async function valuesOf(input: RoleInput, tx: DbExecutor): Promise<Partial<NewRole>> {
    const values: Partial<NewRole> = {};
    if (input.name !== undefined) {
      values.name = input.name.trim();
      if (!values.name) throw new ValidationError([{ field: 'body.name', message: 'must not be blank' }]);
    }
    if (input.description !== undefined) values.description = input.description;
    if (input.allDepartments !== undefined) values.allDepartments = input.allDepartments;
    if (input.permissions !== undefined) values.permissions = unique(input.permissions);
    if (input.departmentIds !== undefined) {
      const ids = unique(input.departmentIds);
      const found = new Set((await departments.findByIds(ids, tx)).map((d) => d.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw new ValidationError([
          { field: 'body.departmentIds', message: `unknown departments: ${missing.join(', ')}` },
        ]);
      }
      values.departmentIds = ids;
    }
    return values;
  }

  function conflictOnDuplicate(slug: string | undefined) {
    return (error: unknown): never => {
      if (isUniqueViolation(error))
        throw new ConflictError(`Role slug ${slug ?? ''} is already taken`.trim());
      throw error;
    };
  }

  return {
    /** Roles by name, searched in name and slug; system roles only with `includeSystem`. */
    async list(
      _actor: Actor,
      query: { search?: string; includeSystem?: boolean; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await roles.list(
        {
          includeSystem: query.includeSystem ?? false,
          ...(query.search ? { search: query.search.trim() } : {}),
        },
        { limit, offset },
      );
      const counts = await roles.userCounts(rows.map((r) => r.id));
      return { items: rows.map((r) => toRoleResponse(r, counts.get(r.id) ?? 0)), total, limit, offset };
    },

    /**
     * One role with the number of its holders.
     * @throws NotFoundError when it does not exist.
     */
    async get(_actor: Actor, id: string) {
      return respond(await load(id));
    },

    /**
     * Creates a role; without a slug one is made from the name (numeric suffix when taken).
     * @throws ValidationError for unknown departments.
     * @throws ForbiddenError when the role would hold access the caller lacks.
     * @throws ConflictError when an explicit slug is taken.
     */
    async create(actor: Actor, input: RoleInput & { name: string }) {
      const row = await db
        .transaction(async (tx) => {
          const values = await valuesOf(input, tx);
          assertCanConfer(actor, values);
          let slug = input.slug;
          if (slug) {
            if (await roles.findBySlug(slug, tx))
              throw new ConflictError(`Role slug ${slug} is already taken`);
          } else {
            const fromName = slugify(values.name!);
            const base = fromName === 'department' && !/department/i.test(values.name!) ? 'role' : fromName;
            slug = nextFreeSlug(base, await roles.slugsLike(base, tx));
          }
          return roles.insert({ ...values, name: values.name!, slug, isSystem: false }, tx);
        })
        .catch(conflictOnDuplicate(input.slug));
      return toRoleResponse(row, 0);
    },

    /**
     * Changes a role. Holders get the new permissions on their next request,
     * and their open sockets are re-checked on every replica (on this one
     * before the answer): subscriptions outside the role's new departments end.
     * A system role keeps its slug; `admin` also keeps every permission and
     * every department. A new slug is copied to every holder's `role`.
     * @throws NotFoundError, ValidationError (unknown departments),
     *   ForbiddenError (the role before or after holds access the caller lacks),
     *   ConflictError (system slug change, narrowing admin, slug taken).
     */
    async update(actor: Actor, id: string, input: RoleInput) {
      const row = await db
        .transaction(async (tx) => {
          const current = await load(id, tx);
          const values = await valuesOf(input, tx);
          if (input.slug !== undefined && input.slug !== current.slug) {
            if (current.isSystem)
              throw new ConflictError(`The slug of system role ${current.slug} cannot change`);
            values.slug = input.slug;
          }
          const next = { ...current, ...values };
          if (current.isSystem && current.slug === ADMIN_SLUG) {
            const full = PERMISSIONS.every((p) => next.permissions.includes(p));
            if (!full || !next.allDepartments) {
              throw new ConflictError('The admin role keeps every permission and every department');
            }
          }
          assertCanConfer(actor, current);
          assertCanConfer(actor, next);
          if (Object.keys(values).length === 0) return current;
          const updated = await roles.update(id, values, tx);
          if (values.slug) await users.setRoleSlug(id, values.slug, tx);
          return updated!;
        })
        .catch(conflictOnDuplicate(input.slug));
      // Holders' cached actors reload on their next request, on every replica; their sockets re-check now.
      await accessStamps.bumpRoles();
      await publishAccessChange(bus, { roleId: id });
      return respond(row);
    },

    /**
     * Deletes a custom role nobody holds.
     * @throws NotFoundError when missing; ForbiddenError when it holds access the caller lacks;
     *   ConflictError for a system role or a role assigned to users.
     */
    async delete(actor: Actor, id: string): Promise<void> {
      await db
        .transaction(async (tx) => {
          const role = await load(id, tx);
          if (role.isSystem) throw new ConflictError(`System role ${role.slug} cannot be deleted`);
          assertCanConfer(actor, role);
          const holders = (await roles.userCounts([id], tx)).get(id) ?? 0;
          if (holders > 0) throw new ConflictError(`Role ${role.slug} is assigned to ${holders} user(s)`);
          await roles.delete(id, tx);
        })
        .catch((error: unknown) => {
          // A user assigned between the count and the delete trips the foreign key.
          if (isForeignKeyViolation(error)) throw new ConflictError(`Role ${id} is assigned to users`);
          throw error;
        });
    },
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
