import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { describeMultipartFile } from '../../core/audit/audit-hook.js';
import { PayloadTooLargeError, ValidationError } from '../../core/errors/app-errors.js';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, OkResponse } from '../../core/http/schemas.js';
import { TokenResponse } from '../auth/auth.schemas.js';
import { AVATAR_MAX_BYTES } from './avatar-storage.js';
import { AvatarResponse, ChangePasswordBody, MeResponse } from './me.schemas.js';
import type { MeService } from './me.service.js';

const tags = ['me'];

export const meRoutes: FastifyPluginAsyncTypebox<{ me: MeService }> = async (app, { me }) => {
  app.get('/me', {
    schema: { tags, operationId: 'getMe', response: { 200: MeResponse, ...errorResponses(401) } },
    config: { auth: 'user' },
    handler: async (request) => me.get(requireActor(request)),
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
      response: { 200: AvatarResponse, ...errorResponses(401, 413, 415, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'users', action: 'update-avatar' } },
    handler: async (request) => {
      const actor = requireActor(request);
      const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
      if (!file) throw new ValidationError([{ field: 'body.file', message: 'an image file is required' }]);
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new PayloadTooLargeError('Avatar is larger than 2 MB');
        }
        throw error;
      }
      request.auditChanges = describeMultipartFile(file, bytes.length);
      return me.setAvatar(actor, bytes);
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
