import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { NotFoundError, ServiceUnavailableError } from '../../core/errors/app-errors.js';
import { resolveConsolePath } from './console-files.js';

export interface ConsoleRoutesOptions {
  /** The directory `npm run build` writes the console to. */
  dir: string;
}

/** Where the console is served (its CSP is chosen by this prefix, app.ts). */
export const CONSOLE_PATH = '/console';

const NOT_BUILT =
  'The web console is not built: run `npm run build` (or `npm run build:console`), then restart the service';

/**
 * The approver web console at /console: static files of the Vite build,
 * public like /docs (the page itself holds no data; every API call it makes
 * carries the user's token). Hidden from the API description.
 */
export const consoleRoutes: FastifyPluginAsync<ConsoleRoutesOptions> = async (app, { dir }) => {
  const root = path.resolve(dir);
  // Serves nothing by itself: the routes below decide, so each has an explicit config.auth.
  await app.register(fastifyStatic, {
    root,
    serve: false,
    decorateReply: true,
    index: false,
    // The routes set Cache-Control themselves (the page: no-cache; hashed assets: immutable).
    cacheControl: false,
  });
  const schema = { hide: true, tags: ['console'] };
  const config = { auth: 'none' as const };

  const send = (rest: string, reply: FastifyReply) => {
    // Checked on each request, so a build made while the service runs is served without a restart.
    if (!existsSync(path.join(root, 'index.html'))) throw new ServiceUnavailableError(NOT_BUILT);
    const target = resolveConsolePath(root, rest);
    if (target.kind === 'missing') throw new NotFoundError(`No console file ${rest}`);
    if (target.kind === 'page') {
      // The page names hashed assets; it must never be cached, the assets may be forever.
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
    }
    const immutable = target.file.startsWith(`assets${path.sep}`);
    return reply
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .sendFile(target.file, root);
  };

  app.get(CONSOLE_PATH, { schema, config }, async (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`));
  app.get<{ Params: { '*': string } }>(`${CONSOLE_PATH}/*`, { schema, config }, async (request, reply) =>
    send(request.params['*'], reply),
  );
};
