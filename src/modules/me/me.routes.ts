import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ValidationError } from '../../core/errors/app-errors.js';
import { bufferStream, describeForm, readMultipartForm } from '../../core/http/multipart.js';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, OkResponse, TokenResponse } from '../../core/http/schemas.js';
import { AVATAR_MAX_BYTES } from './avatar-storage.js';
import { AvatarResponse, ChangePasswordBody, MeResponse, UpdateMeBody } from './me.schemas.js';
import type { MeService } from './me.service.js';

const tags = ['me'];

export const meRoutes: FastifyPluginAsyncTypebox<{ me: MeService }> = async (app, { me }) => {
  app.get('/me', {
    schema: { tags, operationId: 'getMe', response: { 200: MeResponse, ...errorResponses(401) } },
    config: { auth: 'user' },
    handler: async (request) => me.get(requireActor(request)),
  });

  app.patch('/me', {
    schema: {
      tags,
      operationId: 'updateMe',
      body: UpdateMeBody,
      response: { 200: MeResponse, ...errorResponses(401, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'users', action: 'update-me' } },
    handler: async (request) => me.update(requireActor(request), request.body),
  });

  app.post('/me/change-password', {
    schema: {
      tags,
      operationId: 'changePassword',
      body: ChangePasswordBody,
      response: { 200: TokenResponse, ...errorResponses(401, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'users', action: 'change-password' } },
    handler: async (request) => me.changePassword(requireActor(request), request.body),
  });

  app.post('/me/logout-all', {
    schema: { tags, operationId: 'logoutAll', response: { 200: OkResponse, ...errorResponses(401) } },
    config: { auth: 'user', audit: { entityType: 'users', action: 'logout-all' } },
    handler: async (request) => me.logoutAll(requireActor(request)),
  });

  app.post('/me/avatar', {
    schema: {
      tags,
      operationId: 'uploadAvatar',
      consumes: ['multipart/form-data'],
      response: { 200: AvatarResponse, ...errorResponses(400, 401, 413, 415, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'users', action: 'update-avatar' } },
    handler: async (request) => {
      const actor = requireActor(request);
      const form = await readMultipartForm(request, {
        maxBytes: AVATAR_MAX_BYTES,
        tooLargeMessage: `Avatar is larger than 2 MB (${AVATAR_MAX_BYTES} bytes)`,
        store: bufferStream,
      });
      if (!form.file)
        throw new ValidationError([{ field: 'body.file', message: 'an image file is required' }]);
      request.auditChanges = describeForm(form);
      return me.setAvatar(actor, form.file.content);
    },
  });

  app.delete('/me/avatar', {
    schema: {
      tags,
      operationId: 'deleteAvatar',
      response: { 204: { type: 'null' }, ...errorResponses(401) },
    },
    config: { auth: 'user', audit: { entityType: 'users', action: 'delete-avatar' } },
    handler: async (request, reply) => {
      await me.deleteAvatar(requireActor(request));
      return reply.status(204).send(null);
    },
  });
};
