import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { BaseAdapter } from '@bull-board/api/dist/queueAdapters/base.js';
import type { HTTPStatus } from '@bull-board/api/dist/types.js';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError, UnauthorizedError } from '../../core/errors/app-errors.js';
import { envelope } from '../../core/errors/error-handler.js';
import type { TokenCookie } from '../../core/http/route-config.js';
import { type AnyQueueDriver, QUEUE_NAMES } from '../../core/queue/index.js';
import { QUEUE_BOARD_PATH } from './admin.service.js';
import { EmbeddedBoardAdapter } from './embedded-board-adapter.js';

const AUDITED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One bull-board queue per queue name: BullMQ's own adapter on Redis, ours on the embedded driver. */
function boardQueues(queue: AnyQueueDriver): BaseAdapter[] {
  if (queue.kind === 'bullmq') return queue.bullQueues().map((bull) => new BullMQAdapter(bull));
  return QUEUE_NAMES.map((name) => new EmbeddedBoardAdapter(queue, name));
}

/** The audit entry of a dashboard action: `retry`, `clean`, `pause`… on the queue named in the URL. */
function auditFor(route: RouteOptions) {
  const methods = [route.method].flat().map(String);
  if (!methods.some((method) => AUDITED_METHODS.has(method))) return false as const;
  const literal = route.url.split('/').filter((segment) => segment && !segment.startsWith(':'));
  return { entityType: 'queue', idParam: 'queueName', action: literal.at(-1) ?? 'update' };
}

/** The console's sign-in page, which opens a dashboard session and comes back to `next`. */
const CONSOLE_SIGN_IN = '/console/#/login';

/**
 * A browser opening a dashboard page without a session (none yet, or expired)
 * is sent to the console's sign-in, which brings it back; API clients (no
 * text/html in Accept) and every other error keep the JSON envelope, which the
 * plugin's error handler writes (rethrowing hands the error to it).
 */
function signInRedirect(error: Error, request: FastifyRequest, reply: FastifyReply) {
  const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
  if (!(error instanceof UnauthorizedError) || !wantsPage) throw error;
  return reply.redirect(`${CONSOLE_SIGN_IN}?next=${encodeURIComponent(request.url)}`, 302);
}

/**
 * The queue dashboard (bull-board) at /admin/queues, for P:canEditSettings.
 * bull-board registers its own routes (page, static files, its JSON API), so
 * every route added inside this plugin is given the same config here: signed
 * in, the permission, the session cookie as an alternative to the bearer
 * header, and an audit entry per action (retry, clean…). Errors leave in the
 * API's envelope, except a browser's page request without a session, which
 * is redirected to the console's sign-in.
 */
export const queueBoardPlugin: FastifyPluginAsync<{ queue: AnyQueueDriver; cookie: TokenCookie }> = async (
  app,
  { queue, cookie },
) => {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: boardQueues(queue),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Queues' } },
  });
  // After createBullBoard, which installs bull-board's own handler.
  serverAdapter.setErrorHandler((error) => {
    if (error instanceof AppError) {
      const body = envelope(error.statusCode, error.name, error.message, error.details);
      return { status: error.statusCode as HTTPStatus, body };
    }
    return { status: 500, body: envelope(500, 'InternalServerError', 'Internal server error') };
  });
  app.addHook('onRoute', (route) => {
    route.config = {
      ...route.config,
      auth: 'user',
      permission: 'canEditSettings',
      tokenCookie: cookie,
      audit: auditFor(route),
    };
    route.errorHandler = signInRedirect;
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
};
