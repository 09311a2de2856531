import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderConsoleSchema, SCHEMA_FILE } from '../../../scripts/gen-console-api.mjs';
import { useTestApp } from '../../../test/app.js';
import { defaultConsoleDir, resolveConsolePath } from './console-files.js';

// A stand-in build: the serving rules do not depend on what Vite wrote.
const built = mkdtempSync(path.join(tmpdir(), 'aos-console-'));
mkdirSync(path.join(built, 'assets'));
writeFileSync(path.join(built, 'index.html'), '<!doctype html><title>console</title>');
writeFileSync(path.join(built, 'assets', 'index-abc123.js'), 'console.log(1)');
const empty = mkdtempSync(path.join(tmpdir(), 'aos-console-empty-'));
afterAll(() => {
  rmSync(built, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

describe('GET /console with a build', () => {
  const ctx = useTestApp({ CONSOLE_DIR: built });

  it('redirects /console to /console/ and serves the page there, uncached', async () => {
    const bare = await ctx.app.inject({ url: '/console' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/console/');
    const page = await ctx.app.inject({ url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<title>console</title>');
  });

  it('serves hashed assets with a long cache, without a token', async () => {
    const res = await ctx.app.inject({ url: '/console/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('answers the page for a client route and 404 in the envelope for a missing file', async () => {
    const route = await ctx.app.inject({ url: '/console/inbox' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toContain('text/html');
    const missing = await ctx.app.inject({ url: '/console/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('NotFoundError');
  });

  it('never serves a file outside the build', async () => {
    for (const url of [
      '/console/../package.json',
      '/console/%2e%2e/package.json',
      '/console/..%2fpackage.json',
    ]) {
      const res = await ctx.app.inject({ url });
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain('"dependencies"');
    }
  });

  it('keeps the console out of the API description', async () => {
    const spec = (await ctx.app.inject({ url: '/docs/json?lang=en' })).json();
    expect(Object.keys(spec.paths).some((p) => p.includes('console'))).toBe(false);
  });

  it('has a committed schema.d.ts generated from the current API description', async () => {
    const spec = (await ctx.app.inject({ url: '/docs/json?lang=en' })).json();
    const expected = await renderConsoleSchema(spec);
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    // A difference means a route changed: run `npm run gen:console-api` and commit the file.
    expect(
      firstDifference(committed, expected),
      'console/src/api/schema.d.ts is stale: run `npm run gen:console-api` and commit it',
    ).toBeNull();
  });
});

describe('GET /console without a build', () => {
  const ctx = useTestApp({ CONSOLE_DIR: empty });

  it('answers 503 saying to run the build', async () => {
    for (const url of ['/console/', '/console/assets/index.js']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('ServiceUnavailableError');
      expect(res.json().message).toContain('npm run build');
    }
  });
});

describe('console paths', () => {
  it('finds dist/console of the package from this folder', () => {
    expect(defaultConsoleDir()).toBe(path.resolve(import.meta.dirname, '../../../dist/console'));
  });

  it('resolves files, client routes and escapes', () => {
    expect(resolveConsolePath(built, '')).toEqual({ kind: 'page' });
    expect(resolveConsolePath(built, 'assets/index-abc123.js')).toEqual({
      kind: 'file',
      file: path.join('assets', 'index-abc123.js'),
    });
    expect(resolveConsolePath(built, 'approvals/123')).toEqual({ kind: 'page' });
    expect(resolveConsolePath(built, 'assets/missing.css')).toEqual({ kind: 'missing' });
    expect(resolveConsolePath(built, '../etc/passwd')).toEqual({ kind: 'missing' });
  });
});

/** The first line where two texts differ, with its number; null when they are equal. */
function firstDifference(actual: string, expected: string): string | null {
  if (actual === expected) return null;
  const a = actual.split('\n');
  const b = expected.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? a.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '')}, generated ${JSON.stringify(b[at] ?? '')}`;
}
