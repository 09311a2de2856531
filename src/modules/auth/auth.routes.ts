import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, OkResponse, TokenResponse } from '../../core/http/schemas.js';
import {
  AuthResponse,
  ForgotPasswordBody,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
} from './auth.schemas.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  rateLimitPerMin: number;
}

const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (
  app,
  { auth, rateLimitPerMin },
) => {
  app.post('/auth/register', {
    schema: {
      tags,
      operationId: 'registerUser',
      body: RegisterBody,
      response: { 201: AuthResponse, ...errorResponses(409, 422, 429) },
    },
    config: { auth: 'none', rateLimitPerMin },
    handler: async (request, reply) => reply.status(201).send(await auth.register(request.body)),
  });

  app.post('/auth/login', {
    schema: {
      tags,
      operationId: 'loginUser',
      body: LoginBody,
      response: { 200: AuthResponse, ...errorResponses(401, 422, 429) },
    },
    config: { auth: 'none', rateLimitPerMin, audit: { action: 'login', entityType: 'auth' } },
    handler: async (request) => {
      const result = await auth.login(request.body);
      request.auditUserId = result.user.id;
      return result;
    },
  });

  app.post('/auth/refresh', {
    schema: { tags, operationId: 'refreshToken', response: { 200: TokenResponse, ...errorResponses(401) } },
    config: { auth: 'user', audit: false },
    handler: async (request) => auth.refresh(requireActor(request)),
  });

  app.post('/auth/forgot-password', {
    schema: {
      tags,
      operationId: 'forgotPassword',
      body: ForgotPasswordBody,
      response: { 200: OkResponse, ...errorResponses(422, 429) },
    },
    config: { auth: 'none', rateLimitPerMin },
    handler: async (request) => auth.forgotPassword(request.body.email),
  });

  app.post('/auth/reset-password', {
    schema: {
      tags,
      operationId: 'resetPassword',
      body: ResetPasswordBody,
      response: { 200: OkResponse, ...errorResponses(422, 429) },
    },
    config: { auth: 'none', rateLimitPerMin },
    handler: async (request) => auth.resetPassword(request.body),
  });
};
