import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import { isUniqueViolation } from '../../core/db/sql-helpers.js';
import { ConflictError, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { DepartmentRow, DepartmentsRepository, NewDepartment } from './departments.repository.js';
import { nextFreeSlug, slugify } from './slug.js';

/** Settings are free-form but bounded: at most this many bytes as JSON. */
export const MAX_SETTINGS_BYTES = 16 * 1024;

export interface DepartmentsServiceDeps {
  db: Database;
  departments: DepartmentsRepository;
}

export interface DepartmentInput {
  name?: string;
  slug?: string;
  color?: string;
  description?: string | null;
  settings?: Record<string, unknown>;
}

export function toDepartmentResponse(row: DepartmentRow) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    color: row.color,
    description: row.description,
    settings: row.settings,
    isArchived: row.archivedAt !== null,
    archivedAt: iso(row.archivedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function createDepartmentsService(deps: DepartmentsServiceDeps) {
  const { db, departments } = deps;

  async function loadVisible(actor: Actor, id: string): Promise<DepartmentRow> {
    return assertVisible(actor, await departments.findById(id), (d) => d.id, `Department ${id} not found`);
  }

  /** 422 for settings over the size bound or naming a namespace of another department. */
  async function checkSettings(
    settings: Record<string, unknown>,
    departmentId: string | null,
  ): Promise<void> {
    if (Buffer.byteLength(JSON.stringify(settings)) > MAX_SETTINGS_BYTES) {
      throw new ValidationError([
        { field: 'body.settings', message: `must be at most ${MAX_SETTINGS_BYTES} bytes as JSON` },
      ]);
    }
    const namespaceId = settings.defaultNamespaceId;
    if (typeof namespaceId !== 'string') return;
    if (!departmentId || !(await departments.namespaceBelongsTo(namespaceId, departmentId))) {
      throw new ValidationError([
        { field: 'body.settings.defaultNamespaceId', message: 'must name a namespace of this department' },
      ]);
    }
  }

  function normalise(input: DepartmentInput): Partial<NewDepartment> {
    const values: Partial<NewDepartment> = {};
    if (input.name !== undefined) values.name = input.name.trim();
    if (input.color !== undefined) values.color = input.color.toLowerCase();
    if (input.description !== undefined) values.description = input.description;
    if (input.settings !== undefined) values.settings = input.settings;
    if (values.name === '') throw new ValidationError([{ field: 'body.name', message: 'must not be blank' }]);
    return values;
  }

  return {
    /**
     * Departments inside the caller's effective departments (all for global
     * users), by name; archived ones only with `includeArchived`.
     */
    async list(
      actor: Actor,
      query: { search?: string; includeArchived?: boolean; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await departments.list(
        departmentScope(actor),
        {
          includeArchived: query.includeArchived ?? false,
          ...(query.search ? { search: query.search.trim() } : {}),
        },
        { limit, offset },
      );
      return { items: rows.map(toDepartmentResponse), total, limit, offset };
    },

    /**
     * One department, archived or not.
     * @throws NotFoundError when it does not exist or lies outside the caller's departments.
     */
    async get(actor: Actor, id: string) {
      return toDepartmentResponse(await loadVisible(actor, id));
    },

    /**
     * Creates a department. Without a slug one is made from the name, with a
     * numeric suffix when taken.
     * @throws ConflictError when an explicit slug is taken.
     * @throws ValidationError for settings over 16 KB or naming a namespace (a new department has none).
     */
    async create(_actor: Actor, input: DepartmentInput & { name: string }) {
      const values = normalise(input);
      await checkSettings(input.settings ?? {}, null);
      try {
        const row = await db.transaction(async (tx) => {
          let slug = input.slug;
          if (slug) {
            if (await departments.findBySlug(slug, tx))
              throw new ConflictError(`Slug ${slug} is already taken`);
          } else {
            const base = slugify(values.name!);
            slug = nextFreeSlug(base, await departments.slugsLike(base, tx));
          }
          return departments.insert({ ...values, name: values.name!, slug }, tx);
        });
        return toDepartmentResponse(row);
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConflictError(`Slug ${input.slug ?? slugify(values.name!)} is already taken`);
        throw error;
      }
    },

    /**
     * Changes name, colour, description or settings (settings are replaced whole).
     * @throws NotFoundError when missing or outside the caller's departments.
     * @throws ValidationError for bad settings.
     */
    async update(actor: Actor, id: string, input: DepartmentInput) {
      const current = await loadVisible(actor, id);
      const values = normalise(input);
      if (input.settings !== undefined) await checkSettings(input.settings, current.id);
      if (Object.keys(values).length === 0) return toDepartmentResponse(current);
      const row = await departments.update(id, values);
      // GET /me shows the department: cached copies reload on the next request, on every replica.
      await accessStampsOf(db).bumpRoles();
      return toDepartmentResponse(row!);
    },

    /**
     * Soft-archives: the department is hidden from lists unless asked for and
     * refuses new registrations; its data stays. Archiving twice keeps the first time.
     * @throws NotFoundError when missing or outside the caller's departments.
     */
    async archive(actor: Actor, id: string) {
      await loadVisible(actor, id);
      const row = await departments.archive(id, new Date());
      await accessStampsOf(db).bumpRoles();
      return toDepartmentResponse(row!);
    },
  };
}

export type DepartmentsService = ReturnType<typeof createDepartmentsService>;
