import { describe, expect, it } from 'vitest';
import { isConnectionError } from './connection-errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it('recognises a terminated backend, wrapped as Drizzle wraps it', () => {
    const cause = withCode('terminating connection due to administrator command', '57P01');
    expect(isConnectionError(new Error('Failed query: SELECT 1', { cause }))).toBe(true);
  });

  it('recognises connection exceptions, network errors and node-postgres wording', () => {
    expect(isConnectionError(withCode('connection failure', '08006'))).toBe(true);
    expect(isConnectionError(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('leaves failing statements and other errors alone', () => {
    expect(isConnectionError(withCode('duplicate key value violates unique constraint', '23505'))).toBe(
      false,
    );
    expect(isConnectionError(new Error('the model answered 500'))).toBe(false);
    expect(isConnectionError('not an error')).toBe(false);
  });
});
