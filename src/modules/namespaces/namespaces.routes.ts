import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  CreateNamespaceBody,
  ListNamespacesQuery,
  Namespace,
  NamespacePage,
  UpdateNamespaceBody,
} from './namespaces.schemas.js';
import type { NamespacesService } from './namespaces.service.js';

const tags = ['namespaces'];
const audit = { entityType: 'namespaces' };

export const namespacesRoutes: FastifyPluginAsyncTypebox<{ namespaces: NamespacesService }> = async (
  app,
  { namespaces },
) => {
  app.get('/namespaces', {
    schema: {
      tags,
      operationId: 'listNamespaces',
      querystring: ListNamespacesQuery,
      response: { 200: NamespacePage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => namespaces.list(requireActor(request), request.query),
  });

  app.get('/namespaces/:id', {
    schema: {
      tags,
      operationId: 'getNamespace',
      params: IdParams,
      response: { 200: Namespace, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => namespaces.get(requireActor(request), request.params.id),
  });

  app.post('/namespaces', {
    schema: {
      tags,
      operationId: 'createNamespace',
      body: CreateNamespaceBody,
      response: { 201: Namespace, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces', audit },
    handler: async (request, reply) =>
      reply.status(201).send(await namespaces.create(requireActor(request), request.body)),
  });

  app.patch('/namespaces/:id', {
    schema: {
      tags,
      operationId: 'updateNamespace',
      params: IdParams,
      body: UpdateNamespaceBody,
      response: { 200: Namespace, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces', audit },
    handler: async (request) => namespaces.update(requireActor(request), request.params.id, request.body),
  });

  app.delete('/namespaces/:id', {
    schema: {
      tags,
      operationId: 'deleteNamespace',
      params: IdParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces', audit },
    handler: async (request, reply) => {
      await namespaces.delete(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
};
