import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalHttpServer, startHttpServer } from '../../../../test/http-server.js';
import { IngestionError } from './errors.js';
import {
  checkHop,
  type FetchGuards,
  fetchWithGuards,
  type HttpTransport,
  type LookupFn,
  nodeTransport,
} from './url-fetch.js';

let server: LocalHttpServer;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    hits.push(url.pathname);
    const redirect = /^\/r\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const left = Number(redirect[1]);
      res.writeHead(302, { location: left > 0 ? `/r/${left - 1}` : '/page' }).end();
      return;
    }
    switch (url.pathname) {
      case '/page':
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end('<p>Hello from the intranet</p>');
        return;
      case '/to-loopback':
        res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
        return;
      case '/to-metadata':
        res.writeHead(301, { location: `http://metadata.example.test:${port}/secret` }).end();
        return;
      case '/secret':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret');
        return;
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5000' }).end('x'.repeat(5000));
        return;
      case '/big-chunked':
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 5; i++) res.write('y'.repeat(1000));
        res.end();
        return;
      case '/missing':
        res.writeHead(404).end('no');
        return;
      case '/down':
        res.writeHead(503).end('later');
        return;
      case '/hang':
        // Never answers: the fetch must give up on its own.
        return;
      default:
        res.writeHead(500).end();
    }
  });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server.close();
});

/** A resolver for test host names: `docs.example.test` looks public, the others do not. */
const lookup: LookupFn = async (hostname) => {
  const table: Record<string, string[]> = {
    'docs.example.test': ['203.0.113.7'],
    'intranet.example.test': ['10.1.2.3'],
    'metadata.example.test': ['169.254.169.254'],
    'split.example.test': ['203.0.113.8', '192.168.0.10'],
  };
  const found = table[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: 4 as const }));
};

/**
 * Connects wherever the policy said, but on this machine: the public-looking
 * address of docs.example.test is served by the local test server, so a real
 * server answers the first hop and its redirects are checked for real.
 */
const toLocalServer: HttpTransport = (request) =>
  nodeTransport({ ...request, address: { address: '127.0.0.1', family: 4 } });

const guards = (overrides: Partial<FetchGuards> = {}): FetchGuards => ({
  allowPrivate: false,
  timeoutMs: 5000,
  maxBytes: 2000,
  maxRedirects: 5,
  lookup,
  ...overrides,
});

const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(IngestionError);

describe('checkHop', () => {
  it('refuses anything but http and https, and URLs with credentials', async () => {
    await refused(checkHop(new URL('file:///etc/passwd'), guards()));
    await refused(checkHop(new URL('ftp://docs.example.test/x'), guards()));
    await expect(checkHop(new URL('http://user:pw@docs.example.test/'), guards())).rejects.toThrow(
      /credentials/,
    );
  });

  it('refuses a host that resolves to a private address, naming it', async () => {
    await expect(checkHop(new URL('http://intranet.example.test/'), guards())).rejects.toThrow(
      /intranet\.example\.test \(10\.1\.2\.3\) is a private address/,
    );
  });

  it('refuses a host when any of its addresses is private', async () => {
    await expect(checkHop(new URL('http://split.example.test/'), guards())).rejects.toThrow(
      /192\.168\.0\.10/,
    );
  });

  it('refuses IP literals of loopback and link-local ranges without asking DNS', async () => {
    await expect(checkHop(new URL('http://127.0.0.1/'), guards())).rejects.toThrow(/loopback address/);
    await expect(checkHop(new URL('http://[::1]:8080/'), guards())).rejects.toThrow(/loopback address/);
    await expect(checkHop(new URL('http://169.254.169.254/latest'), guards())).rejects.toThrow(/link-local/);
  });

  it('answers the checked address of a public host, and any address when private ones are allowed', async () => {
    expect(await checkHop(new URL('https://docs.example.test/a'), guards())).toEqual({
      address: '203.0.113.7',
      family: 4,
    });
    expect(await checkHop(new URL('http://intranet.example.test/'), guards({ allowPrivate: true }))).toEqual({
      address: '10.1.2.3',
      family: 4,
    });
  });

  it('reports a host that does not exist as an ingestion error', async () => {
    await expect(checkHop(new URL('http://nowhere.example.test/'), guards())).rejects.toThrow(
      /does not exist/,
    );
  });
});

describe('fetchWithGuards against a real local server', () => {
  const local = (path: string) => `http://127.0.0.1:${port}${path}`;
  const viaPublicName = (path: string) => `http://docs.example.test:${port}${path}`;

  it('refuses the local server by default, before connecting', async () => {
    const before = hits.length;
    await expect(fetchWithGuards(local('/page'), guards())).rejects.toThrow(/private address/);
    expect(hits.length).toBe(before);
  });

  it('fetches it when private addresses are allowed', async () => {
    const page = await fetchWithGuards(local('/page'), guards({ allowPrivate: true }));
    expect(page.body.toString()).toContain('Hello from the intranet');
    expect(page.contentType).toBe('text/html; charset=utf-8');
    expect(page.redirects).toBe(0);
  });

  it('follows a public first hop but refuses its redirect to a loopback address', async () => {
    hits.length = 0;
    await expect(
      fetchWithGuards(viaPublicName('/to-loopback'), guards({ transport: toLocalServer })),
    ).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    expect(hits).toEqual(['/to-loopback']);
  });

  it('refuses a redirect to a host that resolves to a link-local address', async () => {
    hits.length = 0;
    await expect(
      fetchWithGuards(viaPublicName('/to-metadata'), guards({ transport: toLocalServer })),
    ).rejects.toThrow(/metadata\.example\.test \(169\.254\.169\.254\) is a link-local address/);
    expect(hits).toEqual(['/to-metadata']);
  });

  it('follows up to five redirects and refuses a sixth', async () => {
    const allow = guards({ transport: toLocalServer });
    const fine = await fetchWithGuards(viaPublicName('/r/4'), allow);
    expect(fine.redirects).toBe(5);
    expect(fine.url).toBe(viaPublicName('/page'));
    await expect(fetchWithGuards(viaPublicName('/r/5'), allow)).rejects.toThrow(/More than 5 redirects/);
  });

  it('refuses bodies over the size cap, declared or streamed', async () => {
    const allow = guards({ allowPrivate: true, maxBytes: 2000 });
    await expect(fetchWithGuards(local('/big-declared'), allow)).rejects.toThrow(/larger than 2000 bytes/);
    await expect(fetchWithGuards(local('/big-chunked'), allow)).rejects.toThrow(/larger than 2000 bytes/);
  });

  it('fails a 4xx for good and leaves a 5xx or a timeout to the retries', async () => {
    const allow = guards({ allowPrivate: true });
    await refused(fetchWithGuards(local('/missing'), allow));
    const down = fetchWithGuards(local('/down'), allow);
    await expect(down).rejects.toThrow(/HTTP 503/);
    await expect(down).rejects.not.toBeInstanceOf(IngestionError);
    const hang = fetchWithGuards(local('/hang'), guards({ allowPrivate: true, timeoutMs: 300 }));
    await expect(hang).rejects.toThrow(/timed out/);
    await expect(hang).rejects.not.toBeInstanceOf(IngestionError);
  });
});
