import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

const COMMON: Options = { allErrors: true, useDefaults: true, removeAdditional: true, strict: false };

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * JSON bodies are validated as sent (a number is not a string), while query
 * strings, params and headers, which arrive as text, are coerced. Every
 * failing field is reported, not only the first.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = createAjv({ coerceTypes: false });
  const coercing = createAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as FastifySchema & object),
  );
}
