import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';

const ORIGIN = 'https://console.example.com';
const ctx = useTestApp({ CORS_ORIGIN: ORIGIN });

describe('CORS', () => {
  it('lets a page on an allowed origin read the file name, request id and retry headers', async () => {
    const res = await ctx.app.inject({ url: '/health', headers: { origin: ORIGIN } });
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(res.headers['access-control-expose-headers']).split(/,\s*/)).toEqual(
      expect.arrayContaining(['Content-Disposition', 'X-Generation-Id', 'X-Request-Id', 'Retry-After']),
    );
  });

  it('gives another origin no allowance', async () => {
    const res = await ctx.app.inject({ url: '/health', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
