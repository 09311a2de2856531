import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import type { IntentTrustService } from './intent-trust.service.js';
import {
  Classification,
  ClassifyIntentBody,
  CreateIntentExampleBody,
  IntentExample,
  IntentExamplePage,
  IntentSummaryPage,
  IntentTrust,
  IntentTrustPage,
  ListIntentExamplesQuery,
  ListIntentsQuery,
  ListIntentTrustQuery,
  UpdateIntentTrustBody,
} from './intents.schemas.js';
import type { IntentsService } from './intents.service.js';

const tags = ['intents'];

export const intentsRoutes: FastifyPluginAsyncTypebox<{
  intents: IntentsService;
  trust: IntentTrustService;
}> = async (app, { intents, trust }) => {
  app.get('/intents', {
    schema: {
      tags,
      operationId: 'listIntents',
      querystring: ListIntentsQuery,
      response: { 200: IntentSummaryPage, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => intents.listIntents(requireActor(request), request.query),
  });

  app.get('/intents/examples', {
    schema: {
      tags,
      operationId: 'listIntentExamples',
      querystring: ListIntentExamplesQuery,
      response: { 200: IntentExamplePage, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces' },
    handler: async (request) => intents.listExamples(requireActor(request), request.query),
  });

  app.post('/intents/examples', {
    schema: {
      tags,
      operationId: 'createIntentExample',
      body: CreateIntentExampleBody,
      response: { 200: IntentExample, 201: IntentExample, ...errorResponses(401, 403, 404, 409, 422, 503) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces', audit: { entityType: 'intent_examples' } },
    handler: async (request, reply) => {
      const { example, created } = await intents.addExample(requireActor(request), request.body);
      return reply.status(created ? 201 : 200).send(example);
    },
  });

  app.delete('/intents/examples/:id', {
    schema: {
      tags,
      operationId: 'deleteIntentExample',
      params: IdParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces', audit: { entityType: 'intent_examples' } },
    handler: async (request, reply) => {
      await intents.deleteExample(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/intents/classify', {
    schema: {
      tags,
      operationId: 'classifyIntent',
      body: ClassifyIntentBody,
      response: { 200: Classification, ...errorResponses(401, 404, 422, 503) },
    },
    // A read: it changes nothing, so it leaves no audit entry.
    config: { auth: 'user', audit: false },
    handler: async (request) => intents.classify(requireActor(request), request.body),
  });

  app.get('/intents/trust', {
    schema: {
      tags,
      operationId: 'listIntentTrust',
      querystring: ListIntentTrustQuery,
      response: { 200: IntentTrustPage, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces' },
    handler: async (request) => trust.list(requireActor(request), request.query),
  });

  app.patch('/intents/trust/:id', {
    schema: {
      tags,
      operationId: 'updateIntentTrust',
      params: IdParams,
      body: UpdateIntentTrustBody,
      response: { 200: IntentTrust, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageNamespaces', audit: { entityType: 'intent_trust' } },
    handler: async (request) => trust.update(requireActor(request), request.params.id, request.body),
  });
};
