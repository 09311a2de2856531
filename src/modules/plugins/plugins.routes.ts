import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Permission } from '../../core/auth/permissions.js';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  InstallPluginBody,
  ListNamespacePluginsQuery,
  ListPluginsQuery,
  NamespacePlugin,
  NamespacePluginPage,
  NamespacePluginParams,
  PluginPage,
  UpdatePluginBody,
} from './plugins.schemas.js';
import type { PluginsService } from './plugins.service.js';

const tags = ['plugins'];
/** Either permission manages a namespace's plugins. */
const permission: readonly Permission[] = ['canManagePlugins', 'canManageNamespaces'];
const audit = { entityType: 'namespace-plugins' };

export const pluginsRoutes: FastifyPluginAsyncTypebox<{ plugins: PluginsService }> = async (
  app,
  { plugins },
) => {
  app.get('/plugins', {
    schema: {
      tags,
      operationId: 'listPlugins',
      querystring: ListPluginsQuery,
      response: { 200: PluginPage, ...errorResponses(401, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => plugins.catalog(request.query),
  });

  app.get('/namespaces/:id/plugins', {
    schema: {
      tags,
      operationId: 'listNamespacePlugins',
      params: IdParams,
      querystring: ListNamespacePluginsQuery,
      response: { 200: NamespacePluginPage, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission },
    handler: async (request) =>
      plugins.listOfNamespace(requireActor(request), request.params.id, request.query),
  });

  app.get('/namespaces/:id/plugins/:pluginId', {
    schema: {
      tags,
      operationId: 'getNamespacePlugin',
      params: NamespacePluginParams,
      response: { 200: NamespacePlugin, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission },
    handler: async (request) =>
      plugins.getOfNamespace(requireActor(request), request.params.id, request.params.pluginId),
  });

  app.post('/namespaces/:id/plugins/:pluginId', {
    schema: {
      tags,
      operationId: 'installNamespacePlugin',
      params: NamespacePluginParams,
      body: InstallPluginBody,
      response: { 200: NamespacePlugin, 201: NamespacePlugin, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission, audit },
    handler: async (request, reply) => {
      const { plugin, created } = await plugins.install(
        requireActor(request),
        request.params.id,
        request.params.pluginId,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(plugin);
    },
  });

  app.patch('/namespaces/:id/plugins/:pluginId', {
    schema: {
      tags,
      operationId: 'updateNamespacePlugin',
      params: NamespacePluginParams,
      body: UpdatePluginBody,
      response: { 200: NamespacePlugin, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission, audit },
    handler: async (request) =>
      plugins.update(requireActor(request), request.params.id, request.params.pluginId, request.body),
  });

  app.delete('/namespaces/:id/plugins/:pluginId', {
    schema: {
      tags,
      operationId: 'disableNamespacePlugin',
      params: NamespacePluginParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission, audit },
    handler: async (request, reply) => {
      await plugins.disable(requireActor(request), request.params.id, request.params.pluginId);
      return reply.status(204).send(null);
    },
  });
};
