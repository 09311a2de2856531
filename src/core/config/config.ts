import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** How the process runs: everything in one process, or one half of a split deployment. */
export type RunMode = 'all' | 'api' | 'worker';

export const RUN_MODES: readonly RunMode[] = ['all', 'api', 'worker'];

/** What a channel message from a sender linked to no user does (CHANNEL_UNKNOWN_SENDER). */
export type UnknownSenderPolicy = 'placeholder' | 'instruct' | 'reject';

export const UNKNOWN_SENDER_POLICIES: readonly UnknownSenderPolicy[] = ['placeholder', 'instruct', 'reject'];

/** The service configuration: typed, defaulted and frozen. Built only by {@link loadConfig}. */
export interface Config {
  readonly nodeEnv: string;
  readonly isProduction: boolean;
  readonly runMode: RunMode;
  readonly port: number;
  readonly host: string;
  readonly logLevel: string;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /**
   * Whether the PostgreSQL driver names its parameterised statements so that
   * each connection prepares them once (core/db/pg-prepared.ts). Off for a
   * connection pooler that cannot carry named statements across its server
   * connections.
   */
  readonly databasePreparedStatements: boolean;
  /**
   * Connections of each process's PostgreSQL pool. Fewer than concurrent
   * tasks is fine (a task waits for a free connection); on a machine that
   * also runs PostgreSQL, fewer busy backends contend less for its cores.
   */
  readonly databasePoolSize: number;
  readonly redisUrl: string | null;
  /** Prefix for every Redis key, queue and channel; lets several deployments or test runs share one Redis. */
  readonly redisPrefix: string;
  /**
   * CORS_ORIGIN: the browser origins allowed to call the API from another
   * site, with credentials; `'*'` lets any origin read public answers, without
   * credentials. Empty (the default): no CORS headers at all.
   */
  readonly corsOrigins: readonly string[] | '*';
  /** Passed to fastify: true, or the proxy addresses/CIDRs whose X-Forwarded-For is believed. */
  readonly trustProxy: boolean | string;
  readonly jwt: {
    readonly secret: string;
    readonly expiresInSec: number;
    readonly secretSource: 'env' | 'file';
  };
  readonly authRateLimitPerMin: number;
  readonly admin: {
    readonly email: string | null;
    readonly password: string | null;
    readonly department: string;
  };
  readonly llm: {
    readonly apiKey: string | null;
    readonly baseUrl: string | null;
    readonly model: string;
    readonly embeddingModel: string;
    /**
     * LLM_EMBEDDING_ENCODING: `float` (default; every OpenAI-compatible server answers it)
     * or `base64` (a quarter of the bytes; OpenAI, Azure OpenAI, vLLM and llama.cpp answer it).
     */
    readonly embeddingEncoding: 'float' | 'base64';
    readonly nativeApiKey: string | null;
    /**
     * LLM_MAX_CONCURRENCY: model requests (chat and embeddings) one process
     * has in flight at most; more wait their turn (default 128).
     */
    readonly maxConcurrency: number;
  };
  readonly embeddingDimensions: number;
  /**
   * SEARCH_INDEX_MEMORY_MB: what one process may spend on its in-memory
   * search indexes (vector and keyword, every knowledge base it searches);
   * bases beyond it are searched in the database (default 256; 0 keeps
   * every search in the database).
   */
  readonly searchIndexMemoryMb: number;
  readonly uploadMaxBytes: number;
  /** KNOWLEDGE_URL_ALLOW_PRIVATE: URL documents may point at private, loopback and link-local addresses. */
  readonly knowledgeUrlAllowPrivate: boolean;
  /** CONSOLE_DIR: the built web console served at /console; default dist/console of the package. */
  readonly consoleDir: string | null;
  /**
   * PUBLIC_URL: the address people reach the service at (`https://assistant.example.com`), for links
   * written into chat messages (the approval digest's console link); null: messages carry no link.
   */
  readonly publicUrl: string | null;
  readonly agentTaskTimeoutMs: number;
  /**
   * AGENT_TASK_CONCURRENCY: agent-tasks jobs one worker process runs at once
   * (default 128). Most of a task's time is spent waiting on the model, which
   * costs a process nothing, so many run at once; their CPU-bound steps are
   * bounded apart by `agentTaskCpuConcurrency`.
   */
  readonly agentTaskConcurrency: number;
  /**
   * AGENT_TASK_CPU_CONCURRENCY: the CPU-bound steps of agent tasks (retrieval,
   * classification with the decision) one process runs at once (default 4).
   */
  readonly agentTaskCpuConcurrency: number;
  /** INTENT_TRIGGER_WORDS, lower-cased; a reply whose message or text contains one goes to a human. */
  readonly intentTriggerWords: readonly string[];
  /**
   * INTENT_MODEL_FALLBACK (default false): with LLM_API_KEY, an uncertain
   * offline intent classification asks the chat model once to choose among
   * the namespace's intents (docs/intents.md).
   */
  readonly intentModelFallback: boolean;
  /** CHANNEL_DEFAULT_DEPARTMENT (id or slug): where unknown channel senders are created; null: ADMIN_DEPARTMENT. */
  readonly channelDefaultDepartment: string | null;
  /**
   * CHANNEL_UNKNOWN_SENDER: what a message from a sender linked to no user
   * does. `placeholder` (default): a placeholder employee is created in
   * CHANNEL_DEFAULT_DEPARTMENT; `instruct`: the sender is told how to link,
   * nothing is created; `reject`: nothing is stored and nothing answered.
   */
  readonly channelUnknownSender: UnknownSenderPolicy;
  /** Prometheus metrics and the probes (docs/operations.md, Metrics). */
  readonly metrics: {
    /** METRICS_TOKEN: bearer token `/metrics` requires; null: open outside production, 404 in production. */
    readonly token: string | null;
    /** METRICS_PORT: where a `worker` process serves `/metrics` and the probes (default 9464). */
    readonly port: number;
  };
  /** CONVERSATION_IDLE_CLOSE_HOURS: a conversation without messages for this long is closed (default 24). */
  readonly conversationIdleCloseHours: number;
  /** QUEUE_COMPLETED_RETENTION_HOURS: a completed queue job is deleted this long after it finished (default 168). */
  readonly queueCompletedRetentionHours: number;
  /**
   * JOB_MAX_STALLS: how many times a job may be found abandoned (its process
   * died or stalled while running it) and be run again; the next time it is
   * failed for good with the reason, so a poison job cannot loop (default 2).
   */
  readonly jobMaxStalls: number;
  /**
   * JOB_LOCK_MS: how long a running job's lease lasts without renewal (it is
   * renewed a few times within it). A job whose process died runs again within
   * about 1.5 times this (default 6000: work resumes within 10 s of a crash).
   */
  readonly jobLockMs: number;
  /** Limits of the isolated decoders of untrusted files (docs/knowledge.md, Decoders). */
  readonly decoders: {
    /** DECODER_TIMEOUT_MS: longest one file's decoding may take (default 120 s). */
    readonly timeoutMs: number;
    /** DECODER_MEMORY_MB: heap ceiling of a decoder thread (default 512). */
    readonly memoryMb: number;
    /** DECODER_MAX_INFLATED_BYTES: most bytes the entries of a DOCX (zip) may inflate to (default 100 MB). */
    readonly maxInflatedBytes: number;
    /** DECODER_MAX_PIXELS: most pixels of one image (width × height) read by OCR or as an avatar (default 40 million). */
    readonly maxPixels: number;
    /** DECODER_MAX_PAGES: most pages of a PDF that is read (default 5,000). */
    readonly maxPages: number;
  };
  /** QUEUE_FAILED_RETENTION_HOURS: a job that failed for good is deleted this long after (default 720). */
  readonly queueFailedRetentionHours: number;
  /** Local command-line agents a namespace can select instead of the API (docs/pipeline-adapters.md). */
  readonly agentRunner: {
    /** AGENT_RUNNER_TIMEOUT_MS: longest run of one local agent; default AGENT_TASK_TIMEOUT_MS. */
    readonly timeoutMs: number;
    /** AGENT_RUNNER_KILL_GRACE_MS: between SIGTERM and SIGKILL when a run is stopped. */
    readonly killGraceMs: number;
    readonly claudeCode: AgentCliConfig;
    readonly codexCli: AgentCliConfig;
    readonly geminiCli: AgentCliConfig;
    /** The only variables of this process a local agent sees (PATH, HOME, locale, proxies, AGENT_RUNNER_ENV_PASSTHROUGH). */
    readonly childEnv: Readonly<Record<string, string>>;
  };
  /** LLM_PRICES_FILE: USD per million tokens by model-name prefix, merged over the built-in prices. */
  readonly llmPrices: {
    readonly file: string;
    readonly table: Readonly<Record<string, { readonly input: number; readonly output: number }>>;
  } | null;
  readonly chanA: {
    readonly appId: string | null;
    readonly appSecret: string | null;
    readonly phoneNumberId: string | null;
    readonly accessToken: string | null;
    readonly webhookVerifyToken: string | null;
    /** CHANA_ALLOW_UNSIGNED: without CHANA_APP_SECRET, accept unsigned webhooks (local testing only; refused in production). */
    readonly allowUnsigned: boolean;
    readonly phoneNumber: string | null;
    readonly rateLimitPerMin: number;
    readonly apiBaseUrl: string;
    /** CHANA_REENGAGEMENT_TEMPLATE: approved template sent when a reply falls outside the 24-hour window; null: none. */
    readonly reengagementTemplate: string | null;
    /** CHANA_REENGAGEMENT_TEMPLATE_LANGUAGE: the template's language code (default en_US). */
    readonly reengagementTemplateLanguage: string;
    /**
     * CHANA_APPROVAL_TEMPLATE: approved utility template (no variables, in en, uk and ru) that invites an
     * approver outside their 24-hour window to write, so the approval request can follow; null: none.
     */
    readonly approvalTemplate: string | null;
  };
  readonly chanB: {
    readonly botToken: string | null;
    readonly rateLimitPerMin: number;
    readonly apiBaseUrl: string;
    /** CHANB_POLL_TIMEOUT_SEC: how long one getUpdates long poll waits for an update (default 25). */
    readonly pollTimeoutSec: number;
    /** CHANB_LOCK_TTL_MS: the poller lock's TTL; a dead holder is replaced within it (default 30 s). */
    readonly lockTtlMs: number;
    /** CHANB_LOCK_RETRY_MS: how often a waiting worker tries the poller lock; the first back-off (default 5 s). */
    readonly lockRetryMs: number;
  };
  readonly tracing: {
    readonly publicKey: string | null;
    readonly secretKey: string | null;
    readonly host: string | null;
  };
  /** Namespace plugins (docs/plugins.md). */
  readonly plugins: {
    /** PLUGINS_DIR: folder of operator plugins (`*.js`, `*.mjs`) loaded at start; null: built-ins only. */
    readonly dir: string | null;
    /** PLUGIN_TIMEOUT_MS: longest one plugin hook may run inside the pipeline (default 5000). */
    readonly timeoutMs: number;
    /** PLUGIN_WEBHOOK_ALLOW_PRIVATE: the webhook plugin may post to private, loopback and link-local addresses. */
    readonly webhookAllowPrivate: boolean;
  };
}

/** Thrown by {@link loadConfig} with every problem found, so an operator fixes them in one pass. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** INTENT_TRIGGER_WORDS when unset: conflict, court, fine, dismissal, complaint, lawsuit in Ukrainian and English. */
const DEFAULT_TRIGGER_WORDS =
  'конфлікт, суд, штраф, звільнення, скарга, позов, conflict, lawsuit, fine, termination, complaint';

/** Reads the environment (and, outside production, the generated JWT secret under DATA_DIR). */
export function loadConfig(env: Env = process.env, runModeArg?: string): Config {
  const problems: string[] = [];
  const str = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = str(name);
    if (raw === null) return fallback;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  };
  const url = (name: string, protocols: readonly string[]): string | null => {
    const raw = str(name);
    if (raw === null) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
      }
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
    return raw;
  };
  // AGENT_RUNNER_<NAME>_ARGS: a JSON array of strings, or words separated by spaces.
  const argList = (name: string): string[] => {
    const raw = str(name);
    if (raw === null) return [];
    if (!raw.startsWith('[')) return raw.split(/\s+/);
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed) && parsed.every((a) => typeof a === 'string')) return parsed;
    } catch {
      // reported below
    }
    problems.push(`${name} must be a JSON array of strings or space-separated words`);
    return [];
  };
  const agentCli = (name: string, command: string): AgentCliConfig => ({
    command: str(`AGENT_RUNNER_${name}_COMMAND`) ?? command,
    args: argList(`AGENT_RUNNER_${name}_ARGS`),
    model: str(`AGENT_RUNNER_${name}_MODEL`),
  });

  const nodeEnv = str('NODE_ENV') ?? 'development';
  const isProduction = nodeEnv === 'production';
  const runModeRaw = runModeArg ?? str('RUN_MODE') ?? 'all';
  let runMode: RunMode = 'all';
  if ((RUN_MODES as readonly string[]).includes(runModeRaw)) runMode = runModeRaw as RunMode;
  else problems.push(`run mode must be one of ${RUN_MODES.join(', ')}, got "${runModeRaw}"`);

  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  if (runMode !== 'all') {
    if (!databaseUrl)
      problems.push(`run mode "${runMode}" requires DATABASE_URL (embedded PGlite serves one process only)`);
    if (!redisUrl)
      problems.push(`run mode "${runMode}" requires REDIS_URL (queues must be shared between processes)`);
  }

  const dataDir = resolveDataDir(env);
  const expiresRaw = str('JWT_EXPIRES_IN') ?? '24h';
  const expiresMatch = /^(\d+)([smhd]?)$/.exec(expiresRaw);
  let expiresInSec = 86400;
  if (expiresMatch) expiresInSec = Number(expiresMatch[1]) * (DURATION_UNITS[expiresMatch[2] || 's'] ?? 1);
  else
    problems.push(
      `JWT_EXPIRES_IN must be a number of seconds or a duration like 15m, 24h, 7d; got "${expiresRaw}"`,
    );
  if (expiresMatch && expiresInSec < 60) problems.push('JWT_EXPIRES_IN must be at least 60 seconds');

  const llmApiKey = str('LLM_API_KEY');
  let jwtSecret = str('JWT_SECRET');
  let secretSource: 'env' | 'file' = 'env';
  if (jwtSecret && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
  if (isProduction) {
    if (!jwtSecret) problems.push('JWT_SECRET is required when NODE_ENV=production');
    if (!llmApiKey) problems.push('LLM_API_KEY is required when NODE_ENV=production');
  }

  const adminEmail = str('ADMIN_EMAIL');
  const adminPassword = str('ADMIN_PASSWORD');
  if ((adminEmail === null) !== (adminPassword === null)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }

  const corsRaw = str('CORS_ORIGIN');
  const corsOrigins =
    corsRaw === '*'
      ? '*'
      : (corsRaw ?? '')
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean);

  const chanAAllowUnsigned = bool('CHANA_ALLOW_UNSIGNED', false);
  if (isProduction && chanAAllowUnsigned) {
    problems.push('CHANA_ALLOW_UNSIGNED=true is for local testing and is refused when NODE_ENV=production');
  }

  const agentTaskTimeoutMs = int('AGENT_TASK_TIMEOUT_MS', 120_000, 1000, 3_600_000);
  const unknownSenderRaw = str('CHANNEL_UNKNOWN_SENDER') ?? 'placeholder';
  let channelUnknownSender: UnknownSenderPolicy = 'placeholder';
  if ((UNKNOWN_SENDER_POLICIES as readonly string[]).includes(unknownSenderRaw))
    channelUnknownSender = unknownSenderRaw as UnknownSenderPolicy;
  else
    problems.push(
      `CHANNEL_UNKNOWN_SENDER must be one of ${UNKNOWN_SENDER_POLICIES.join(', ')}, got "${unknownSenderRaw}"`,
    );
  const embeddingEncoding = str('LLM_EMBEDDING_ENCODING') ?? 'float';
  if (embeddingEncoding !== 'float' && embeddingEncoding !== 'base64')
    problems.push(`LLM_EMBEDDING_ENCODING must be float or base64, got "${embeddingEncoding}"`);
  const config: Config = {
    nodeEnv,
    isProduction,
    runMode,
    port: int('PORT', 3000, 0, 65535),
    host: str('HOST') ?? '0.0.0.0',
    logLevel: str('LOG_LEVEL') ?? 'info',
    dataDir,
    databaseUrl,
    databasePreparedStatements: bool('DATABASE_PREPARED_STATEMENTS', true),
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 1000),
    redisUrl,
    redisPrefix: str('REDIS_PREFIX') ?? 'aos',
    corsOrigins,
    trustProxy: parseTrustProxy(str('TRUST_PROXY')),
    jwt: { secret: '', expiresInSec, secretSource },
    authRateLimitPerMin: int('AUTH_RATE_LIMIT_PER_MIN', 10, 1, 100000),
    admin: { email: adminEmail, password: adminPassword, department: str('ADMIN_DEPARTMENT') ?? 'General' },
    llm: {
      apiKey: llmApiKey,
      baseUrl: url('LLM_BASE_URL', ['http:', 'https:']),
      model: str('LLM_MODEL') ?? 'gpt-4o-mini',
      embeddingModel: str('LLM_EMBEDDING_MODEL') ?? 'text-embedding-3-small',
      embeddingEncoding: embeddingEncoding === 'base64' ? 'base64' : 'float',
      nativeApiKey: str('LLM_NATIVE_API_KEY'),
      maxConcurrency: int('LLM_MAX_CONCURRENCY', 128, 1, 10_000),
    },
    embeddingDimensions: int('EMBEDDING_DIMENSIONS', 1536, 2, 2000),
    searchIndexMemoryMb: int('SEARCH_INDEX_MEMORY_MB', 256, 0, 1_000_000),
    uploadMaxBytes: int('UPLOAD_MAX_BYTES', 25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    knowledgeUrlAllowPrivate: bool('KNOWLEDGE_URL_ALLOW_PRIVATE', false),
    consoleDir: str('CONSOLE_DIR') ? path.resolve(str('CONSOLE_DIR')!) : null,
    publicUrl: url('PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null,
    agentTaskTimeoutMs,
    agentTaskConcurrency: int('AGENT_TASK_CONCURRENCY', 128, 1, 10_000),
    agentTaskCpuConcurrency: int('AGENT_TASK_CPU_CONCURRENCY', 4, 1, 1000),
    intentTriggerWords: (str('INTENT_TRIGGER_WORDS') ?? DEFAULT_TRIGGER_WORDS)
      .split(',')
      .map((w) => w.trim().toLowerCase())
      .filter(Boolean),
    intentModelFallback: bool('INTENT_MODEL_FALLBACK', false),
    channelDefaultDepartment: str('CHANNEL_DEFAULT_DEPARTMENT'),
    channelUnknownSender,
    metrics: { token: str('METRICS_TOKEN'), port: int('METRICS_PORT', 9464, 0, 65535) },
    conversationIdleCloseHours: int('CONVERSATION_IDLE_CLOSE_HOURS', 24, 1, 24 * 365),
    queueCompletedRetentionHours: int('QUEUE_COMPLETED_RETENTION_HOURS', 24 * 7, 1, 24 * 3650),
    queueFailedRetentionHours: int('QUEUE_FAILED_RETENTION_HOURS', 24 * 30, 1, 24 * 3650),
    jobMaxStalls: int('JOB_MAX_STALLS', 2, 0, 100),
    jobLockMs: int('JOB_LOCK_MS', 6000, 1000, 3_600_000),
    decoders: {
      timeoutMs: int('DECODER_TIMEOUT_MS', 120_000, 100, 3_600_000),
      memoryMb: int('DECODER_MEMORY_MB', 512, 32, 65_536),
      maxInflatedBytes: int('DECODER_MAX_INFLATED_BYTES', 100 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
      maxPixels: int('DECODER_MAX_PIXELS', 40_000_000, 1, 1_000_000_000),
      maxPages: int('DECODER_MAX_PAGES', 5000, 1, 1_000_000),
    },
    agentRunner: {
      timeoutMs: int('AGENT_RUNNER_TIMEOUT_MS', agentTaskTimeoutMs, 1000, 3_600_000),
      killGraceMs: int('AGENT_RUNNER_KILL_GRACE_MS', 5000, 50, 60_000),
      claudeCode: agentCli('CLAUDE_CODE', 'claude'),
      codexCli: agentCli('CODEX_CLI', 'codex'),
      geminiCli: agentCli('GEMINI_CLI', 'gemini'),
      childEnv: agentChildEnv(env, str('AGENT_RUNNER_ENV_PASSTHROUGH')),
    },
    llmPrices: readPriceFile(str('LLM_PRICES_FILE'), problems),
    chanA: {
      appId: str('CHANA_APP_ID'),
      appSecret: str('CHANA_APP_SECRET'),
      phoneNumberId: str('CHANA_PHONE_NUMBER_ID'),
      accessToken: str('CHANA_ACCESS_TOKEN'),
      webhookVerifyToken: str('CHANA_WEBHOOK_VERIFY_TOKEN'),
      allowUnsigned: chanAAllowUnsigned,
      phoneNumber: str('CHANA_PHONE_NUMBER'),
      rateLimitPerMin: int('CHANA_RATE_LIMIT_PER_MIN', 60, 1, 100000),
      apiBaseUrl: url('CHANA_API_BASE_URL', ['http:', 'https:']) ?? 'https://graph.facebook.com/v21.0',
      reengagementTemplate: str('CHANA_REENGAGEMENT_TEMPLATE'),
      reengagementTemplateLanguage: str('CHANA_REENGAGEMENT_TEMPLATE_LANGUAGE') ?? 'en_US',
      approvalTemplate: str('CHANA_APPROVAL_TEMPLATE'),
    },
    chanB: {
      botToken: str('CHANB_BOT_TOKEN'),
      rateLimitPerMin: int('CHANB_RATE_LIMIT_PER_MIN', 30, 1, 100000),
      apiBaseUrl: url('CHANB_API_BASE_URL', ['http:', 'https:']) ?? 'https://api.telegram.org',
      pollTimeoutSec: int('CHANB_POLL_TIMEOUT_SEC', 25, 1, 50),
      lockTtlMs: int('CHANB_LOCK_TTL_MS', 30_000, 500, 600_000),
      lockRetryMs: int('CHANB_LOCK_RETRY_MS', 5000, 20, 600_000),
    },
    tracing: {
      publicKey: str('TRACING_PUBLIC_KEY'),
      secretKey: str('TRACING_SECRET_KEY'),
      host: url('TRACING_HOST', ['http:', 'https:']),
    },
    plugins: {
      dir: str('PLUGINS_DIR') ? path.resolve(str('PLUGINS_DIR')!) : null,
      timeoutMs: int('PLUGIN_TIMEOUT_MS', 5000, 50, 120_000),
      webhookAllowPrivate: bool('PLUGIN_WEBHOOK_ALLOW_PRIVATE', false),
    },
  };

  if (problems.length > 0) throw new ConfigError(problems);

  if (!jwtSecret) {
    jwtSecret = readOrCreateSecret(dataDir);
    secretSource = 'file';
  }
  return deepFreeze({ ...config, jwt: { secret: jwtSecret, expiresInSec, secretSource } });
}

/**
 * DATA_DIR as an absolute path (default `./data`). Exported for the restore
 * command, which must not call {@link loadConfig}: that writes a new JWT
 * secret into the very folder a backup is restored to.
 */
export function resolveDataDir(env: Env): string {
  return path.resolve(env.DATA_DIR?.trim() || './data');
}

/** Outside production a missing JWT_SECRET is generated once and kept, so tokens survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function parseTrustProxy(raw: string | null): boolean | string {
  if (raw === null || raw === 'false') return false;
  return raw === 'true' ? true : raw;
}

/** One local command-line agent: the executable, extra arguments after the runner's own, the model it is told to use. */
export interface AgentCliConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly model: string | null;
}

// What a local agent needs to start (find executables and its own config, reach the network); never our secrets.
const AGENT_CHILD_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
];

function agentChildEnv(env: Env, passthrough: string | null): Record<string, string> {
  const names = [...AGENT_CHILD_ENV, ...(passthrough ?? '').split(',').map((n) => n.trim())];
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = name ? env[name] : undefined;
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** LLM_PRICES_FILE: `{ "<model prefix>": { "input": <USD per 1M>, "output": <USD per 1M> } }`. */
function readPriceFile(file: string | null, problems: string[]): Config['llmPrices'] {
  if (file === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
    problems.push(`LLM_PRICES_FILE "${file}" ${reason}`);
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(`LLM_PRICES_FILE "${file}" must hold an object of model prefixes`);
    return null;
  }
  const table: Record<string, { input: number; output: number }> = {};
  const price = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  for (const [model, entry] of Object.entries(parsed)) {
    const { input, output } = (entry ?? {}) as { input?: unknown; output?: unknown };
    if (model.trim() === '' || !price(input) || !price(output)) {
      problems.push(
        `LLM_PRICES_FILE "${file}": "${model}" needs numbers "input" and "output" (USD per 1M tokens, 0 or more)`,
      );
      continue;
    }
    table[model.trim().toLowerCase()] = { input: input as number, output: output as number };
  }
  return { file, table };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
