import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { CreateRoleBody, ListRolesQuery, RolePage, RoleResponse, UpdateRoleBody } from './roles.schemas.js';
import type { RolesService } from './roles.service.js';

const tags = ['roles'];

export const rolesRoutes: FastifyPluginAsyncTypebox<{ roles: RolesService }> = async (app, { roles }) => {
  app.get('/roles', {
    schema: {
      tags,
      operationId: 'listRoles',
      querystring: ListRolesQuery,
      response: { 200: RolePage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', permission: 'canViewRoles' },
    handler: async (request) => roles.list(requireActor(request), request.query),
  });

  app.post('/roles', {
    schema: {
      tags,
      operationId: 'createRole',
      body: CreateRoleBody,
      response: { 201: RoleResponse, ...errorResponses(401, 403, 409, 422) },
    },
    config: { auth: 'user', permission: 'canManageRoles' },
    handler: async (request, reply) =>
      reply.status(201).send(await roles.create(requireActor(request), request.body)),
  });

  app.get('/roles/:id', {
    schema: {
      tags,
      operationId: 'getRole',
      params: IdParams,
      response: { 200: RoleResponse, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canViewRoles' },
    handler: async (request) => roles.get(requireActor(request), request.params.id),
  });

  app.patch('/roles/:id', {
    schema: {
      tags,
      operationId: 'updateRole',
      params: IdParams,
      body: UpdateRoleBody,
      response: { 200: RoleResponse, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { auth: 'user', permission: 'canManageRoles' },
    handler: async (request) => roles.update(requireActor(request), request.params.id, request.body),
  });

  app.delete('/roles/:id', {
    schema: {
      tags,
      operationId: 'deleteRole',
      params: IdParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { auth: 'user', permission: 'canManageRoles' },
    handler: async (request, reply) => {
      await roles.delete(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
};
