import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import { capabilitiesOf } from '../../core/auth/capabilities.js';
import type { TokenService } from '../../core/auth/jwt.js';
import { hashPassword, verifyPassword } from '../../core/auth/passwords.js';
import type { Bus } from '../../core/bus/bus.js';
import { NotFoundError, UnauthorizedError, UnsupportedMediaTypeError } from '../../core/errors/app-errors.js';
import { avatarUrl } from '../../core/http/user-fields.js';
import { rememberRecent } from '../../core/memo.js';
import { publishRevocation } from '../../core/realtime/revocations.js';
import { toRoleSummary } from '../roles/role-summary.js';
import { actorRows } from '../users/actor-resolver.js';
import { toUserResponse } from '../users/user-views.js';
import type { RoleRow, UserRow, UsersRepository } from '../users/users.repository.js';
import type { AvatarImages } from './avatar-image.js';
import { type AvatarStorage, detectAvatarExtension } from './avatar-storage.js';

export interface MeServiceDeps {
  users: UsersRepository;
  tokens: TokenService;
  bus: Bus;
  avatars: AvatarStorage;
  /** Re-encodes uploaded avatars in an isolated decoder process. */
  avatarImages: AvatarImages;
  /** Moved after every change to the caller's row, so cached actors (and GET /me) reload. */
  accessStamps: AccessStamps;
}

/** GET /me's department and profile of a user, kept while the user's and the roles' marks stay as read. */
type DepartmentAndProfile = Awaited<ReturnType<UsersRepository['findDepartmentAndProfile']>>;
const DEPARTMENT_AND_PROFILE_CACHE_SIZE = 10_000;

export function createMeService(deps: MeServiceDeps) {
  const { users, tokens, bus, avatars, avatarImages, accessStamps } = deps;
  const cached = new Map<string, { stamp: string; value: DepartmentAndProfile }>();

  /**
   * The caller's department and profile. Cached like actors: every writer of a
   * profile moves the user's mark and every writer of a department the roles'
   * mark, so a stale entry is never served (see docs/access.md).
   */
  async function departmentAndProfile(userId: string): Promise<DepartmentAndProfile> {
    if (accessStamps.kind === 'none') return users.findDepartmentAndProfile(userId);
    const stamp = await accessStamps.read(userId);
    const hit = cached.get(userId);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = await users.findDepartmentAndProfile(userId);
    rememberRecent(cached, userId, { stamp, value }, DEPARTMENT_AND_PROFILE_CACHE_SIZE);
    return value;
  }

  async function loadUser(actor: Actor): Promise<UserRow> {
    const user = await users.findById(actor.userId);
    if (!user) throw new NotFoundError(`User ${actor.userId} not found`);
    return user;
  }

  /** GET /me's answer from the caller's user and role rows. */
  async function view(actor: Actor, found: { user: UserRow; role: RoleRow } | null) {
    if (!found) throw new NotFoundError(`User ${actor.userId} not found`);
    const { user, role } = found;

    const { department, profile } = await departmentAndProfile(user.id);
    return {
      // The one user projection; the /me response schema keeps the fields it shows.
      user: toUserResponse(user),
      department: department
        ? { id: department.id, name: department.name, slug: department.slug, color: department.color }
        : null,
      profile: profile
        ? {
            summary: profile.summary,
            currentProjects: profile.currentProjects,
            frequentIntents: profile.frequentIntents,
            accessLevel: profile.accessLevel,
          }
        : null,
      role: toRoleSummary(role),
      isGlobal: actor.isGlobal,
      approvalChannels: user.approvalChannels as Array<'chanA' | 'chanB'>,
      effectivePermissions: [...actor.permissions],
      effectiveDepartmentIds: [...actor.departmentIds],
      capabilities: capabilitiesOf(actor.permissions),
    };
  }

  return {
    /** The caller with department, profile summary, role, effective access and UI capabilities. */
    async get(actor: Actor) {
      // The auth step already read the user and role for this request; only other actors read them here.
      return view(actor, actorRows(actor) ?? (await users.findWithRole(actor.userId)));
    },

    /**
     * Sets the caller's own display name and language (en, uk or ru; null
     * clears it: the language of what the service writes to them
     * unprompted), each only when given; answers GET /me.
     */
    async update(actor: Actor, input: { name?: string; language?: 'en' | 'uk' | 'ru' | null }) {
      await users.update(actor.userId, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.language !== undefined ? { language: input.language } : {}),
      });
      await accessStamps.bumpUser(actor.userId);
      return view(actor, await users.findWithRole(actor.userId));
    },

    /**
     * Changes the password, invalidates every earlier token and closes the
     * user's sockets; answers a fresh token.
     * @throws UnauthorizedError when the current password is wrong.
     */
    async changePassword(actor: Actor, input: { currentPassword: string; newPassword: string }) {
      const user = await loadUser(actor);
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new UnauthorizedError('Current password is incorrect');
      }
      const updated = await users.bumpTokenVersion(user.id, {
        passwordHash: await hashPassword(input.newPassword),
      });
      await accessStamps.bumpUser(user.id);
      await publishRevocation(bus, { userId: user.id, reason: 'password-changed' });
      return { token: tokens.sign(user.id, updated!.tokenVersion) };
    },

    /** Invalidates every token of the caller and closes their sockets. */
    async logoutAll(actor: Actor): Promise<{ ok: true }> {
      await users.bumpTokenVersion(actor.userId);
      await accessStamps.bumpUser(actor.userId);
      await publishRevocation(bus, { userId: actor.userId, reason: 'logout-all' });
      return { ok: true };
    },

    /**
     * Takes a PNG, JPEG or WebP avatar (decided by content), stores it
     * re-encoded as a PNG (only the decoded pixels, never the uploaded bytes)
     * and replaces any earlier one.
     * @throws UnsupportedMediaTypeError for any other content.
     * @throws ValidationError when the image cannot be decoded or is over DECODER_MAX_PIXELS.
     */
    async setAvatar(actor: Actor, bytes: Buffer): Promise<{ avatarUrl: string }> {
      if (!(await detectAvatarExtension(bytes))) {
        throw new UnsupportedMediaTypeError('Avatar must be a PNG, JPEG or WebP image');
      }
      const png = await avatarImages.reencode(bytes);
      const user = await loadUser(actor);
      const fileName = await avatars.save(user.id, 'png', png);
      if (user.avatarFile && user.avatarFile !== fileName) await avatars.remove(user.avatarFile);
      const updated = await users.update(user.id, { avatarFile: fileName });
      await accessStamps.bumpUser(user.id);
      return { avatarUrl: avatarUrl(updated!)! };
    },

    /** Removes the caller's avatar; a no-op when there is none. */
    async deleteAvatar(actor: Actor): Promise<void> {
      const user = await loadUser(actor);
      if (!user.avatarFile) return;
      await users.update(user.id, { avatarFile: null });
      await accessStamps.bumpUser(user.id);
      await avatars.remove(user.avatarFile);
    },
  };
}

export type MeService = ReturnType<typeof createMeService>;
