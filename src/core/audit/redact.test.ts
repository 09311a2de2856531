import { describe, expect, it } from 'vitest';
import { actionFor, entityTypeFor } from './audit-hook.js';
import { MAX_STRING_LENGTH, REDACTED, redactSecrets } from './redact.js';

describe('redactSecrets', () => {
  it('replaces every key containing password, token or secret, in any case and at any depth', () => {
    const input = {
      email: 'a@example.test',
      password: 'hunter22',
      newPassword: 'x',
      PASSWORD_CONFIRM: 'x',
      nested: { resetToken: 't', deeper: [{ clientSecret: 's', keep: 1 }] },
      accessTokens: ['a', 'b'],
      apiKey: 'k',
      harmless: 'token in a value stays',
    };
    expect(redactSecrets(input)).toEqual({
      email: 'a@example.test',
      password: REDACTED,
      newPassword: REDACTED,
      PASSWORD_CONFIRM: REDACTED,
      nested: { resetToken: REDACTED, deeper: [{ clientSecret: REDACTED, keep: 1 }] },
      accessTokens: REDACTED,
      apiKey: REDACTED,
      harmless: 'token in a value stays',
    });
  });

  it('never modifies its input', () => {
    const input = { password: 'p', list: [{ token: 't' }] };
    redactSecrets(input);
    expect(input).toEqual({ password: 'p', list: [{ token: 't' }] });
  });

  it('keeps scalars, turns undefined into null, bytes into their size and cuts long strings', () => {
    expect(redactSecrets(undefined)).toBeNull();
    expect(redactSecrets(5)).toBe(5);
    expect(redactSecrets(true)).toBe(true);
    expect(redactSecrets(Buffer.from('abc'))).toBe('[binary 3 bytes]');
    const long = redactSecrets('x'.repeat(MAX_STRING_LENGTH + 5)) as string;
    expect(long.startsWith('x'.repeat(MAX_STRING_LENGTH))).toBe(true);
    expect(long.endsWith('[truncated]')).toBe(true);
  });
});

describe('actionFor', () => {
  it('follows the documented action table', () => {
    expect(actionFor('POST', '/api/v1/auth/login')).toBe('login');
    expect(actionFor('POST', '/api/v1/approvals/:id/approve')).toBe('approve');
    expect(actionFor('POST', '/api/v1/approvals/:id/reject')).toBe('reject');
    expect(actionFor('POST', '/api/v1/approvals/:id/escalate')).toBe('escalate');
    expect(actionFor('POST', '/api/v1/approvals/batch')).toBe('create');
    expect(actionFor('POST', '/api/v1/departments')).toBe('create');
    expect(actionFor('PATCH', '/api/v1/departments/:id')).toBe('update');
    expect(actionFor('PUT', '/api/v1/things/:id')).toBe('update');
    expect(actionFor('DELETE', '/api/v1/roles/:id')).toBe('delete');
  });
});

describe('entityTypeFor', () => {
  it('takes the first path segment after the API prefix', () => {
    expect(entityTypeFor('/api/v1/users/:id/permissions/grant', '/api/v1')).toBe('users');
    expect(entityTypeFor('/api/v1/departments', '/api/v1')).toBe('departments');
    expect(entityTypeFor('/admin/queues/api/retry', '/api/v1')).toBe('admin');
    expect(entityTypeFor('/api/v1', '/api/v1')).toBe('unknown');
  });
});
