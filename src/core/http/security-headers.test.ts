import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { AVATAR_URL_PREFIX } from './user-fields.js';

// A stand-in console build: the headers do not depend on what Vite wrote.
const built = mkdtempSync(path.join(tmpdir(), 'aos-console-csp-'));
mkdirSync(path.join(built, 'assets'));
writeFileSync(path.join(built, 'index.html'), '<!doctype html><title>console</title>');
writeFileSync(path.join(built, 'assets', 'index-abc123.js'), 'console.log(1)');
afterAll(() => rmSync(built, { recursive: true, force: true }));

const ctx = useTestApp({ CONSOLE_DIR: built });
let admin: TestUser;
beforeAll(async () => {
  admin = await createUser(ctx.container, { role: 'admin' });
});

type Headers = Record<string, string | string[] | number | undefined>;

/** The CSP as a map of directive → sources. */
function cspOf(headers: Headers): Map<string, string[]> {
  const text = String(headers['content-security-policy'] ?? '');
  return new Map(
    text
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

/** The headers every response carries, whatever its area. */
function expectBaseHeaders(headers: Headers) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(cspOf(headers).get('frame-ancestors')).toEqual(["'none'"]);
  expect(cspOf(headers).get('object-src')).toEqual(["'none'"]);
}

/** The strict policy of the API and of served documents: nothing loads, nothing runs, a sandbox. */
function expectLockedDown(headers: Headers) {
  expectBaseHeaders(headers);
  const csp = cspOf(headers);
  expect(csp.get('default-src')).toEqual(["'none'"]);
  expect(csp.get('sandbox')).toEqual([]);
  expect(csp.has('script-src')).toBe(false);
}

describe('security headers', () => {
  it('are on an API answer and on its errors: 401, 404, 405, 422 and a router error', async () => {
    const answers = await Promise.all([
      ctx.app.inject({ url: '/api/v1/me', headers: admin.headers }),
      ctx.app.inject({ url: '/api/v1/me' }),
      ctx.app.inject({ url: '/api/v1/nothing-here' }),
      ctx.app.inject({ method: 'TRACE', url: '/api/v1/me' }),
      ctx.app.inject({ url: '/api/v1/users?limit=0', headers: admin.headers }),
      ctx.app.inject({ url: '/api/v1/users/%ZZ', headers: admin.headers }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 405, 422, 400]);
    for (const res of answers) expectLockedDown(res.headers);
  });

  it('sandbox a generated HTML or Markdown document', async () => {
    const namespace = await createNamespace(ctx.container, { departmentId: admin.user.departmentId });
    const template = await ctx.container.documentTemplates.repositories.templates.insert({
      namespaceId: namespace.id,
      departmentId: admin.user.departmentId,
      name: 'Letter',
      templateBody: '# Letter\n\nDear {{name}}',
      variables: [{ name: 'name', label: 'Name', type: 'string', required: false, default: null }],
    });
    for (const outputFormat of ['html', 'md']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/document-templates/${template.id}/generate`,
        headers: admin.headers,
        payload: { input: { name: '<script>alert(1)</script>' }, preview: true, outputFormat },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/(html|markdown)/);
      expectLockedDown(res.headers);
    }
  });

  it('are on an avatar file, which may not be framed or sniffed', async () => {
    const file = 'headers-test.png';
    writeFileSync(path.join(ctx.container.me.avatarDir, file), Buffer.from('89504e470d0a1a0a', 'hex'));
    const res = await ctx.app.inject({ url: `${AVATAR_URL_PREFIX}${file}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expectLockedDown(res.headers);
  });

  it('give the console its own files, fetch and sockets to this origin, and nothing inline', async () => {
    for (const url of ['/console/', '/console/assets/index-abc123.js', '/console/assets/nope.js']) {
      const res = await ctx.app.inject({ url });
      expectBaseHeaders(res.headers);
      const csp = cspOf(res.headers);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.has('sandbox')).toBe(false);
    }
  });

  it('let Swagger UI at /docs run its own scripts and inline styles, and nothing from elsewhere', async () => {
    for (const url of ['/docs/', '/docs/json', '/docs/static/swagger-initializer.js']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expectBaseHeaders(res.headers);
      const csp = cspOf(res.headers);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
    }
  });

  it('give the queue dashboard its own policy, its refusal included', async () => {
    const res = await ctx.app.inject({ url: '/admin/queues' });
    expect(res.statusCode).toBe(401);
    expectBaseHeaders(res.headers);
    expect(cspOf(res.headers).get('base-uri')).toEqual(["'self'"]);
    expect(cspOf(res.headers).get('script-src')).toEqual(["'self'"]);
  });
});
