import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'aos-config-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const problemsOf = (env: Record<string, string>, mode?: string): readonly string[] => {
  try {
    loadConfig(env, mode);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('loadConfig', () => {
  it('runs with no configuration at all: embedded drivers, the documented defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      runMode: 'all',
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      redisUrl: null,
      authRateLimitPerMin: 10,
      embeddingDimensions: 1536,
      uploadMaxBytes: 25 * 1024 * 1024,
      agentTaskTimeoutMs: 120_000,
      admin: { email: null, password: null, department: 'General' },
      chanA: { rateLimitPerMin: 60 },
      chanB: { rateLimitPerMin: 30, botToken: null },
      jwt: { expiresInSec: 86_400, secretSource: 'file' },
      // CORS off: no origin may call from another site.
      corsOrigins: [],
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.jwt)).toBe(true);
  });

  it('generates the JWT secret once and keeps it under DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwt.secret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwt.secret).toBe(first.jwt.secret);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(first.jwt.secret);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      JWT_EXPIRES_IN: 'forever',
      EMBEDDING_DIMENSIONS: '0',
      ADMIN_EMAIL: 'root@example.test',
    });
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/PORT/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL/);
    expect(problems.join('\n')).toMatch(/JWT_EXPIRES_IN/);
    expect(problems.join('\n')).toMatch(/EMBEDDING_DIMENSIONS/);
    expect(problems.join('\n')).toMatch(/ADMIN_EMAIL and ADMIN_PASSWORD/);
  });

  it('reads DATABASE_PREPARED_STATEMENTS as true or false, on by default', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).databasePreparedStatements).toBe(true);
    expect(
      loadConfig({ DATA_DIR: dir, DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements,
    ).toBe(false);
    expect(problemsOf({ DATABASE_PREPARED_STATEMENTS: 'off' }).join('\n')).toMatch(
      /DATABASE_PREPARED_STATEMENTS/,
    );
  });

  it('reads DATABASE_POOL_SIZE as a positive whole number, 10 by default', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).databasePoolSize).toBe(10);
    expect(loadConfig({ DATA_DIR: dir, DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    for (const bad of ['0', 'four', '2.5'])
      expect(problemsOf({ DATABASE_POOL_SIZE: bad }).join('\n')).toMatch(/DATABASE_POOL_SIZE/);
  });

  it('refuses split run modes without DATABASE_URL and REDIS_URL', () => {
    for (const mode of ['api', 'worker']) {
      const problems = problemsOf({ DATA_DIR: dataDir() }, mode);
      expect(problems).toHaveLength(2);
      expect(problems[0]).toContain('DATABASE_URL');
      expect(problems[1]).toContain('REDIS_URL');
    }
    const ok = loadConfig(
      { DATA_DIR: dataDir(), DATABASE_URL: 'postgres://localhost/db', REDIS_URL: 'redis://localhost:6379' },
      'worker',
    );
    expect(ok.runMode).toBe('worker');
    expect(problemsOf({ DATA_DIR: dataDir() }, 'both')).toEqual([
      'run mode must be one of all, api, worker, got "both"',
    ]);
  });

  it('refuses production without JWT_SECRET or LLM_API_KEY', () => {
    const problems = problemsOf({ NODE_ENV: 'production', DATA_DIR: dataDir() });
    expect(problems).toEqual([
      'JWT_SECRET is required when NODE_ENV=production',
      'LLM_API_KEY is required when NODE_ENV=production',
    ]);
  });

  it('parses durations, lists and trigger words', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: 'x'.repeat(40),
      JWT_EXPIRES_IN: '15m',
      CORS_ORIGIN: 'https://a.example, https://b.example',
      INTENT_TRIGGER_WORDS: 'Конфлікт, суд ,lawsuit,,',
    });
    expect(config.jwt).toMatchObject({ expiresInSec: 900, secretSource: 'env' });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.intentTriggerWords).toEqual(['конфлікт', 'суд', 'lawsuit']);
  });

  it('reads CORS_ORIGIN as a list of origins, or * for any origin', () => {
    const corsOf = (value: string) => loadConfig({ DATA_DIR: dataDir(), CORS_ORIGIN: value }).corsOrigins;
    expect(corsOf('*')).toBe('*');
    expect(corsOf('https://a.example')).toEqual(['https://a.example']);
    expect(corsOf(' , ')).toEqual([]);
  });
});
