import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the built console lives when CONSOLE_DIR is not set: `dist/console`
 * of the package, found by walking up from this file to package.json, so the
 * same answer holds when the service runs from `dist/` (`npm start`) and from
 * `src/` (`npm run dev`, tests).
 */
export function defaultConsoleDir(from = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'dist', 'console');
    if (path.dirname(dir) === dir) return path.resolve('dist', 'console');
  }
}

/** What a GET under /console answers: a file of the build, the page (for client routes), or nothing. */
export type ConsoleTarget = { kind: 'file'; file: string } | { kind: 'page' } | { kind: 'missing' };

/**
 * Resolves the wildcard part of `/console/<rest>` inside `root`. A path that
 * leaves the root, or names a file-like path that is absent, is missing; a
 * path without an extension is a client-side route and gets the page.
 */
export function resolveConsolePath(root: string, rest: string): ConsoleTarget {
  if (rest === '' || rest === 'index.html') return { kind: 'page' };
  const file = path.resolve(root, rest);
  if (!file.startsWith(root + path.sep)) return { kind: 'missing' };
  if (existsSync(file) && statSync(file).isFile()) return { kind: 'file', file: path.relative(root, file) };
  return path.extname(rest) ? { kind: 'missing' } : { kind: 'page' };
}
