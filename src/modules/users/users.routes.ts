import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  CreateUserBody,
  EffectiveAccessResponse,
  ListUsersQuery,
  UpdateUserBody,
  UserPage,
  UserResponse,
} from './users.schemas.js';
import type { UsersService } from './users.service.js';

const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService }> = async (app, { users }) => {
  app.get('/users', {
    schema: {
      tags,
      operationId: 'listUsers',
      querystring: ListUsersQuery,
      response: { 200: UserPage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', permission: 'canViewAllUsers' },
    handler: async (request) => users.list(requireActor(request), request.query),
  });

  app.post('/users', {
    schema: {
      tags,
      operationId: 'createUser',
      body: CreateUserBody,
      response: { 201: UserResponse, ...errorResponses(401, 403, 409, 422) },
    },
    config: { auth: 'user', permission: 'canCreateUsers' },
    handler: async (request, reply) =>
      reply.status(201).send(await users.create(requireActor(request), request.body)),
  });

  app.get('/users/:id', {
    schema: {
      tags,
      operationId: 'getUser',
      params: IdParams,
      response: { 200: UserResponse, ...errorResponses(401, 403, 404, 422) },
    },
    // Self needs no permission; anyone else needs canViewAllUsers (checked in the service).
    config: { auth: 'user' },
    handler: async (request) => users.get(requireActor(request), request.params.id),
  });

  app.patch('/users/:id', {
    schema: {
      tags,
      operationId: 'updateUser',
      params: IdParams,
      body: UpdateUserBody,
      response: { 200: UserResponse, ...errorResponses(401, 403, 404, 409, 422) },
    },
    // Own name, phone and language need nothing; everything else needs canManageUsers (checked in the service).
    config: { auth: 'user' },
    handler: async (request) => users.update(requireActor(request), request.params.id, request.body),
  });

  app.delete('/users/:id', {
    schema: {
      tags,
      operationId: 'deactivateUser',
      params: IdParams,
      response: { 200: UserResponse, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { auth: 'user', permission: 'canManageUsers' },
    handler: async (request) => users.deactivate(requireActor(request), request.params.id),
  });

  app.get('/users/:id/effective-access', {
    schema: {
      tags,
      operationId: 'getUserEffectiveAccess',
      params: IdParams,
      response: { 200: EffectiveAccessResponse, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => users.effectiveAccess(requireActor(request), request.params.id),
  });
};
