import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import type { TokenService } from '../../core/auth/jwt.js';
import { hashPassword, verifyPassword } from '../../core/auth/passwords.js';
import { DEFAULT_ROLE_SLUG } from '../../core/auth/permissions.js';
import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import { ConflictError, UnauthorizedError, ValidationError } from '../../core/errors/app-errors.js';
import { publishRevocation } from '../../core/realtime/revocations.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { UserRow, UsersRepository } from '../users/users.repository.js';
import type { AuthRepository } from './auth.repository.js';

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: string;
  departmentId: string;
}

export interface AuthResult {
  token: string;
  user: AuthUser;
}

export interface AuthServiceDeps {
  db: Database;
  users: UsersRepository;
  roles: RolesRepository;
  departments: DepartmentsRepository;
  auth: AuthRepository;
  tokens: TokenService;
  logger: FastifyBaseLogger;
  /** Carries the revocation that closes the user's open sockets after a reset. */
  bus: Bus;
}

export function toAuthUser(user: UserRow): AuthUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    departmentId: user.departmentId,
  };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, users, roles, departments, auth, tokens, logger, bus } = deps;
  const accessStamps = accessStampsOf(db);

  return {
    /**
     * Self-registration: always the `employee` role, whatever the body says.
     * @throws ValidationError when the department does not exist or is archived.
     * @throws ConflictError when the email is taken.
     */
    async register(input: {
      email: string;
      password: string;
      name: string;
      departmentId: string;
    }): Promise<AuthResult> {
      const department = await departments.findById(input.departmentId);
      if (!department || department.archivedAt) {
        throw new ValidationError([
          { field: 'body.departmentId', message: 'must name an existing, active department' },
        ]);
      }
      if (await users.findByEmail(input.email))
        throw new ConflictError(`Email ${input.email} is already registered`);
      const role = await roles.findBySlug(DEFAULT_ROLE_SLUG);
      if (!role) throw new Error(`system role ${DEFAULT_ROLE_SLUG} is missing`);
      const passwordHash = await hashPassword(input.password);
      const user = await db.transaction((tx) =>
        users.insertWithProfile(
          {
            email: input.email,
            passwordHash,
            name: input.name.trim(),
            role: role.slug,
            roleId: role.id,
            departmentId: department.id,
          },
          tx,
        ),
      );
      return { token: tokens.sign(user.id, user.tokenVersion), user: toAuthUser(user) };
    },

    /**
     * Exchanges email and password for a token.
     * @throws UnauthorizedError for an unknown email, a wrong password or an inactive user (one message for all).
     */
    async login(input: { email: string; password: string }): Promise<AuthResult> {
      const user = await users.findByEmail(input.email.trim());
      const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !valid || !user.isActive) throw new UnauthorizedError('Invalid email or password');
      await users.update(user.id, { lastLoginAt: new Date() });
      return { token: tokens.sign(user.id, user.tokenVersion), user: toAuthUser(user) };
    },

    /** A fresh token for a still-valid one, at the same tokenVersion. */
    refresh(actor: Actor): { token: string } {
      return { token: tokens.sign(actor.userId, actor.tokenVersion) };
    },

    /**
     * Issues a single-use reset token valid for one hour and writes it to the
     * log (mail delivery is left to the operator). Silent for unknown emails.
     */
    async forgotPassword(email: string): Promise<{ ok: true }> {
      const user = await users.findByEmail(email.trim());
      if (!user?.isActive) return { ok: true };
      const token = randomBytes(32).toString('base64url');
      await auth.insertResetToken({
        userId: user.id,
        tokenHash: hashResetToken(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      logger.info({ userId: user.id, resetToken: token }, 'password reset token issued (valid 1 hour)');
      return { ok: true };
    },

    /**
     * Sets a new password from a reset token and invalidates existing tokens.
     * @throws ValidationError when the token is unknown, used or expired.
     */
    async resetPassword(input: { token: string; newPassword: string }): Promise<{ ok: true }> {
      const passwordHash = await hashPassword(input.newPassword);
      const updated = await db.transaction(async (tx) => {
        const consumed = await auth.consumeResetToken(hashResetToken(input.token), new Date(), tx);
        if (!consumed) return null;
        return users.bumpTokenVersion(consumed.userId, { passwordHash }, tx);
      });
      if (!updated)
        throw new ValidationError([{ field: 'body.token', message: 'is invalid, used or expired' }]);
      // Old tokens are refused on the next request on every replica, not only after a cache reload.
      await accessStamps.bumpUser(updated.id);
      await publishRevocation(bus, { userId: updated.id, reason: 'password-reset' });
      return { ok: true };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
