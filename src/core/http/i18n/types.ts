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

export interface DocsArea {
  tags: TagDocs;
  operations: OperationDocs;
}
