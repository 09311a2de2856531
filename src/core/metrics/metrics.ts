import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus families on a registry of their own (never
 * prom-client's global one: one process may build several containers, and
 * each must report only its own). Labels stay bounded: route patterns, never
 * raw URLs; queue, step, model and channel names from fixed lists; namespace
 * ids of this database.
 */
export function createMetrics() {
  const registry = new Registry();
  // CPU, memory, event loop lag, handles, GC: prom-client's standard process_* and nodejs_* families.
  collectDefaultMetrics({ register: registry });

  const httpRequestDuration = new Histogram({
    name: 'aos_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status code, from arrival to the response sent.',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'aos_job_duration_seconds',
    help: 'Queue job runs by queue and outcome (completed, or error when the try threw and may be retried).',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const taskStepDuration = new Histogram({
    name: 'aos_task_step_duration_seconds',
    help: 'Agent task pipeline steps by step name and outcome (done, failed or timeout).',
    labelNames: ['step', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const modelCallDuration = new Histogram({
    name: 'aos_model_call_duration_seconds',
    help: 'Calls to the OpenAI-compatible model API by model, kind (chat or embedding) and outcome (ok or error), retries included.',
    labelNames: ['model', 'kind', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const modelTokens = new Counter({
    name: 'aos_model_tokens_total',
    help: 'Tokens the model API reported by model and direction (input or output).',
    labelNames: ['model', 'direction'] as const,
    registers: [registry],
  });
  const outboundDeliveries = new Counter({
    name: 'aos_outbound_deliveries_total',
    help: 'Outbound message jobs by channel and outcome (sent, failed, retrying, delayed, held, skipped, missing, error).',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });
  const webhookSignaturesRefused = new Counter({
    name: 'aos_webhook_signatures_refused_total',
    help: 'Webhook POSTs refused because their signature was missing or did not match, by channel.',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  const readErrors = new Counter({
    name: 'aos_metrics_read_errors_total',
    help: 'Scrape-time readings (queue counts, approvals waiting) that failed or took too long, by family.',
    labelNames: ['family'] as const,
    registers: [registry],
  });
  // Created now so every family shows from the first scrape, even before any refusal.
  webhookSignaturesRefused.inc({ channel: 'chanA' }, 0);

  return {
    registry,
    httpRequestDuration,
    jobDuration,
    taskStepDuration,
    modelCallDuration,
    modelTokens,
    outboundDeliveries,
    webhookSignaturesRefused,

    /**
     * Adds a gauge read at scrape time: `read` answers the samples, and is
     * given at most {@link SCRAPE_READ_TIMEOUT_MS}; past it (or when it
     * throws) the gauge has no samples for that scrape and
     * `aos_metrics_read_errors_total{family}` counts it, so a slow database
     * or queue never hangs the scrape.
     */
    addScrapeGauge<L extends string>(options: {
      name: string;
      help: string;
      labelNames: readonly L[];
      read: () => Promise<ReadonlyArray<{ labels: Record<L, string>; value: number }>>;
    }): void {
      const { read } = options;
      new Gauge<L>({
        name: options.name,
        help: options.help,
        labelNames: options.labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          const samples = await withinTimeout(read(), SCRAPE_READ_TIMEOUT_MS).catch(() => null);
          if (!samples) {
            readErrors.inc({ family: options.name });
            return;
          }
          for (const sample of samples) this.set(sample.labels as Partial<Record<L, string>>, sample.value);
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** How long one scrape waits for a gauge's reading (a database count, the queue's counts). */
export const SCRAPE_READ_TIMEOUT_MS = 2000;

/** `work`'s answer, or null once `ms` have passed; the timer never outlives the answer. */
async function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
