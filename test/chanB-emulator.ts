import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';

/**
 * `telegram-test-api`, a third-party emulator of the Telegram Bot API protocol, for channel B
 * tests that should not rest on the team's own fake (test/fakes/chanB-bot-server.ts). The
 * emulator keeps no log of the bot's calls, so the service is pointed at a {@link BotApiRecorder}
 * in front of it: a pass-through that writes down each call and the emulator's answer.
 */
export interface ChanBEmulator {
  server: TelegramServer;
  /** The emulator's root; emulated clients (`server.getClient`) talk to it directly. */
  url: string;
  /** What the bot sent to `chat` with `sendMessage`, in order, as the emulator stored it. */
  botMessagesTo(chat: number): TelegramServer['storage']['botMessages'];
  /** A new recording front on its own port: give each service instance its own to tell them apart. */
  recorder(): Promise<BotApiRecorder>;
  close(): Promise<void>;
}

/** One Bot API call that went through a recorder: the method, its parameters and the emulator's answer. */
export interface BotApiCall {
  method: string;
  params: Record<string, unknown>;
  status: number;
  response: unknown;
}

export interface BotApiRecorder {
  /** The Bot API root to give the service (`CHANB_API_BASE_URL`). */
  url: string;
  /** Every call but `getUpdates`, in the order the emulator answered them. */
  calls: BotApiCall[];
  /** How many `getUpdates` calls went through (the emulator answers them at once, so they are many). */
  polls(): number;
  close(): Promise<void>;
}

/** A port nobody listens on now: the emulator takes a fixed one (its `0` means 9000). */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** The parameters of a Bot API request body, JSON (as grammY sends them) or form-encoded. */
function paramsOf(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (!text) return {};
  if (contentType?.includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(text));
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return raw.toString('utf8');
  }
}

/** A pass-through to `target` that records each Bot API call before handing its answer back. */
async function startRecorder(target: URL): Promise<BotApiRecorder> {
  const calls: BotApiCall[] = [];
  let polls = 0;
  const server = createHttpServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(body);
      const upstream = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          const out: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => out.push(chunk));
          answer.on('end', () => {
            const payload = Buffer.concat(out);
            const method = (req.url ?? '').split('?')[0]?.split('/').pop() ?? '';
            if (method === 'getUpdates') polls += 1;
            else
              calls.push({
                method,
                params: paramsOf(raw, req.headers['content-type']),
                status: answer.statusCode ?? 0,
                response: parseJson(payload),
              });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(payload);
          });
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      upstream.end(raw);
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    polls: () => polls,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Starts the emulator on a free local port; `close` stops it and every recorder made from it. */
export async function startChanBEmulator(): Promise<ChanBEmulator> {
  // Stored updates outlive any test run (the emulator drops them after `storeTimeout` seconds).
  const server = new TelegramServer({ port: await freePort(), host: '127.0.0.1', storeTimeout: 600 });
  await server.start();
  const url = server.config.apiURL;
  const recorders: BotApiRecorder[] = [];
  return {
    server,
    url,
    botMessagesTo: (chat) =>
      server.storage.botMessages.filter((m) => String(m.message.chat_id) === String(chat)),
    async recorder() {
      const recorder = await startRecorder(new URL(url));
      recorders.push(recorder);
      return recorder;
    },
    async close() {
      for (const recorder of recorders) await recorder.close();
      await server.stop();
    },
  };
}
