import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { describeOverrideKey, overrideKeyOfBody, overrideKeyOfParam } from './override-keys.js';
import type { UserOverridesService } from './user-overrides.service.js';
import { EffectiveAccessResponse, OverrideBody, OverrideParams } from './users.schemas.js';

const tags = ['users'];
const permission = 'canManageUsers';
const response = { 200: EffectiveAccessResponse, ...errorResponses(401, 403, 404, 422) };

/** Grants and revokes of permissions and departments; each answers the user's new effective access. */
export const userOverridesRoutes: FastifyPluginAsyncTypebox<{ overrides: UserOverridesService }> = async (
  app,
  { overrides },
) => {
  app.post('/users/:id/permissions/grant', {
    schema: { tags, operationId: 'grantUserAccess', params: IdParams, body: OverrideBody, response },
    config: { auth: 'user', permission, audit: { action: 'grant' } },
    handler: async (request) =>
      overrides.grant(requireActor(request), request.params.id, overrideKeyOfBody(request.body)),
  });

  app.post('/users/:id/permissions/revoke', {
    schema: { tags, operationId: 'revokeUserAccess', params: IdParams, body: OverrideBody, response },
    config: { auth: 'user', permission, audit: { action: 'revoke' } },
    handler: async (request) =>
      overrides.revoke(requireActor(request), request.params.id, overrideKeyOfBody(request.body)),
  });

  app.delete('/users/:id/permissions/grant/:permission', {
    schema: { tags, operationId: 'removeUserGrant', params: OverrideParams, response },
    config: { auth: 'user', permission, audit: { action: 'remove-grant' } },
    handler: async (request) => {
      const key = overrideKeyOfParam(request.params.permission);
      request.auditChanges = describeOverrideKey(key);
      return overrides.removeGrant(requireActor(request), request.params.id, key);
    },
  });

  app.delete('/users/:id/permissions/revoke/:permission', {
    schema: { tags, operationId: 'removeUserRevoke', params: OverrideParams, response },
    config: { auth: 'user', permission, audit: { action: 'remove-revoke' } },
    handler: async (request) => {
      const key = overrideKeyOfParam(request.params.permission);
      request.auditChanges = describeOverrideKey(key);
      return overrides.removeRevoke(requireActor(request), request.params.id, key);
    },
  });
};
