import type { TokenService } from '../../core/auth/jwt.js';
import { ConflictError, UnauthorizedError } from '../../core/errors/app-errors.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { NewAdministrator } from '../users/bootstrap-admin.js';
import type { UserRow } from '../users/users.repository.js';
import { newSetupCode, setupCodeHash } from './setup-code.js';

/**
 * How long a printed code stays valid. Long, since the person who reads the
 * log may come back days later; a restart prints a new one anyway.
 */
const SETUP_CODE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Each process's code is its own key, so a code printed by one api replica works on every other. */
const codeKey = (hash: string) => `setup:code:${hash}`;

export interface SetupServiceDeps {
  kv: KeyValue;
  tokens: TokenService;
  /** The department the first administrator joins (ADMIN_DEPARTMENT). */
  department: string;
  administrators: {
    anyAccountExists(): Promise<boolean>;
    create(admin: NewAdministrator, options: { onlyFirst: boolean }): Promise<UserRow>;
  };
}

export function createSetupService(deps: SetupServiceDeps) {
  const { kv, tokens, administrators } = deps;

  return {
    /** Whether the service still waits for its first account (GET /setup). */
    async status(): Promise<{ needed: boolean }> {
      return { needed: !(await administrators.anyAccountExists()) };
    },

    /**
     * At start, while no account exists: makes this process's setup code and
     * stores only its hash; answers the code for the start-up log, or null
     * when an account exists (nothing to set up, nothing printed).
     */
    async announce(): Promise<string | null> {
      if (await administrators.anyAccountExists()) return null;
      const code = newSetupCode();
      await kv.set(codeKey(setupCodeHash(code)), '1', SETUP_CODE_TTL_MS);
      return code;
    },

    /**
     * Creates the first administrator (role `admin`, the bootstrap department)
     * and signs them in. Concurrent calls create one: the creation runs under
     * the administrators' lock and checks again inside it.
     * @throws ConflictError once any account exists (checked before the code, so the answer after setup is always 409).
     * @throws UnauthorizedError for a code no process printed (or one expired).
     */
    async complete(input: { setupCode: string; email: string; password: string; name: string }) {
      if (await administrators.anyAccountExists())
        throw new ConflictError('The service is set up already; sign in instead');
      const key = codeKey(setupCodeHash(input.setupCode));
      if ((await kv.get(key)) === null)
        throw new UnauthorizedError(
          'Wrong setup code; the service prints the current one in its log at start',
        );
      const user = await administrators.create(
        { email: input.email, password: input.password, name: input.name, department: deps.department },
        { onlyFirst: true },
      );
      await kv.delete(key);
      return {
        token: tokens.sign(user.id, user.tokenVersion),
        user: {
          id: user.id,
          email: user.email,
          name: user.name,
          role: user.role,
          departmentId: user.departmentId,
        },
      };
    },
  };
}

export type SetupService = ReturnType<typeof createSetupService>;
