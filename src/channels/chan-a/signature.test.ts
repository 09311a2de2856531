import { describe, expect, it } from 'vitest';
import { sign } from '../../../test/fakes/chanA-webhooks.js';
import { isValidSignature, secretsEqual, signatureOf } from './signature.js';

const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

describe('webhook signature', () => {
  it('accepts the HMAC-SHA256 of the exact bytes under the app secret, in either hex case', () => {
    const header = sign(body, 'app-secret');
    expect(signatureOf(body, 'app-secret')).toBe(header);
    expect(isValidSignature(body, header, 'app-secret')).toBe(true);
    expect(isValidSignature(body, `sha256=${header.slice(7).toUpperCase()}`, 'app-secret')).toBe(true);
  });

  it('refuses another secret, changed bytes, a missing header and malformed headers', () => {
    const header = sign(body, 'app-secret');
    expect(isValidSignature(body, header, 'other-secret')).toBe(false);
    expect(isValidSignature(Buffer.from(`${body.toString()} `), header, 'app-secret')).toBe(false);
    expect(isValidSignature(body, undefined, 'app-secret')).toBe(false);
    for (const bad of [
      '',
      'sha256=',
      header.slice(7),
      `sha1=${header.slice(7)}`,
      `${header}00`,
      'sha256=zz',
    ]) {
      expect(isValidSignature(body, bad, 'app-secret'), bad).toBe(false);
    }
  });

  it('compares verify tokens of any length without throwing', () => {
    expect(secretsEqual('token', 'token')).toBe(true);
    expect(secretsEqual('token', 'token2')).toBe(false);
    expect(secretsEqual('', 'token')).toBe(false);
  });
});
