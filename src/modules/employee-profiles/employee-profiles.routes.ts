import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import {
  EmployeeProfilePage,
  EmployeeProfileResponse,
  ListEmployeeProfilesQuery,
  UpdateEmployeeProfileBody,
  UserIdParams,
} from './employee-profiles.schemas.js';
import type { EmployeeProfilesService } from './employee-profiles.service.js';

const tags = ['employee-profiles'];

export const employeeProfilesRoutes: FastifyPluginAsyncTypebox<{
  profiles: EmployeeProfilesService;
}> = async (app, { profiles }) => {
  app.get('/employee-profiles', {
    schema: {
      tags,
      operationId: 'listEmployeeProfiles',
      querystring: ListEmployeeProfilesQuery,
      response: { 200: EmployeeProfilePage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => profiles.list(requireActor(request), request.query),
  });

  app.get('/employees/:userId/profile', {
    schema: {
      tags,
      operationId: 'getEmployeeProfile',
      params: UserIdParams,
      response: { 200: EmployeeProfileResponse, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => profiles.get(requireActor(request), request.params.userId),
  });

  app.patch('/employees/:userId/profile', {
    schema: {
      tags,
      operationId: 'updateEmployeeProfile',
      params: UserIdParams,
      body: UpdateEmployeeProfileBody,
      response: { 200: EmployeeProfileResponse, ...errorResponses(401, 403, 404, 422) },
    },
    // Own profile needs nothing; others need canManageEmployeeProfiles (checked in the service).
    config: { auth: 'user', audit: { entityType: 'employee-profiles', idParam: 'userId' } },
    handler: async (request) => profiles.update(requireActor(request), request.params.userId, request.body),
  });
};
