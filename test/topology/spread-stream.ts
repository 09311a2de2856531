import { setTimeout as sleep } from 'node:timers/promises';
import { sign } from '../fakes/chanA-webhooks.js';
import { messageTag } from '../faults/company.js';
import { type AcceptedMessage, senderWebhookBody } from '../faults/stream.js';

/** An accepted message and the api (index into the webhook URLs) that answered its 200. */
export interface SpreadAccepted extends AcceptedMessage {
  api: number;
}

export interface SpreadStreamOptions {
  /** Tags this stream's messages apart from other streams' (see {@link messageTag}). */
  stream: number;
  /** One channel A webhook URL per api process. */
  webhookUrls: readonly string[];
  appSecret: string;
  /** One sender per phone; each sends `perSender` messages, the next after the previous 200. */
  phones: readonly string[];
  perSender: number;
  /** A delivery no api accepted by then fails the stream. */
  giveUpAfterMs?: number;
  /**
   * Each sender waits for `open` after its first `afterMessages` were
   * accepted: a fault applied meanwhile is certain to meet messages still
   * to come, however fast the first ones went.
   */
  pause?: { afterMessages: number; open: Promise<void> };
}

export interface SpreadStream {
  /** Accepted messages, in the order their 200s arrived. */
  readonly accepted: SpreadAccepted[];
  /** Deliveries an api refused or did not answer, each posted again to the next api. */
  readonly refused: { count: number };
  /** Resolves once every sender's last message was accepted. */
  readonly done: Promise<void>;
}

const REQUEST_TIMEOUT_MS = 5000;
/** The platform's pause before it posts a refused delivery again. */
const RETRY_PAUSE_MS = 50;

/**
 * Plays the platform posting channel A webhooks to several api processes
 * behind one address, as a load balancer spreads them: a sender's messages
 * go to the apis in turn (sender `s`'s `n`-th message to api `(s + n) % apis`),
 * and a delivery one api refuses or does not answer (it stopped) is posted
 * again to the next, until one accepts it.
 */
export function startSpreadStream(options: SpreadStreamOptions): SpreadStream {
  const accepted: SpreadAccepted[] = [];
  const refused = { count: 0 };
  const giveUpAfter = options.giveUpAfterMs ?? 30_000;
  const apis = options.webhookUrls.length;

  async function post(url: string, body: string): Promise<boolean> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body, options.appSecret) },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  }

  /** Posts until an api answers 200; answers that api's index. */
  async function deliver(body: string, firstApi: number): Promise<number> {
    const deadline = Date.now() + giveUpAfter;
    for (let api = firstApi; ; api = (api + 1) % apis) {
      if (await post(options.webhookUrls[api] ?? '', body)) return api;
      if (Date.now() > deadline) throw new Error(`a delivery was refused by every api for ${giveUpAfter} ms`);
      refused.count += 1;
      await sleep(RETRY_PAUSE_MS);
    }
  }

  async function sender(index: number, phone: string): Promise<void> {
    for (let n = 0; n < options.perSender; n++) {
      const tag = messageTag({ stream: options.stream, sender: index, n });
      const body = senderWebhookBody(phone, index, tag);
      const api = await deliver(body, (index + n) % apis);
      accepted.push({ sender: index, n, tag, at: Date.now(), api });
      if (n + 1 === options.pause?.afterMessages) await options.pause.open;
    }
  }

  const done = Promise.all(options.phones.map((phone, index) => sender(index, phone))).then(() => undefined);
  return { accepted, refused, done };
}
