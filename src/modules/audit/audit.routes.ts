import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AuditPage, ListAuditQuery, ListUserAuditQuery } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';

const tags = ['audit'];

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get('/audit', {
    schema: {
      tags,
      operationId: 'listAuditLogs',
      querystring: ListAuditQuery,
      response: { 200: AuditPage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', permission: 'canViewAudit' },
    handler: async (request) => audit.list(requireActor(request), request.query),
  });

  app.get('/users/:id/audit', {
    schema: {
      tags,
      operationId: 'listUserAudit',
      params: IdParams,
      querystring: ListUserAuditQuery,
      response: { 200: AuditPage, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canViewAudit' },
    handler: async (request) => audit.listForUser(requireActor(request), request.params.id, request.query),
  });
};
