import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { auditLogs } from '../db/schema/index.js';
import { type AuditWriter, registerAuditHook } from './audit-hook.js';
import { auditText, redactSecrets } from './redact.js';

const ctx = useTestApp();

/**
 * The audit hook alone on a bare app, without the request validation that
 * refuses such text, so what reaches the audit log is exactly what a client
 * sent: the hook itself must make it storable.
 */
async function appWith(writer: AuditWriter, logLines: string[] = []): Promise<FastifyInstance> {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger }) as unknown as FastifyInstance;
  await app.register(multipart);
  registerAuditHook(app, writer, '/api/v1');
  app.post('/api/v1/widgets/:id', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('auditText and redactSecrets', () => {
  it('strip NUL characters and unpaired surrogates from strings and keys, and keep emoji', () => {
    expect(auditText('a\u0000b\ud800c\udfffd 😀')).toBe('abcd 😀');
    expect(redactSecrets({ 'k\u0000ey': ['v\u0000', { deep: '\udc00x' }], password: '\u0000' })).toEqual({
      key: ['v', { deep: 'x' }],
      password: '[REDACTED]',
    });
  });

  it('never leave half a surrogate pair where a long string is cut', () => {
    const cut = auditText(`${'x'.repeat(9)}😀tail`, 10);
    expect(cut).toBe(`${'x'.repeat(9)}…[truncated]`);
  });
});

describe('the audit hook', () => {
  it('writes the entry for a body holding NUL characters and unpaired surrogates, stripped', async () => {
    const app = await appWith(ctx.container.audit.service);
    const id = randomUUID();
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/widgets/${id}`,
      headers: { 'user-agent': 'agent\ud800/1.0' },
      payload: { name: 'bad\u0000name', nested: { 'k\u0000': ['\udfff', 'fine 😀'] } },
    });
    expect(res.statusCode).toBe(200);
    const rows = await ctx.container.db.select().from(auditLogs).where(eq(auditLogs.entityId, id));
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'create',
        entityType: 'widgets',
        changes: { name: 'badname', nested: { k: ['', 'fine 😀'] } },
      }),
    ]);
    expect(rows[0]?.userAgent).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    await app.close();
  });

  it('logs a failed write as an error and still answers the request', async () => {
    const lines: string[] = [];
    const failing: AuditWriter = {
      record: async () => {
        throw new Error('audit table unavailable');
      },
    };
    const app = await appWith(failing, lines);
    const res = await app.inject({ method: 'POST', url: `/api/v1/widgets/${randomUUID()}`, payload: {} });
    expect(res.statusCode).toBe(200);
    const logged = lines.map((line) => JSON.parse(line)).find((l) => l.msg === 'audit write failed');
    expect(logged).toMatchObject({
      level: 50,
      action: 'create',
      entityType: 'widgets',
      err: { message: 'audit table unavailable' },
    });
    await app.close();
  });
});
