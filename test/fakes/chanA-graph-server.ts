import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer } from '../http-server.js';

/** One request the fake received. */
export interface GraphRequest {
  method: string;
  /** Path without the API version prefix, e.g. `/123456/messages`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** A messages call the fake accepted: the id it answered (`wamid.fake-<n>`). */
  messageId?: string;
}

/** A canned answer for the next matching request. */
export interface GraphReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeGraphMedia {
  mimeType: string;
  bytes: Buffer;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the parts of the WhatsApp Cloud
 * API (Graph) protocol that channel A uses:
 *
 * - `POST /{phone-number-id}/messages` answers `{ messaging_product, contacts, messages: [{ id }] }`
 *   with ids `wamid.fake-1`, `wamid.fake-2`…;
 * - `GET /oauth/access_token?grant_type=fb_exchange_token&…` answers a new long-lived token
 *   (`exchanged-token-<n>`, `expires_in` 60 days);
 * - `GET /{media-id}` answers the media's metadata with a download `url` on this server,
 *   and `GET /media-download/{media-id}` its bytes (both need the bearer token).
 *
 * Paths may carry a version prefix (`/v21.0/…`); it is ignored, so
 * `CHANA_API_BASE_URL` can be `url` or `url + '/v21.0'`. Every request is
 * recorded. `replyNext(route, reply)` queues a canned answer (an error with
 * its Graph error body, a 429 with Retry-After…) for the next request to that
 * route; the queue drains one answer per request, then normal service resumes.
 */
export async function startFakeGraphServer() {
  const requests: GraphRequest[] = [];
  const queued: Record<'messages' | 'token' | 'media', GraphReply[]> = { messages: [], token: [], media: [] };
  const media = new Map<string, FakeGraphMedia>();
  let sent = 0;
  let exchanged = 0;

  const send = (res: ServerResponse, reply: GraphReply) => {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body));
  };
  const graphError = (status: number, message: string, code: number): GraphReply => ({
    status,
    body: { error: { message, type: 'OAuthException', code, fbtrace_id: 'fake' } },
  });

  const server = await startHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/v\d+(\.\d+)?(?=\/)/, '');
    let body: Record<string, unknown> = {};
    if (chunks.length) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(res, graphError(400, 'Invalid JSON', 100));
      }
    }
    const record: GraphRequest = {
      method: req.method ?? 'GET',
      path,
      query: url.searchParams,
      headers: req.headers,
      body,
    };
    requests.push(record);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];

    if (req.method === 'POST' && /^\/[^/]+\/messages$/.test(path)) {
      const canned = queued.messages.shift();
      if (canned) return send(res, canned);
      if (!bearer) return send(res, graphError(401, 'Missing access token', 190));
      sent += 1;
      record.messageId = `wamid.fake-${sent}`;
      return send(res, {
        status: 200,
        body: {
          messaging_product: 'whatsapp',
          contacts: [{ input: String(body.to ?? ''), wa_id: String(body.to ?? '') }],
          messages: [{ id: record.messageId }],
        },
      });
    }
    if (req.method === 'GET' && path === '/oauth/access_token') {
      const canned = queued.token.shift();
      if (canned) return send(res, canned);
      if (
        url.searchParams.get('grant_type') !== 'fb_exchange_token' ||
        !url.searchParams.get('fb_exchange_token')
      )
        return send(res, graphError(400, 'Invalid grant', 100));
      exchanged += 1;
      return send(res, {
        status: 200,
        body: {
          access_token: `exchanged-token-${exchanged}`,
          token_type: 'bearer',
          expires_in: 60 * 24 * 3600,
        },
      });
    }
    const download = /^\/media-download\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && download) {
      const item = media.get(decodeURIComponent(download[1] ?? ''));
      if (!bearer) return send(res, graphError(401, 'Missing access token', 190));
      if (!item) return send(res, graphError(404, 'Unknown media', 100));
      res.writeHead(200, { 'content-type': item.mimeType, 'content-length': String(item.bytes.length) });
      return res.end(item.bytes);
    }
    const mediaInfo = /^\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && mediaInfo) {
      const canned = queued.media.shift();
      if (canned) return send(res, canned);
      const id = decodeURIComponent(mediaInfo[1] ?? '');
      const item = media.get(id);
      if (!bearer) return send(res, graphError(401, 'Missing access token', 190));
      if (!item) return send(res, graphError(404, 'Unknown media', 100));
      return send(res, {
        status: 200,
        body: {
          messaging_product: 'whatsapp',
          id,
          url: `${server.url}/media-download/${encodeURIComponent(id)}`,
          mime_type: item.mimeType,
          file_size: item.bytes.length,
          sha256: 'fake',
        },
      });
    }
    return send(res, graphError(404, `Unknown path ${path}`, 100));
  });

  return {
    url: server.url,
    /** Every request so far, oldest first. */
    requests,
    /** The `POST …/messages` calls so far, oldest first. */
    messageCalls: () => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')),
    /** Queues a canned answer for the next request to `route`. */
    replyNext(route: 'messages' | 'token' | 'media', reply: GraphReply) {
      queued[route].push(reply);
    },
    /** A Graph error body as the platform sends it (e.g. 131047 outside the 24-hour window). */
    graphError,
    /** Makes a media id downloadable. */
    addMedia(id: string, item: FakeGraphMedia) {
      media.set(id, item);
    },
    close: () => server.close(),
  };
}

export type FakeGraphServer = Awaited<ReturnType<typeof startFakeGraphServer>>;
