import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Permission } from '../src/core/auth/permissions.js';
import { roles } from '../src/core/db/schema/index.js';
import type { TestContext } from './app.js';
import { createUser, type TestUser } from './factories.js';

export interface SecuredEndpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  payload?: InjectOptions['payload'];
  /**
   * The route's named permission, or permissions of which any one is enough:
   * a caller with none of them, or with all of them revoked by override, gets 403.
   */
  permission?: Permission | readonly Permission[];
  /**
   * For routes that check the permission on a resource found in the caller's
   * scope: the URL the 403 checks call for a given caller (default `url`).
   */
  callerUrl?: (ctx: TestContext, caller: TestUser) => Promise<string>;
  /** For scoped single resources: a URL naming a resource of another department, which must read as 404. */
  otherDepartmentUrl?: (ctx: TestContext, caller: TestUser) => Promise<string>;
}

/** A role with no permissions at all, to prove a route's permission check. */
async function userWithoutPermissions(ctx: TestContext): Promise<TestUser> {
  const slug = `none-${randomBytes(3).toString('hex')}`;
  await ctx.container.db.insert(roles).values({ name: slug, slug, permissions: [] });
  return createUser(ctx.container, { role: slug });
}

/**
 * The shared security check of every endpoint test file: no token, bad token and stale tokenVersion
 * are 401; a missing or revoked permission is 403; another department's
 * resource is 404. Every endpoint test file starts with it.
 */
export function securityChecks(getCtx: () => TestContext, endpoint: SecuredEndpoint): void {
  const request = (headers: Record<string, string>, url = endpoint.url) =>
    getCtx().app.inject({ method: endpoint.method, url, headers, payload: endpoint.payload });

  describe(`security: ${endpoint.method} ${endpoint.url}`, () => {
    it('answers 401 without a token', async () => {
      const res = await request({});
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('UnauthorizedError');
    });

    it('answers 401 for a token with a bad signature', async () => {
      const { token } = await createUser(getCtx().container);
      const forged = `${token.slice(0, token.lastIndexOf('.'))}.${Buffer.from('forged').toString('base64url')}`;
      expect((await request({ authorization: `Bearer ${forged}` })).statusCode).toBe(401);
    });

    it('answers 401 for a token whose tokenVersion is stale', async () => {
      const { container } = getCtx();
      const caller = await createUser(container, { role: 'admin' });
      await container.repositories.users.bumpTokenVersion(caller.user.id);
      expect((await request(caller.headers)).statusCode).toBe(401);
    });

    if (endpoint.permission) {
      const permissions: readonly Permission[] =
        typeof endpoint.permission === 'string' ? [endpoint.permission] : endpoint.permission;
      const named = permissions.join(' or ');
      const urlFor = (caller: TestUser) => endpoint.callerUrl?.(getCtx(), caller) ?? endpoint.url;
      it(`answers 403 without ${named}`, async () => {
        const caller = await userWithoutPermissions(getCtx());
        const res = await request(caller.headers, await urlFor(caller));
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe('ForbiddenError');
      });

      it(`answers 403 when ${named} ${permissions.length > 1 ? 'are' : 'is'} revoked by override`, async () => {
        const caller = await createUser(getCtx().container, {
          role: 'admin',
          revokedPermissions: [...permissions],
        });
        expect((await request(caller.headers, await urlFor(caller))).statusCode).toBe(403);
      });
    }

    if (endpoint.otherDepartmentUrl) {
      const otherDepartmentUrl = endpoint.otherDepartmentUrl;
      it("answers 404 for another department's resource", async () => {
        const caller = await createUser(getCtx().container, { role: 'dept_head' });
        const url = await otherDepartmentUrl(getCtx(), caller);
        const res = await request(caller.headers, url);
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toBe('NotFoundError');
      });
    }
  });
}
