import { lookup as dnsLookupAll } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { refusalReason } from '../../../core/net/address-policy.js';
import { IngestionError } from './errors.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export interface HttpRequest {
  url: URL;
  /** The address already checked against the policy; the connection must go there and nowhere else. */
  address: ResolvedAddress;
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** Sends one GET and answers the response head with its body still unread. */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;

export interface FetchGuards {
  /** Private, loopback and link-local addresses are allowed (KNOWLEDGE_URL_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** DNS resolution; the system resolver by default. */
  lookup?: LookupFn;
  /** The HTTP client; node:http(s) pinned to the checked address by default. */
  transport?: HttpTransport;
}

export interface FetchedResource {
  /** The URL the body came from, after redirects. */
  url: string;
  contentType: string | null;
  body: Buffer;
  redirects: number;
}

/** URL documents: 20 s for the whole fetch, at most 5 redirects, the upload size limit. */
export function ingestionFetchGuards(allowPrivate: boolean, maxBytes: number): FetchGuards {
  return { allowPrivate, maxBytes, timeoutMs: 20_000, maxRedirects: 5 };
}

export const systemLookup: LookupFn = async (hostname) => {
  const found = await dnsLookupAll(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * node:http(s) with the socket pinned to the address the policy approved, so
 * a second DNS answer (rebinding) cannot send the request elsewhere.
 */
export const nodeTransport: HttpTransport = (request) =>
  new Promise((resolve, reject) => {
    const pinned: LookupFunction = (_hostname, options, callback) => {
      const { address, family } = request.address;
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [{ address, family }]);
      } else callback(null, address, family);
    };
    const client = request.url.protocol === 'https:' ? https : http;
    const req = client.request(
      request.url,
      { method: 'GET', headers: request.headers, signal: request.signal, lookup: pinned },
      (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
    );
    req.on('error', reject);
    req.end();
  });

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The addresses `hostname` stands for: itself when it is an IP literal, else the lookup's answer. */
async function resolveHost(hostname: string, lookup: LookupFn): Promise<ResolvedAddress[]> {
  const family = isIP(hostname);
  if (family !== 0) return [{ address: hostname, family: family === 6 ? 6 : 4 }];
  let found: ResolvedAddress[];
  try {
    found = await lookup(hostname);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA')
      throw new IngestionError(`Host ${hostname} does not exist`);
    throw error;
  }
  if (found.length === 0) throw new IngestionError(`Host ${hostname} has no address`);
  return found;
}

/**
 * Checks one hop: http or https, no credentials, and, unless private
 * addresses are allowed, every address the host resolves to is public.
 * Answers the address to connect to.
 * @throws IngestionError naming the refused address.
 */
export async function checkHop(
  url: URL,
  guards: Pick<FetchGuards, 'allowPrivate' | 'lookup'>,
): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new IngestionError(`Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new IngestionError('URLs with credentials are not fetched');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await resolveHost(hostname, guards.lookup ?? systemLookup);
  if (!guards.allowPrivate) {
    // Every answer must be public: a host with one public and one private address is refused.
    for (const { address } of addresses) {
      const reason = refusalReason(hostname, address, 'KNOWLEDGE_URL_ALLOW_PRIVATE');
      if (reason) throw new IngestionError(`URL refused: ${reason}`);
    }
  }
  return addresses[0]!;
}

async function readCapped(body: Readable, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      throw new IngestionError(`The page is larger than ${maxBytes} bytes`);
    }
    parts.push(buffer);
  }
  return Buffer.concat(parts);
}

/**
 * GETs a URL for ingestion with SSRF guards: http(s) only, every hop's
 * addresses checked after DNS resolution (and the connection pinned to the
 * checked address), at most `maxRedirects` redirects, each checked the same
 * way, a size cap and an overall timeout.
 * @throws IngestionError for what retrying will not fix (refused address, 4xx, too big, too many redirects);
 *   other errors (timeouts, refused connections, 5xx) are thrown as they are, so the job is retried.
 */
export async function fetchWithGuards(url: string, guards: FetchGuards): Promise<FetchedResource> {
  const transport = guards.transport ?? nodeTransport;
  const signal = AbortSignal.timeout(guards.timeoutMs);
  let current = new URL(url);
  for (let redirects = 0; ; redirects++) {
    const address = await checkHop(current, guards);
    signal.throwIfAborted();
    let response: HttpResponse;
    try {
      response = await transport({
        url: current,
        address,
        signal,
        headers: {
          'user-agent': 'assistant-orchestrator knowledge ingestion',
          accept: 'text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf,*/*;q=0.5',
          'accept-encoding': 'identity',
        },
      });
    } catch (error) {
      if (signal.aborted) throw new Error(`Fetching ${current.href} timed out after ${guards.timeoutMs} ms`);
      throw error;
    }
    const location = response.headers.location;
    if (REDIRECTS.has(response.status) && location) {
      response.body.resume();
      if (redirects >= guards.maxRedirects) {
        throw new IngestionError(`More than ${guards.maxRedirects} redirects, the last to ${location}`);
      }
      current = new URL(location, current);
      continue;
    }
    if (response.status >= 500) {
      response.body.resume();
      throw new Error(`${current.href} answered HTTP ${response.status}`);
    }
    if (response.status < 200 || response.status >= 300) {
      response.body.resume();
      throw new IngestionError(`${current.href} answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > guards.maxBytes) {
      response.body.destroy();
      throw new IngestionError(`The page is larger than ${guards.maxBytes} bytes`);
    }
    try {
      const body = await readCapped(response.body, guards.maxBytes);
      return { url: current.href, contentType: response.headers['content-type'] ?? null, body, redirects };
    } catch (error) {
      if (signal.aborted) throw new Error(`Fetching ${current.href} timed out after ${guards.timeoutMs} ms`);
      throw error;
    }
  }
}
