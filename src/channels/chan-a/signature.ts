import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The header the platform signs each webhook POST with: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const SIGNATURE_HEADER = 'x-hub-signature-256';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** The header value the platform sends for `body` signed with the app secret. */
export function signatureOf(body: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/**
 * True when `header` is the HMAC-SHA256 of exactly these bytes under the app
 * secret. The digests are compared in constant time (both 32 bytes), so the
 * time taken says nothing about how much of a forged signature was right.
 */
export function isValidSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  const given = SIGNATURE.exec(header?.trim() ?? '')?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

/**
 * Compares two secrets in constant time whatever their lengths: both are
 * hashed first, so the buffers compared are always 32 bytes long.
 */
export function secretsEqual(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
