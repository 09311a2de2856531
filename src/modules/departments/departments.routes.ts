import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  CreateDepartmentBody,
  DepartmentPage,
  DepartmentResponse,
  ListDepartmentsQuery,
  UpdateDepartmentBody,
} from './departments.schemas.js';
import type { DepartmentsService } from './departments.service.js';

const tags = ['departments'];

export const departmentsRoutes: FastifyPluginAsyncTypebox<{ departments: DepartmentsService }> = async (
  app,
  { departments },
) => {
  app.get('/departments', {
    schema: {
      tags,
      operationId: 'listDepartments',
      querystring: ListDepartmentsQuery,
      response: { 200: DepartmentPage, ...errorResponses(401, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => departments.list(requireActor(request), request.query),
  });

  app.get('/departments/:id', {
    schema: {
      tags,
      operationId: 'getDepartment',
      params: IdParams,
      response: { 200: DepartmentResponse, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => departments.get(requireActor(request), request.params.id),
  });

  app.post('/departments', {
    schema: {
      tags,
      operationId: 'createDepartment',
      body: CreateDepartmentBody,
      response: { 201: DepartmentResponse, ...errorResponses(401, 403, 409, 422) },
    },
    config: { auth: 'user', permission: 'canManageDepartments' },
    handler: async (request, reply) =>
      reply.status(201).send(await departments.create(requireActor(request), request.body)),
  });

  app.patch('/departments/:id', {
    schema: {
      tags,
      operationId: 'updateDepartment',
      params: IdParams,
      body: UpdateDepartmentBody,
      response: { 200: DepartmentResponse, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageDepartments' },
    handler: async (request) => departments.update(requireActor(request), request.params.id, request.body),
  });

  app.post('/departments/:id/archive', {
    schema: {
      tags,
      operationId: 'archiveDepartment',
      params: IdParams,
      response: { 200: DepartmentResponse, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canArchiveDepartments', audit: { action: 'archive' } },
    handler: async (request) => departments.archive(requireActor(request), request.params.id),
  });
};
