export const LANGUAGES = ['en', 'ru', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface OperationText {
  summary: string;
  description: string;
}

/** The summary and description of each operation, keyed by operationId, in every language. */
export type OperationDocs = Record<string, Record<Language, OperationText>>;

/** Tag descriptions in every language, keyed by tag name. */
export type TagDocs = Record<string, Record<Language, string>>;

/**
 * Russian and Ukrainian for the `description` strings of schemas (fields,
 * parameters), keyed by the English text the schema carries. The schemas keep
 * English; the served description swaps each text for its translation.
 */
export type FieldTexts = Record<string, { ru: string; uk: string }>;

/** Response descriptions that say more than the status's default text: operationId → status → text. */
export type ResponseDocs = Record<string, Record<number, Record<Language, string>>>;

/**
 * Hand-written examples for an operation where the generated one would be
 * silly (a login, "exactly one of" bodies). `request` replaces the request
 * body example, `response` the example of the success response.
 */
export interface OperationExample {
  request?: unknown;
  response?: unknown;
}

export interface DocsArea {
  tags: TagDocs;
  operations: OperationDocs;
  /** Translations of the area's schema descriptions (see FieldTexts). */
  fields?: FieldTexts;
  /** Per-operation response descriptions. */
  responses?: ResponseDocs;
  /** Per-operation example overrides, keyed by operationId. */
  examples?: Record<string, OperationExample>;
}
