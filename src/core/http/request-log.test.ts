import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, flushLogger } from '../logger.js';
import { registerRequestLog } from './request-log.js';

describe('request log', () => {
  it('writes exactly one line per request: request id, method, path without query, status, time', async () => {
    const lines: string[] = [];
    const logger: FastifyBaseLogger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(line) },
    );
    const app = Fastify({
      loggerInstance: logger,
      logController: new LogController({ disableRequestLogging: true }),
    });
    registerRequestLog(app);
    app.get('/things/:id', async () => ({ ok: true }));
    await app.ready();
    const res = await app.inject({
      url: '/things/42?hub.verify_token=secret-value',
      headers: { 'x-request-id': 'ignored-here', authorization: 'Bearer abc.def.ghi' },
    });
    expect(res.statusCode).toBe(200);
    await app.inject({ url: '/missing' });
    await app.close();
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ method: 'GET', path: '/things/42', statusCode: 200, msg: 'request' });
    expect(entries[1]).toMatchObject({ method: 'GET', path: '/missing', statusCode: 404 });
    expect(typeof entries[0].reqId).toBe('string');
    expect(typeof entries[0].ms).toBe('number');
    expect(lines.join('\n')).not.toContain('secret-value');
    expect(lines.join('\n')).not.toContain('abc.def.ghi');
    expect(entries[0]).not.toHaveProperty('req');
    expect(entries[0]).not.toHaveProperty('res');
  });

  it('the process logger writes asynchronously and flushLogger writes out what it holds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'aos-log-'));
    const file = path.join(dir, 'out.log');
    try {
      const logger = createLogger('info', { destination: file });
      for (let i = 0; i < 100; i++) logger.info({ i }, 'line');
      await flushLogger(logger);
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(100);
      expect(JSON.parse(lines[99]!)).toMatchObject({ i: 99, msg: 'line' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
