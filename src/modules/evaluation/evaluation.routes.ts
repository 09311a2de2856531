import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import {
  CreateEvalCaseBody,
  EvalCase,
  EvalCasePage,
  EvalCaseParams,
  EvalRun,
  EvalRunPage,
  EvalRunParams,
  EvalRunSummary,
  ListQuery,
  NamespaceParams,
} from './evaluation.schemas.js';
import type { EvaluationService } from './evaluation.service.js';

const tags = ['evaluation'];
// The case or run is the audited entity (its id from the path, or from the created row), not the namespace.
const audit = { entityType: 'eval_cases', idParam: 'caseId' };
const manage = { auth: 'user', permission: 'canManageNamespaces' } as const;

/** The evaluation endpoints under `/namespaces/:id` (docs/evaluation.md), all P:canManageNamespaces. */
export const evaluationRoutes: FastifyPluginAsyncTypebox<{ evaluation: EvaluationService }> = async (
  app,
  { evaluation },
) => {
  app.post('/namespaces/:id/eval-cases', {
    schema: {
      tags,
      operationId: 'createEvalCase',
      params: NamespaceParams,
      body: CreateEvalCaseBody,
      response: { 201: EvalCase, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { ...manage, audit },
    handler: async (request, reply) =>
      reply
        .status(201)
        .send(await evaluation.createCase(requireActor(request), request.params.id, request.body)),
  });

  app.get('/namespaces/:id/eval-cases', {
    schema: {
      tags,
      operationId: 'listEvalCases',
      params: NamespaceParams,
      querystring: ListQuery,
      response: { 200: EvalCasePage, ...errorResponses(401, 403, 404, 422) },
    },
    config: manage,
    handler: async (request) => evaluation.listCases(requireActor(request), request.params.id, request.query),
  });

  app.delete('/namespaces/:id/eval-cases/:caseId', {
    schema: {
      tags,
      operationId: 'deleteEvalCase',
      params: EvalCaseParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: { ...manage, audit },
    handler: async (request, reply) => {
      await evaluation.deleteCase(requireActor(request), request.params.id, request.params.caseId);
      return reply.status(204).send(null);
    },
  });

  app.post('/namespaces/:id/eval-runs', {
    schema: {
      tags,
      operationId: 'startEvalRun',
      params: NamespaceParams,
      response: { 202: EvalRunSummary, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { ...manage, audit: { entityType: 'eval_runs', idParam: 'runId', action: 'create' } },
    handler: async (request, reply) =>
      reply.status(202).send(await evaluation.startRun(requireActor(request), request.params.id)),
  });

  app.get('/namespaces/:id/eval-runs', {
    schema: {
      tags,
      operationId: 'listEvalRuns',
      params: NamespaceParams,
      querystring: ListQuery,
      response: { 200: EvalRunPage, ...errorResponses(401, 403, 404, 422) },
    },
    config: manage,
    handler: async (request) => evaluation.listRuns(requireActor(request), request.params.id, request.query),
  });

  app.get('/namespaces/:id/eval-runs/:runId', {
    schema: {
      tags,
      operationId: 'getEvalRun',
      params: EvalRunParams,
      response: { 200: EvalRun, ...errorResponses(401, 403, 404, 422) },
    },
    config: manage,
    handler: async (request) =>
      evaluation.getRun(requireActor(request), request.params.id, request.params.runId),
  });
};
