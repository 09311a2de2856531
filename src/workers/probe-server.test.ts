import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { startProbeServer } from './probe-server.js';

const TOKEN = 'worker-metrics-token';

describe("a worker process's metrics port", () => {
  const ctx = useTestApp({ METRICS_TOKEN: TOKEN });
  let probes: Awaited<ReturnType<typeof startProbeServer>>;
  beforeAll(async () => {
    probes = await startProbeServer(ctx.container, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await probes?.server.close();
  });

  it('answers the probes over HTTP on its own port', async () => {
    expect(probes.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const live = await fetch(`${probes.address}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${probes.address}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
  });

  it('serves /metrics under the same token rule, and nothing of the API', async () => {
    const refused = await fetch(`${probes.address}/metrics`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'UnauthorizedError' });
    const res = await fetch(`${probes.address}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const names = parsePrometheusTextFormat(await res.text()).map((family) => family.name);
    expect(names).toEqual(expect.arrayContaining(['aos_queue_jobs', 'aos_job_duration_seconds']));
    expect((await fetch(`${probes.address}/api/v1/health`)).status).toBe(404);
  });
});
