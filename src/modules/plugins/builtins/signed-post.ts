import { createHmac } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusalReason } from '../../../core/net/address-policy.js';

/** The header that carries the body's signature: `sha256=<hex HMAC-SHA256(body, secret)>`. */
export const SIGNATURE_HEADER = 'x-signature-256';

/** `sha256=<hex>` of `body` under `secret`, as {@link SIGNATURE_HEADER} carries it. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A POST that will not succeed on a retry: refused address, bad URL, 4xx other than 408 and 429. */
export class PermanentDeliveryError extends Error {}

export interface PostGuards {
  /** PLUGIN_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  signal: AbortSignal;
}

/** The address to connect to: every address the host has must be public unless private ones are allowed. */
async function checkedAddress(url: URL, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PermanentDeliveryError(`only http and https URLs are called, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new PermanentDeliveryError('URLs with credentials are not called');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(hostname);
  const addresses =
    literal !== 0
      ? [{ address: hostname, family: literal as 4 | 6 }]
      : (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
          address: a.address,
          family: (a.family === 6 ? 6 : 4) as 4 | 6,
        }));
  if (addresses.length === 0) throw new Error(`host ${hostname} has no address`);
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const reason = refusalReason(hostname, address, 'PLUGIN_WEBHOOK_ALLOW_PRIVATE');
      if (reason) throw new PermanentDeliveryError(`URL refused: ${reason}`);
    }
  }
  return addresses[0]!;
}

/**
 * POSTs a JSON body with the same SSRF guard as URL documents: http(s)
 * only, every address of the host checked after DNS resolution, the socket
 * pinned to the checked address (no rebinding), no redirects followed.
 * Answers the status.
 * @throws PermanentDeliveryError when a retry cannot help; other errors (network, timeout) may be retried.
 */
export async function guardedPost(
  target: string,
  body: string,
  headers: Record<string, string>,
  guards: PostGuards,
): Promise<number> {
  const url = new URL(target);
  const checked = await checkedAddress(url, guards.allowPrivate);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        checked,
      ]);
    } else callback(null, checked.address, checked.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        signal: guards.signal,
        lookup: pinned,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
