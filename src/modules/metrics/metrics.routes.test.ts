import Fastify from 'fastify';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { registerErrorHandling } from '../../core/errors/error-handler.js';
import { createMetrics } from '../../core/metrics/metrics.js';
import { metricsRoutes } from './metrics.routes.js';
import { createMetricsService } from './metrics.service.js';

const TOKEN = 'metrics-token-for-the-tests';

describe('GET /metrics with METRICS_TOKEN set', () => {
  const ctx = useTestApp({ METRICS_TOKEN: TOKEN });

  it('answers 401 in the error envelope without the token, with a wrong one, or with another scheme', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      'Bearer ',
    ]) {
      const res = await ctx.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json()).toEqual({
        error: 'UnauthorizedError',
        message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>',
        statusCode: 401,
      });
      expect(res.body).not.toContain(TOKEN);
    }
  });

  it('answers the text format with the bearer token', async () => {
    const res = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    const names = parsePrometheusTextFormat(res.body).map((family) => family.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'aos_http_request_duration_seconds',
        'aos_queue_jobs',
        'process_cpu_user_seconds_total',
      ]),
    );
  });

  it('is left out of the API docs', async () => {
    const res = await ctx.app.inject({ url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).not.toContain('/metrics');
  });
});

/** The route plugin alone on a bare Fastify with the error envelope, built for `options`. */
async function routeWith(options: { token: string | null; production: boolean }) {
  const app = Fastify();
  registerErrorHandling(app);
  await app.register(metricsRoutes, {
    metrics: createMetricsService({ metrics: createMetrics(), ...options }),
  });
  return app;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  it('answers 404 in the envelope in production, as if there were no such route', async () => {
    const app = await routeWith({ token: null, production: true });
    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NotFoundError', statusCode: 404 });
    await app.close();
  });

  it('answers the text format outside production', async () => {
    const app = await routeWith({ token: null, production: false });
    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(parsePrometheusTextFormat(res.body).map((family) => family.name)).toContain(
      'aos_job_duration_seconds',
    );
    await app.close();
  });

  it('still requires the token in production once it is set', async () => {
    const app = await routeWith({ token: TOKEN, production: true });
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    await app.close();
  });
});
