import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/http/schemas.js';
import { SIGNATURE_HEADER } from './signature.js';
import { HandshakeQuery, HandshakeResponse, WebhookAck, WebhookBody } from './webhook.schemas.js';
import type { WebhookService } from './webhook.service.js';

/** Largest webhook body taken; the platform's payloads are a few kilobytes. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** Channel A's webhook: the verification handshake and the inbound POST. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhook: WebhookService }> = async (
  app,
  { webhook },
) => {
  // The signature covers the exact bytes, so this plugin's JSON bodies stay raw
  // Buffers and the service parses them after the signature check (a body
  // that is not JSON then answers 400). The parser is scoped to this plugin.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.get('/chanA/webhook', {
    schema: {
      tags: ['channels'],
      operationId: 'verifyChanAWebhook',
      querystring: HandshakeQuery,
      response: {
        200: { content: { 'text/plain': { schema: HandshakeResponse } } },
        ...errorResponses(403),
      },
    },
    config: { auth: 'none' },
    handler: async (request, reply) => {
      const query = request.query;
      const challenge = webhook.verifyHandshake({
        mode: query['hub.mode'],
        token: query['hub.verify_token'],
        challenge: query['hub.challenge'],
      });
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  });

  app.post('/chanA/webhook', {
    bodyLimit: WEBHOOK_BODY_LIMIT,
    schema: {
      tags: ['channels'],
      operationId: 'receiveChanAWebhook',
      body: WebhookBody,
      response: { 200: WebhookAck, ...errorResponses(400, 401, 413, 415, 503) },
    },
    // The body schema documents the payload; the service reads the raw bytes itself.
    validatorCompiler: () => () => true,
    // Every platform callback would be an audit entry; the messages themselves are the record.
    config: { auth: 'none', audit: false },
    handler: async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers[SIGNATURE_HEADER];
      await webhook.receive(raw, typeof signature === 'string' ? signature : undefined, request.log);
      return { received: true as const };
    },
  });
};
