import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { RatedReply, RateReplyBody } from './feedback.schemas.js';
import type { FeedbackService } from './feedback.service.js';

const tags = ['conversations'];

export const feedbackRoutes: FastifyPluginAsyncTypebox<{ feedback: FeedbackService }> = async (
  app,
  { feedback },
) => {
  // Beside the web chat's own routes: the literal `web` segment wins over `/conversations/:id`.
  app.post('/conversations/web/messages/:id/feedback', {
    schema: {
      tags,
      operationId: 'rateWebReply',
      params: IdParams,
      body: RateReplyBody,
      response: { 200: RatedReply, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'messages', action: 'rate' } },
    handler: async (request) => feedback.rateWebReply(requireActor(request), request.params.id, request.body),
  });
};
