const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID, the form of every identifier (docs/api.md). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
