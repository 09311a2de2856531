import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors/app-errors.js';
import { OPERATION_DOCS, TAG_DOCS } from './i18n/index.js';
import { LANGUAGES, type Language } from './i18n/types.js';

export const API_PREFIX = '/api/v1';

type JsonObject = Record<string, unknown>;

/**
 * Registers the OpenAPI description and the explorer at /docs.
 * Summaries and descriptions come from the i18n tables by operationId, so
 * `/docs/json?lang=ru|uk` is the same document in another language.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Assistant Orchestration Service',
        version,
        description: 'Company assistant back end: knowledge, approvals, channels.',
      },
      servers: [{ url: API_PREFIX }],
      tags: Object.entries(TAG_DOCS).map(([name, text]) => ({ name, description: text.en })),
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: ({ schema, url, route }) => {
      const operationId = (schema as JsonObject | undefined)?.operationId as string | undefined;
      const text = operationId ? OPERATION_DOCS[operationId]?.en : undefined;
      const transformed: JsonObject = { ...(schema as JsonObject) };
      if (text) {
        transformed.summary = text.summary;
        transformed.description = text.description;
      }
      if (route.config?.auth === 'user') transformed.security = [{ bearerAuth: [] }];
      if (!url.startsWith(API_PREFIX)) transformed.hide = true;
      return { schema: transformed as typeof schema, url: url.slice(API_PREFIX.length) || '/' };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    transformSpecification: (spec, request) => {
      const lang = ((request.query as JsonObject).lang as string | undefined) ?? 'en';
      if (!(LANGUAGES as readonly string[]).includes(lang)) {
        throw new ValidationError([
          { field: 'querystring.lang', message: `must be one of ${LANGUAGES.join(', ')}` },
        ]);
      }
      return localizeSpec(spec as JsonObject, lang as Language);
    },
  });
}

/** Replaces every operation's summary and description, and the tag descriptions, with `lang`'s text. */
export function localizeSpec(spec: JsonObject, lang: Language): JsonObject {
  const paths = (spec.paths ?? {}) as Record<string, Record<string, JsonObject>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const text = OPERATION_DOCS[operation.operationId as string]?.[lang];
      if (!text) continue;
      operation.summary = text.summary;
      operation.description = text.description;
    }
  }
  const tags = (spec.tags ?? []) as Array<{ name: string; description?: string }>;
  for (const tag of tags) {
    const text = TAG_DOCS[tag.name]?.[lang];
    if (text) tag.description = text;
  }
  return spec;
}
