import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  Approval,
  ApprovalDetail,
  ApprovalPage,
  ApproveBody,
  BatchBody,
  BatchResult,
  EscalateBody,
  ListApprovalsQuery,
  RejectBody,
} from './approvals.schemas.js';
import type { ApprovalsService } from './approvals.service.js';

const tags = ['approvals'];

export const approvalsRoutes: FastifyPluginAsyncTypebox<{ approvals: ApprovalsService }> = async (
  app,
  { approvals },
) => {
  app.get('/approvals', {
    schema: {
      tags,
      operationId: 'listApprovals',
      querystring: ListApprovalsQuery,
      response: { 200: ApprovalPage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', permission: 'canApprove' },
    handler: async (request) => approvals.list(requireActor(request), request.query),
  });

  app.get('/approvals/:id', {
    schema: {
      tags,
      operationId: 'getApproval',
      params: IdParams,
      response: { 200: ApprovalDetail, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canApprove' },
    handler: async (request) => approvals.get(requireActor(request), request.params.id),
  });

  // The literal `batch` segment wins over `:id` in the router.
  app.post('/approvals/batch', {
    schema: {
      tags,
      operationId: 'batchDecideApprovals',
      body: BatchBody,
      response: { 200: BatchResult, ...errorResponses(401, 403, 422) },
    },
    // The service writes one entry per decision instead of one for the whole request.
    config: { auth: 'user', permission: 'canApprove', audit: false },
    handler: async (request) =>
      approvals.batch(requireActor(request), request.body.decisions, {
        ipAddress: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      }),
  });

  app.post('/approvals/:id/approve', {
    schema: {
      tags,
      operationId: 'approveApproval',
      params: IdParams,
      body: ApproveBody,
      response: { 200: Approval, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { auth: 'user', permission: 'canApprove' },
    handler: async (request) =>
      approvals.approve(requireActor(request), request.params.id, request.body ?? {}),
  });

  app.post('/approvals/:id/reject', {
    schema: {
      tags,
      operationId: 'rejectApproval',
      params: IdParams,
      body: RejectBody,
      response: { 200: Approval, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { auth: 'user', permission: 'canApprove' },
    handler: async (request) =>
      approvals.reject(requireActor(request), request.params.id, request.body ?? {}),
  });

  app.post('/approvals/:id/escalate', {
    schema: {
      tags,
      operationId: 'escalateApproval',
      params: IdParams,
      body: EscalateBody,
      response: { 200: Approval, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { auth: 'user', permission: 'canEscalate' },
    handler: async (request) => approvals.escalate(requireActor(request), request.params.id, request.body),
  });
};
