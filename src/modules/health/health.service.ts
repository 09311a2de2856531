import type { FastifyBaseLogger } from 'fastify';
import type { LlmProbeResult } from '../../core/llm/probe.js';

export interface HealthDeps {
  version: string;
  startedAt: number;
  /** `offline` without LLM_API_KEY; otherwise the provider's probe (cached, never throws). */
  llm: 'offline' | { check(): Promise<LlmProbeResult> };
  pingDatabase(): Promise<void>;
  pingQueue(): Promise<void>;
  /** Told when the LLM check changes state, with the address the health body leaves out. */
  logger?: FastifyBaseLogger;
}

const PING_TIMEOUT_MS = 2000;

async function probe(ping: () => Promise<void>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([ping().then(() => 'ok' as const), timeout]);
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  uptimeSec: number;
  checks: {
    database: 'ok' | 'down';
    queue: 'ok' | 'down';
    llm: 'ok' | 'offline' | 'unreachable' | 'unauthorized' | 'error';
  };
  /** Why the status is `degraded`; absent when it is `ok`. */
  reason?: string;
}

/** What `GET /health/ready` answers: 200 when `ready`, 503 with the failing check otherwise. */
export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: { database: 'ok' | 'down'; queue: 'ok' | 'down'; migrations: 'ok' };
}

/**
 * 503 when the service cannot do its work (database or queue unreachable);
 * 200 otherwise, also when only the LLM is degraded: the API, approvals and
 * everything not waiting on the model still work, and a load balancer should
 * keep sending traffic.
 */
export function healthHttpStatus(report: HealthReport): 200 | 503 {
  return report.checks.database === 'ok' && report.checks.queue === 'ok' ? 200 : 503;
}

export function createHealthService(deps: HealthDeps) {
  let lastLlmState: string | null = null;

  async function checkLlm(): Promise<{ state: HealthReport['checks']['llm']; reason?: string }> {
    if (deps.llm === 'offline') return { state: 'offline' };
    const result = await deps.llm.check();
    if (result.state !== lastLlmState) {
      if (result.state === 'ok') {
        if (lastLlmState !== null) deps.logger?.info('health: the LLM provider answers again');
      } else {
        deps.logger?.warn({ llm: result.state, detail: result.detail }, `health: ${result.reason}`);
      }
      lastLlmState = result.state;
    }
    return result.state === 'ok' ? { state: 'ok' } : { state: result.state, reason: result.reason };
  }

  return {
    /**
     * Readiness (`GET /health/ready`): the database and the queue answer a
     * ping within 2 s each. Migrations need no check of their own: a process
     * migrates before it builds anything that serves, and one whose
     * migration failed never starts. The LLM is left out, as in
     * {@link healthHttpStatus}: a process waiting on the model still serves.
     */
    async ready(): Promise<ReadinessReport> {
      const [database, queue] = await Promise.all([probe(deps.pingDatabase), probe(deps.pingQueue)]);
      return {
        status: database === 'ok' && queue === 'ok' ? 'ready' : 'not_ready',
        checks: { database, queue, migrations: 'ok' },
      };
    },

    /**
     * Pings the database and the queue (2 s each) and asks the LLM probe
     * (2 s, answer reused for 30 s). `degraded` when any of them fails, with
     * the reasons joined in `reason`; offline mode (no LLM_API_KEY) is `ok`.
     */
    async check(): Promise<HealthReport> {
      const [database, queue, llm] = await Promise.all([
        probe(deps.pingDatabase),
        probe(deps.pingQueue),
        checkLlm(),
      ]);
      const reasons = [
        ...(database === 'down' ? ['the database is unreachable'] : []),
        ...(queue === 'down' ? ['the queue is unreachable'] : []),
        ...(llm.reason ? [llm.reason] : []),
      ];
      return {
        status: reasons.length === 0 ? 'ok' : 'degraded',
        version: deps.version,
        uptimeSec: Math.floor((Date.now() - deps.startedAt) / 1000),
        checks: { database, queue, llm: llm.state },
        ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
