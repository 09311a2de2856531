import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { hashPassword } from '../auth/passwords.js';
import { createLogger, LOG_SERIALIZERS } from '../logger.js';
import { registerErrorHandling } from './error-handler.js';
import { serializeError } from './serialize-error.js';

const ctx = useTestApp();

/** A user insert that violates the unique email index, with a password hash among its parameters. */
async function failingInsert(): Promise<{ error: unknown; hash: string; email: string }> {
  const { user } = await createUser(ctx.container);
  const hash = await hashPassword(`secret-${randomBytes(4).toString('hex')}1`);
  try {
    await ctx.container.repositories.users.insertWithProfile({
      email: user.email,
      name: 'Duplicate',
      passwordHash: hash,
      role: user.role,
      roleId: user.roleId,
      departmentId: user.departmentId,
      phone: null,
      isActive: true,
      extraPermissions: [],
      revokedPermissions: [],
      extraDepartmentIds: [],
      revokedDepartmentIds: [],
    });
  } catch (error) {
    return { error, hash, email: user.email };
  }
  throw new Error('the duplicate insert did not fail');
}

describe('logged errors', () => {
  it('the process logger uses the error serializer', () => {
    const logger = createLogger('silent') as unknown as Record<symbol, unknown>;
    expect(logger[pino.symbols.serializersSym]).toMatchObject({ err: serializeError });
  });

  it('a failed query is logged with its SQL error code and message, never its parameters', async () => {
    const { error, hash, email } = await failingInsert();
    // The driver's error does carry them: this is what must not reach the log.
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).toContain(hash);

    const lines: string[] = [];
    const logger = pino({ serializers: LOG_SERIALIZERS }, { write: (line: string) => void lines.push(line) });
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger }) as unknown as FastifyInstance;
    registerErrorHandling(app);
    app.post('/users', async () => {
      throw error;
    });
    const res = await app.inject({ method: 'POST', url: '/users' });
    await app.close();

    expect(res.statusCode).toBe(500);
    const text = lines.join('\n');
    expect(text).not.toContain(hash);
    expect(text).not.toContain(email);
    const logged = lines.map((line) => JSON.parse(line)).find((l) => l.msg === 'request failed');
    expect(logged.err.cause).toMatchObject({
      code: '23505',
      message: expect.stringContaining('duplicate key value violates unique constraint'),
    });
    expect(logged.err.message).toContain('params: [omitted]');
    expect(logged.err).not.toHaveProperty('params');
  });

  it('keeps plain errors whole, including their own fields and nested causes', () => {
    const inner = Object.assign(new Error('inner'), { code: 'E_INNER', params: ['x'] });
    const outer = Object.assign(new Error('outer', { cause: inner }), { statusCode: 502 });
    expect(serializeError(outer)).toMatchObject({
      type: 'Error',
      message: 'outer',
      statusCode: 502,
      cause: { type: 'Error', message: 'inner', code: 'E_INNER' },
    });
    expect((serializeError(outer) as { cause: object }).cause).not.toHaveProperty('params');
  });
});
