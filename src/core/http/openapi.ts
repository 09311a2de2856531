import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors/app-errors.js';
import { docsTheme } from './docs-theme.js';
import { API_DESCRIPTION } from './i18n/common.js';
import { OPERATION_DOCS, TAG_DOCS } from './i18n/index.js';
import { LANGUAGES, type Language } from './i18n/types.js';
import { localizeSpec } from './openapi-localize.js';
import { completeDocument, withCommonErrors } from './openapi-responses.js';

export { localizeSpec } from './openapi-localize.js';

export const API_PREFIX = '/api/v1';

type JsonObject = Record<string, unknown>;

/** The entries of the explorer's language selector, in the order shown. */
const DOC_LANGUAGES: ReadonlyArray<{ lang: Language; name: string }> = [
  { lang: 'en', name: 'English' },
  { lang: 'uk', name: 'Українська' },
  { lang: 'ru', name: 'Русский' },
];

/**
 * Registers the OpenAPI description and the explorer at /docs.
 * Summaries and descriptions come from the i18n tables by operationId, field
 * descriptions by their English text, so `/docs/json?lang=ru|uk` is the same
 * document in another language. The common error responses, every response
 * description and an example per body are added centrally here.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Assistant Orchestration Service', version, description: API_DESCRIPTION.en },
      servers: [{ url: API_PREFIX }],
      tags: Object.entries(TAG_DOCS).map(([name, text]) => ({ name, description: text.en })),
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    // Shared schemas keep their $id as component name (ErrorEnvelope, not def-0).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) || `def-${i}`,
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
      else {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        transformed.response = withCommonErrors(transformed, route.config, methods);
      }
      return { schema: transformed as typeof schema, url: url.slice(API_PREFIX.length) || '/' };
    },
    transformObject: (documentObject) =>
      completeDocument((documentObject as { openapiObject: JsonObject }).openapiObject),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Our stylesheet and script (contrast, labels, ?lang=), served from /docs/static/theme/.
    theme: docsTheme(DOC_LANGUAGES),
    uiConfig: {
      docExpansion: 'list',
      // Off: the accessibility test (docs.browser.test.ts) checks the page this way.
      deepLinking: false,
      // Readable highlighted code in light and dark mode (contrast of at least 4.5:1).
      syntaxHighlight: { activate: true, theme: 'tomorrow-night' },
      // The signed-in token survives a reload of the explorer.
      persistAuthorization: true,
      // No badge from the public validator: the page loads nothing from other sites (docs/security.md).
      validatorUrl: null,
      // The top bar's definition selector doubles as the language switch.
      // The first entry (English) is selected on load.
      urls: DOC_LANGUAGES.map(({ lang, name }) => ({ url: `/docs/json?lang=${lang}`, name })),
    },
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
