import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import { ForbiddenError, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type {
  EmployeeProfilePatch,
  EmployeeProfilesRepository,
  ProfileWithOwner,
} from './employee-profiles.repository.js';

/** preferences and metadata are free-form but bounded: at most this many bytes as JSON each. */
export const MAX_OBJECT_BYTES = 16 * 1024;

function toResponse(row: ProfileWithOwner) {
  const { profile } = row;
  return {
    userId: profile.userId,
    name: row.name,
    departmentId: row.departmentId,
    isActive: row.isActive,
    summary: profile.summary,
    currentProjects: profile.currentProjects,
    preferences: profile.preferences,
    frequentIntents: profile.frequentIntents,
    accessLevel: profile.accessLevel,
    metadata: profile.metadata,
    createdAt: iso(profile.createdAt),
    updatedAt: iso(profile.updatedAt),
  };
}

function checkSize(field: 'preferences' | 'metadata', value: Record<string, unknown> | undefined): void {
  if (value !== undefined && Buffer.byteLength(JSON.stringify(value)) > MAX_OBJECT_BYTES) {
    throw new ValidationError([
      { field: `body.${field}`, message: `must be at most ${MAX_OBJECT_BYTES} bytes as JSON` },
    ]);
  }
}

export function createEmployeeProfilesService(deps: {
  profiles: EmployeeProfilesRepository;
  /** Moved after a profile changes, so cached copies (GET /me) reload. */
  accessStamps: AccessStamps;
}) {
  const { profiles, accessStamps } = deps;

  /** The profile of the caller, or of a user in the caller's departments; 404 otherwise. */
  async function loadVisible(actor: Actor, userId: string): Promise<ProfileWithOwner> {
    const row = await profiles.findByUserId(userId);
    if (row && userId === actor.userId) return row;
    return assertVisible(actor, row, (r) => r.departmentId, `Profile of user ${userId} not found`);
  }

  return {
    /**
     * Profiles of users whose primary department is one of the caller's (all for global callers).
     * @throws ForbiddenError when `departmentId` is outside the caller's departments.
     */
    async list(
      actor: Actor,
      query: { departmentId?: string; search?: string; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await profiles.list(
        departmentScope(actor, query.departmentId),
        query.search ? { search: query.search.trim() } : {},
        { limit, offset },
      );
      return { items: rows.map(toResponse), total, limit, offset };
    },

    /**
     * One profile: the caller's own, or one inside the caller's departments.
     * @throws NotFoundError otherwise.
     */
    async get(actor: Actor, userId: string) {
      return toResponse(await loadVisible(actor, userId));
    },

    /**
     * Changes a profile: one's own freely (except accessLevel), another visible
     * one with canManageEmployeeProfiles. Arrays and objects are replaced whole.
     * @throws NotFoundError when the profile is missing or out of scope;
     *   ForbiddenError without canManageEmployeeProfiles for another profile or for accessLevel;
     *   ValidationError for preferences or metadata over 16 KB.
     */
    async update(actor: Actor, userId: string, input: EmployeeProfilePatch) {
      const current = await loadVisible(actor, userId);
      const canManage = actor.permissions.has('canManageEmployeeProfiles');
      if (userId !== actor.userId && !canManage) {
        throw new ForbiddenError('Missing permission: canManageEmployeeProfiles');
      }
      if (
        input.accessLevel !== undefined &&
        input.accessLevel !== current.profile.accessLevel &&
        !canManage
      ) {
        throw new ForbiddenError('Changing accessLevel needs the canManageEmployeeProfiles permission');
      }
      checkSize('preferences', input.preferences);
      checkSize('metadata', input.metadata);
      const patch: EmployeeProfilePatch = {};
      for (const key of [
        'summary',
        'currentProjects',
        'preferences',
        'frequentIntents',
        'accessLevel',
        'metadata',
      ] as const) {
        if (input[key] !== undefined) Object.assign(patch, { [key]: input[key] });
      }
      if (Object.keys(patch).length > 0) {
        await profiles.update(userId, patch);
        await accessStamps.bumpUser(userId);
      }
      return toResponse((await profiles.findByUserId(userId))!);
    },
  };
}

export type EmployeeProfilesService = ReturnType<typeof createEmployeeProfilesService>;
