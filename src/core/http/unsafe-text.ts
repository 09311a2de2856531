/**
 * Text PostgreSQL cannot store: a NUL character (refused in text and jsonb)
 * or a UTF-16 surrogate without its partner (refused in jsonb, silently
 * mangled in text). Matched per code unit, so no `u` flag.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this must find.
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** A request's failing fields are listed up to this many; the rest add nothing for the caller. */
const MAX_REPORTED = 20;

/** `text` without NUL characters and unpaired surrogates. */
export function stripUnsafeText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, '') : text;
}

function isWalkable(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/**
 * The dotted paths (`body.settings.greeting`, `querystring.search`) of every
 * string, and every object key, under `value` that holds unsafe text. Walks
 * iteratively, so a deeply nested body cannot exhaust the stack.
 */
export function findUnsafeText(value: unknown, root: string): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (UNSAFE.test(current)) found.push(path);
      continue;
    }
    if (!isWalkable(current)) continue;
    for (const [key, item] of Object.entries(current)) {
      const itemPath = `${path}.${stripUnsafeText(key)}`;
      if (UNSAFE.test(key)) found.push(itemPath);
      stack.push([item, itemPath]);
    }
  }
  return found.slice(0, MAX_REPORTED);
}
