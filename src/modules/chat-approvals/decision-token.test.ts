import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDecisionTokens, DECISIONS, MAX_ESCALATION_CHOICES } from './decision-token.js';

describe('decision tokens', () => {
  const tokens = createDecisionTokens('test-secret-that-is-long-enough-for-hs256-signing');

  it('reads back every decision, within the 64 bytes of callback data, without the id in clear', () => {
    const requestId = randomUUID();
    for (const decision of DECISIONS) {
      const token = tokens.sign({ requestId, decision });
      expect(Buffer.byteLength(token)).toBeLessThanOrEqual(64);
      expect(token).toMatch(/^apv:[A-Za-z0-9_-]+$/);
      expect(token).not.toContain(requestId.replaceAll('-', ''));
      expect(tokens.read(token)).toEqual({ requestId, decision });
    }
  });

  it('reads back an escalation choice, and signs none outside the list', () => {
    const requestId = randomUUID();
    for (const choice of [0, 7, MAX_ESCALATION_CHOICES - 1]) {
      const token = tokens.sign({ requestId, decision: 'escalate-to', choice });
      expect(Buffer.byteLength(token)).toBeLessThanOrEqual(64);
      expect(tokens.read(token)).toEqual({ requestId, decision: 'escalate-to', choice });
    }
    expect(() => tokens.sign({ requestId, decision: 'escalate-to', choice: MAX_ESCALATION_CHOICES })).toThrow(
      /no such escalation choice/,
    );
  });

  it('refuses a token changed in any character, signed with another secret, or not a token at all', () => {
    const token = tokens.sign({ requestId: randomUUID(), decision: 'approve' });
    const body = token.slice(4);
    for (let i = 0; i < body.length; i += 1) {
      const swapped = body[i] === 'A' ? 'B' : 'A';
      const changed = `apv:${body.slice(0, i)}${swapped}${body.slice(i + 1)}`;
      expect(tokens.read(changed), `character ${i}`).toBeNull();
    }
    const foreign = createDecisionTokens('another-secret-that-is-long-enough-for-signing');
    expect(foreign.read(token)).toBeNull();
    for (const other of ['', 'apv:', 'apv:abc', `apv:${body}A`, body, 'rate:up', `xyz:${body}`]) {
      expect(tokens.read(other)).toBeNull();
    }
  });

  it('refuses to sign what is not a request id', () => {
    expect(() => tokens.sign({ requestId: 'approval-1', decision: 'approve' })).toThrow(/not a UUID/);
  });
});
