/** Path of the committed console/src/api/schema.d.ts. */
export const SCHEMA_FILE: string;
/** The text of schema.d.ts for an OpenAPI document (what scripts/gen-console-api.mjs writes). */
export function renderConsoleSchema(spec: object): Promise<string>;
