import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_SECRET, TEST_VERIFY_TOKEN } from '../../../test/chanA-app.js';
import { chanAApprovalOf } from '../../../test/chanA-inbound.js';
import { createUser } from '../../../test/factories.js';
import { type FakeGraphServer, startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import {
  postWebhook,
  TEST_PHONE_NUMBER_ID,
  textMessage,
  wamid,
  webhookPayload,
} from '../../../test/fakes/chanA-webhooks.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { QUEUE_NAMES } from '../../core/queue/queue.js';
import { STEP_NAMES } from '../../pipeline/runner.js';

let graph: FakeGraphServer;
let llm: FakeLlmServer;
let ctx: PipelineTestContext;

beforeAll(async () => {
  graph = await startFakeGraphServer();
  llm = await startFakeLlmServer();
  ctx = await createPipelineTestApp(
    {
      CHANA_APP_SECRET: TEST_APP_SECRET,
      CHANA_WEBHOOK_VERIFY_TOKEN: TEST_VERIFY_TOKEN,
      CHANA_PHONE_NUMBER_ID: TEST_PHONE_NUMBER_ID,
      CHANA_ACCESS_TOKEN: 'test-access-token',
      CHANA_PHONE_NUMBER: '15550783881',
      CHANA_API_BASE_URL: `${graph.url}/v21.0`,
      LLM_API_KEY: llm.apiKey,
      LLM_BASE_URL: llm.baseUrl,
    },
    { workers: true },
  );
});
afterAll(async () => {
  await ctx?.close();
  await graph?.close();
  await llm?.close();
});

/**
 * GET /metrics, read by the Prometheus text-format parser: `families` by
 * name (type and help), and the samples by series name. The parser folds the
 * series of a labelled histogram into one unlabelled sample, so the samples
 * come from a second parse with histograms typed untyped, where each of
 * `<name>_bucket`, `_sum` and `_count` keeps its labels.
 */
async function scrape() {
  const res = await ctx.app.inject({ url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = new Map(parsePrometheusTextFormat(res.body).map((family) => [family.name, family]));
  const series = new Map<string, Array<{ labels?: Record<string, string>; value?: string }>>();
  for (const family of parsePrometheusTextFormat(
    res.body.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'),
  )) {
    series.set(family.name, [...(series.get(family.name) ?? []), ...family.metrics]);
  }
  return { families, series };
}

type Scrape = Awaited<ReturnType<typeof scrape>>;

/** The samples of the series `name` whose labels include `labels`. */
function samples(scraped: Scrape, name: string, labels: Record<string, string> = {}) {
  const found = scraped.series.get(name);
  if (!found) throw new Error(`the series ${name} is missing`);
  return found.filter((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
  );
}

/** The summed value of the samples of `name` matching `labels`. */
function total(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  return samples(scraped, name, labels).reduce((sum, sample) => sum + Number(sample.value), 0);
}

/** How many observations the histogram `name` holds for the series matching `labels`. */
function observations(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  expect(scraped.families.get(name)?.type, name).toBe('HISTOGRAM');
  return total(scraped, `${name}_count`, labels);
}

/** The family `name`, with its type. */
function typeOf(scraped: Scrape, name: string): string | undefined {
  return scraped.families.get(name)?.type;
}

describe('GET /metrics after a channel A message went through', () => {
  it('exposes every family with samples from the webhook, the queue, the steps, the model, the approval and the delivery', async () => {
    const scene = await createPipelineScene(ctx.container);
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: scene.departmentId });
    const refused = await postWebhook(ctx.app, webhookPayload({ messages: [] }), { signature: 'sha256=00' });
    expect(refused.statusCode).toBe(401);
    const id = wamid();
    const accepted = await postWebhook(
      ctx.app,
      webhookPayload({
        contacts: [{ waId: scene.phone, name: 'Olena' }],
        messages: [textMessage(scene.phone, VACATION_QUESTION, id)],
      }),
      { appSecret: TEST_APP_SECRET },
    );
    expect(accepted.statusCode).toBe(200);
    // A first interaction with the intent waits for a human.
    const approval = await chanAApprovalOf(ctx.container, id);

    const waiting = await scrape();
    expect(typeOf(waiting, 'aos_approvals_waiting')).toBe('GAUGE');
    expect(typeOf(waiting, 'aos_queue_jobs')).toBe('GAUGE');
    expect(typeOf(waiting, 'aos_model_tokens_total')).toBe('COUNTER');
    expect(typeOf(waiting, 'aos_outbound_deliveries_total')).toBe('COUNTER');
    expect(typeOf(waiting, 'aos_webhook_signatures_refused_total')).toBe('COUNTER');
    expect(total(waiting, 'aos_approvals_waiting', { namespace_id: scene.namespaceId })).toBe(1);
    const webhook = { route: '/api/v1/chanA/webhook', method: 'POST' };
    expect(
      observations(waiting, 'aos_http_request_duration_seconds', { ...webhook, status_code: '200' }),
    ).toBe(1);
    expect(
      observations(waiting, 'aos_http_request_duration_seconds', { ...webhook, status_code: '401' }),
    ).toBe(1);
    expect(total(waiting, 'aos_webhook_signatures_refused_total', { channel: 'chanA' })).toBe(1);
    for (const queue of QUEUE_NAMES) {
      expect(
        samples(waiting, 'aos_queue_jobs', { queue })
          .map((s) => s.labels?.state)
          .sort(),
      ).toEqual(['active', 'completed', 'delayed', 'failed', 'waiting']);
    }
    expect(
      observations(waiting, 'aos_job_duration_seconds', { queue: 'chanA-inbound', outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(1);
    for (const step of STEP_NAMES) {
      expect(
        observations(waiting, 'aos_task_step_duration_seconds', { step, outcome: 'done' }),
      ).toBeGreaterThanOrEqual(1);
    }
    const chatModel = ctx.container.config.llm.model;
    expect(
      observations(waiting, 'aos_model_call_duration_seconds', {
        model: chatModel,
        kind: 'chat',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(llm.requestsTo('/v1/chat/completions').length).toBeGreaterThanOrEqual(1);
    expect(
      total(waiting, 'aos_model_tokens_total', { model: chatModel, direction: 'input' }),
    ).toBeGreaterThan(0);
    expect(samples(waiting, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(samples(waiting, 'nodejs_heap_size_used_bytes')).toHaveLength(1);
    for (const family of waiting.families.values()) expect(family.help, family.name).not.toBe('');

    const approved = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);
    const delivered = await waitFor('the delivery counted', async () => {
      const families = await scrape();
      return (
        total(families, 'aos_outbound_deliveries_total', { channel: 'chanA', outcome: 'sent' }) >= 1 &&
        families
      );
    });
    expect(graph.messageCalls().filter((c) => c.body.to === scene.phone)).toHaveLength(1);
    expect(total(delivered, 'aos_approvals_waiting', { namespace_id: scene.namespaceId })).toBe(0);
  }, 120_000);
});
