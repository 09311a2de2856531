import { FIELD_TEXTS, OPERATION_DOCS, TAG_DOCS } from './i18n/index.js';
import type { FieldTexts, Language } from './i18n/types.js';
import { operationsOf, responseText } from './openapi-responses.js';

type JsonObject = Record<string, unknown>;

/** Keys whose value is a map of names (property names, paths, statuses), never a keyword. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'schemas',
  'paths',
  'responses',
  'content',
  'headers',
  'securitySchemes',
  'dependentSchemas',
]);

/** Keywords that hold data, not schema: an example body may well have a `description` field. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/**
 * Calls `visit` on every object of the document that carries a string
 * `description` (schemas, parameters, responses, tags, info), skipping
 * example and default values.
 */
export function forEachDescribed(node: unknown, visit: (owner: JsonObject) => void, isNameMap = false): void {
  if (Array.isArray(node)) {
    for (const item of node) forEachDescribed(item, visit);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as JsonObject;
  if (!isNameMap && typeof object.description === 'string') visit(object);
  for (const [key, value] of Object.entries(object)) {
    if (!isNameMap && DATA_KEYWORDS.has(key)) continue;
    forEachDescribed(value, visit, !isNameMap && NAME_MAPS.has(key));
  }
}

/** Replaces every description found in `texts` with its `lang` translation; unknown texts stay English. */
export function translateDescriptions(
  spec: JsonObject,
  lang: Exclude<Language, 'en'>,
  texts: FieldTexts,
): void {
  forEachDescribed(spec, (owner) => {
    const translated = texts[owner.description as string]?.[lang];
    if (translated) owner.description = translated;
  });
}

/**
 * The document in `lang`: every field, parameter and info description from
 * the field tables (keyed by the English text), operation summaries and
 * descriptions by operationId, response descriptions by operationId and
 * status, tag descriptions by tag name.
 */
export function localizeSpec(spec: JsonObject, lang: Language): JsonObject {
  if (lang !== 'en') translateDescriptions(spec, lang, FIELD_TEXTS);
  for (const operation of operationsOf(spec)) {
    const operationId = operation.operationId as string | undefined;
    const text = operationId ? OPERATION_DOCS[operationId]?.[lang] : undefined;
    if (text) {
      operation.summary = text.summary;
      operation.description = text.description;
    }
    const responses = (operation.responses ?? {}) as Record<string, JsonObject>;
    for (const [status, response] of Object.entries(responses)) {
      response.description = responseText(operationId, status, lang);
    }
  }
  const tags = (spec.tags ?? []) as Array<{ name: string; description?: string }>;
  for (const tag of tags) {
    const text = TAG_DOCS[tag.name]?.[lang];
    if (text) tag.description = text;
  }
  return spec;
}
