import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  ApprovalChannelsBody,
  ApprovalChannelsResponse,
  ChannelIdentityList,
  ChannelIdentityResponse,
  ChannelParams,
  CreateLinkCodeBody,
  LinkCodeResponse,
  SetChannelIdentityBody,
  UserChannelParams,
} from './channel-identities.schemas.js';
import type { ChannelIdentitiesService } from './channel-identities.service.js';

/** Administrators' routes under /users/:id and the employee's own under /me. */
export const channelIdentitiesRoutes: FastifyPluginAsyncTypebox<{
  identities: ChannelIdentitiesService;
}> = async (app, { identities }) => {
  app.get('/users/:id/channel-identities', {
    schema: {
      tags: ['users'],
      operationId: 'listUserChannelIdentities',
      params: IdParams,
      response: { 200: ChannelIdentityList, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageUsers' },
    handler: async (request) => identities.list(requireActor(request), request.params.id),
  });

  app.put('/users/:id/channel-identities/:channel', {
    schema: {
      tags: ['users'],
      operationId: 'setUserChannelIdentity',
      params: UserChannelParams,
      body: SetChannelIdentityBody,
      response: { 200: ChannelIdentityResponse, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: {
      auth: 'user',
      permission: 'canManageUsers',
      audit: { entityType: 'users', action: 'set-channel-identity' },
    },
    handler: async (request) =>
      identities.set(
        requireActor(request),
        request.params.id,
        request.params.channel,
        request.body.channelUserId,
      ),
  });

  app.delete('/users/:id/channel-identities/:channel', {
    schema: {
      tags: ['users'],
      operationId: 'deleteUserChannelIdentity',
      params: UserChannelParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: {
      auth: 'user',
      permission: 'canManageUsers',
      audit: { entityType: 'users', action: 'delete-channel-identity' },
    },
    handler: async (request, reply) => {
      await identities.remove(requireActor(request), request.params.id, request.params.channel);
      return reply.status(204).send(null);
    },
  });

  app.get('/me/channel-identities', {
    schema: {
      tags: ['me'],
      operationId: 'listMyChannelIdentities',
      response: { 200: ChannelIdentityList, ...errorResponses(401) },
    },
    config: { auth: 'user' },
    handler: async (request) => identities.listMine(requireActor(request)),
  });

  app.put('/me/approval-channels', {
    schema: {
      tags: ['me'],
      operationId: 'setMyApprovalChannels',
      body: ApprovalChannelsBody,
      response: { 200: ApprovalChannelsResponse, ...errorResponses(401, 403, 422) },
    },
    config: {
      auth: 'user',
      permission: 'canApprove',
      audit: { entityType: 'users', action: 'set-approval-channels' },
    },
    handler: async (request) =>
      identities.setMyApprovalChannels(requireActor(request), request.body.channels),
  });

  app.delete('/me/channel-identities/:channel', {
    schema: {
      tags: ['me'],
      operationId: 'deleteMyChannelIdentity',
      params: ChannelParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'users', action: 'delete-channel-identity' } },
    handler: async (request, reply) => {
      await identities.removeMine(requireActor(request), request.params.channel);
      return reply.status(204).send(null);
    },
  });

  app.post('/me/channel-link-codes', {
    schema: {
      tags: ['me'],
      operationId: 'createChannelLinkCode',
      body: CreateLinkCodeBody,
      response: { 201: LinkCodeResponse, ...errorResponses(401, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'users', action: 'create-link-code' } },
    handler: async (request, reply) =>
      reply.status(201).send(await identities.createLinkCode(requireActor(request), request.body.channel)),
  });
};
