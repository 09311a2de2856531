import { describe, expect, it } from 'vitest';
import { normaliseChannelUserId } from './channel-user-id.js';
import { generateLinkCode, hashLinkCode, linkCodeOf, parseLinkCode } from './link-codes.js';

describe('link codes', () => {
  it('are 8 characters of Crockford base32 with a letter and a digit from 2 to 9, each valid as a start parameter', () => {
    for (let i = 0; i < 200; i++) {
      const code = generateLinkCode();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(code).toMatch(/[2-9]/);
      expect(code).toMatch(/[A-Z]/);
      expect(parseLinkCode(code)).toBe(code);
    }
  });

  it('read any case, O as 0 and I or L as 1; words and other lengths are not codes', () => {
    expect(parseLinkCode(' 7k3q9txm ')).toBe('7K3Q9TXM');
    expect(parseLinkCode('AB0DEF1I')).toBe('AB0DEF11');
    expect(parseLinkCode('7bodefli')).toBe('7B0DEF11');
    expect(parseLinkCode('abodefli')).toBeNull();
    expect(parseLinkCode('vacation')).toBeNull();
    expect(parseLinkCode('holidays')).toBeNull();
    expect(parseLinkCode('12345678')).toBeNull();
    expect(parseLinkCode('7K3Q9TX')).toBeNull();
    expect(parseLinkCode('7K3Q9TXM1')).toBeNull();
  });

  it('are found in /start <code> on every channel and alone only where asked', () => {
    expect(linkCodeOf('/start 7K3Q9TXM', { bare: false })).toEqual({ attempt: true, code: '7K3Q9TXM' });
    expect(linkCodeOf('/start@some_bot 7k3q9txm', { bare: false })).toEqual({
      attempt: true,
      code: '7K3Q9TXM',
    });
    expect(linkCodeOf('/start nonsense', { bare: false })).toEqual({ attempt: true, code: null });
    expect(linkCodeOf('/start', { bare: false })).toEqual({ attempt: false, code: null });
    expect(linkCodeOf('7K3Q9TXM', { bare: false })).toEqual({ attempt: false, code: null });
    expect(linkCodeOf('7K3Q9TXM', { bare: true })).toEqual({ attempt: true, code: '7K3Q9TXM' });
    expect(linkCodeOf('How many days?', { bare: true })).toEqual({ attempt: false, code: null });
  });

  it('are stored as a SHA-256 that does not contain the code', () => {
    const hash = hashLinkCode('7K3Q9TXM');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('7K3Q9TXM');
  });
});

describe('channel user ids', () => {
  it('take WhatsApp ids as 8 to 15 E.164 digits (a leading + dropped) and Telegram ids as positive integers', () => {
    expect(normaliseChannelUserId('chanA', '+380501234567')).toBe('380501234567');
    expect(normaliseChannelUserId('chanA', '12345678')).toBe('12345678');
    expect(normaliseChannelUserId('chanA', '1234567')).toBeNull();
    expect(normaliseChannelUserId('chanA', '1234567890123456')).toBeNull();
    expect(normaliseChannelUserId('chanA', '0380501234567')).toBeNull();
    expect(normaliseChannelUserId('chanA', '+38 050 123 45 67')).toBeNull();
    expect(normaliseChannelUserId('chanB', '123456789')).toBe('123456789');
    expect(normaliseChannelUserId('chanB', '0')).toBeNull();
    expect(normaliseChannelUserId('chanB', '-100123')).toBeNull();
    expect(normaliseChannelUserId('chanB', 'olena')).toBeNull();
  });
});
