export interface HealthDeps {
  version: string;
  startedAt: number;
  llmMode: 'configured' | 'offline';
  pingDatabase(): Promise<void>;
  pingQueue(): Promise<void>;
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

export function createHealthService(deps: HealthDeps) {
  return {
    /** `degraded` (answered as 503) when the database or the queue cannot be reached within 2 s. */
    async check() {
      const [database, queue] = await Promise.all([probe(deps.pingDatabase), probe(deps.pingQueue)]);
      return {
        status: database === 'ok' && queue === 'ok' ? ('ok' as const) : ('degraded' as const),
        version: deps.version,
        uptimeSec: Math.floor((Date.now() - deps.startedAt) / 1000),
        checks: { database, queue, llm: deps.llmMode },
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
