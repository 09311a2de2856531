import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { ValidationError } from '../errors/app-errors.js';
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from './unsafe-text.js';

// `verbose` puts the failing schema on each error, so the error handler can
// use its `errorMessage` or `description` instead of a raw pattern.
const COMMON: Options = {
  allErrors: true,
  useDefaults: true,
  strict: false,
  verbose: true,
};

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats.default(ajv);
  // An annotation, like `description`: the text people read when the schema it sits on fails.
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

/**
 * JSON bodies are validated as sent (a number is not a string), while query
 * strings, params and headers, which arrive as text, are coerced. Every
 * failing field is reported, not only the first. Nothing is stripped: body
 * and query schemas are closed (`additionalProperties: false`), so an
 * unknown property or query parameter is a 422 naming it, as the OpenAPI
 * description says.
 *
 * After the schemas, every string of the body, query string and path params
 * (keys included, at any depth, free-form objects too) is checked for text
 * PostgreSQL cannot store: a NUL character or an unpaired surrogate is a 422
 * naming the field, for every route at once.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = createAjv({ coerceTypes: false });
  const coercing = createAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as FastifySchema & object),
  );
  // preHandler, after the schemas: a request they refuse gets their answer (422 naming the field) first.
  app.addHook('preHandler', async (request) => {
    const parts: Array<[string, unknown]> = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ];
    const details = parts.flatMap(([context, value]) =>
      findUnsafeText(value, context).map((field) => ({ field, message: UNSAFE_TEXT_MESSAGE })),
    );
    if (details.length > 0) throw new ValidationError(details);
  });
}
