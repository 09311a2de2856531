import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/http/schemas.js';
import { PermissionCatalogResponse } from './permissions.schemas.js';
import type { PermissionsService } from './permissions.service.js';

export const permissionsRoutes: FastifyPluginAsyncTypebox<{ permissions: PermissionsService }> = async (
  app,
  { permissions },
) => {
  app.get('/permissions', {
    schema: {
      tags: ['permissions'],
      operationId: 'listPermissions',
      response: { 200: PermissionCatalogResponse, ...errorResponses(401) },
    },
    config: { auth: 'user' },
    handler: async () => permissions.list(),
  });
};
