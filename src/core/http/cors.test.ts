import { describe, expect, it } from 'vitest';
import { builtForFile, createTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';

const ORIGIN = 'https://console.example.com';
const EVIL = 'https://evil.example';

/** The same app three ways: CORS_ORIGIN unset, a list, and `*`. */
const off = builtForFile('cors off', () => createTestApp());
const listed = builtForFile('cors listed', () =>
  createTestApp({ CORS_ORIGIN: `${ORIGIN}, https://other.example.com` }),
);
const any = builtForFile('cors any', () => createTestApp({ CORS_ORIGIN: '*' }));

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

const preflight = (origin?: string) => ({
  method: 'OPTIONS' as const,
  url: '/api/v1/me',
  headers: {
    ...(origin ? { origin } : {}),
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization',
  },
});

describe('CORS off (CORS_ORIGIN unset, the default)', () => {
  it('adds no CORS header for any origin', async () => {
    const res = await off.app.inject({ url: '/api/v1/health', headers: { origin: ORIGIN } });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });

  it('answers a preflight 405 in the envelope, with Allow and no CORS header', async () => {
    const res = await off.app.inject(preflight(ORIGIN));
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PATCH');
    expect(res.json()).toEqual({
      error: 'MethodNotAllowedError',
      message: 'Method OPTIONS is not allowed on /api/v1/me',
      statusCode: 405,
    });
    expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('CORS for listed origins', () => {
  it('echoes a listed origin with credentials, and lets it read the file name, request id and retry headers', async () => {
    const res = await listed.app.inject({ url: '/api/v1/health', headers: { origin: ORIGIN } });
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers.vary)).toContain('Origin');
    expect(String(res.headers['access-control-expose-headers']).split(/,\s*/)).toEqual(
      expect.arrayContaining(['Content-Disposition', 'X-Generation-Id', 'X-Request-Id', 'Retry-After']),
    );
  });

  it('answers a listed origin’s preflight 204 with the methods and the headers asked for', async () => {
    const res = await listed.app.inject(preflight(ORIGIN));
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-headers']).toBe('authorization');
    expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
  });

  it('gives an unlisted origin no CORS header at all, its data still refused by the browser', async () => {
    const admin = await createUser(listed.container, { role: 'admin' });
    const res = await listed.app.inject({ url: '/api/v1/me', headers: { ...admin.headers, origin: EVIL } });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });

  it('answers a preflight without a listed Origin in the envelope (405 with Allow), not as plain text', async () => {
    for (const origin of [EVIL, undefined]) {
      const res = await listed.app.inject(preflight(origin));
      expect(res.statusCode).toBe(405);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ error: 'MethodNotAllowedError', statusCode: 405 });
      expect(corsHeaders(res.headers)).toEqual([]);
    }
  });

  it('answers a listed origin’s OPTIONS without Access-Control-Request-Method 204, not a plain-text 400', async () => {
    const res = await listed.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/me',
      headers: { origin: ORIGIN },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('answers a preflight to an unknown path 404 in the envelope', async () => {
    const res = await listed.app.inject({ ...preflight(EVIL), url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NotFoundError', statusCode: 404 });
  });
});

describe('CORS for any origin (CORS_ORIGIN=*)', () => {
  it('lets any origin read answers, never with credentials', async () => {
    const res = await any.app.inject({ url: '/api/v1/health', headers: { origin: EVIL } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const pre = await any.app.inject(preflight(EVIL));
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
