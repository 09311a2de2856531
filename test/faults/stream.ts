import { setTimeout as sleep } from 'node:timers/promises';
import { sign, textMessage, wamid, webhookPayload } from '../fakes/chanA-webhooks.js';
import { faultMessageText, messageTag } from './company.js';

/** A message the webhook answered 200: the platform considers it delivered. */
export interface AcceptedMessage {
  sender: number;
  /** The sender's message number, from 0, in the order sent. */
  n: number;
  tag: string;
  /** When its first 200 arrived (Date.now()). */
  at: number;
}

export interface StreamOptions {
  /** Tags this stream's messages apart from other streams' (see {@link messageTag}). */
  stream: number;
  webhookUrl: string;
  appSecret: string;
  /** One sender per phone; each sends `perSender` messages, one after the other. */
  phones: readonly string[];
  perSender: number;
  /** The pause between a sender's 200 and its next message, drawn from [min, max] ms. */
  gapMs: readonly [number, number];
  /** Share of deliveries sent twice: half of them at once, half after the first 200. */
  replayRate: number;
  random: () => number;
  /** A delivery not answered 200 by then fails the stream. */
  giveUpAfterMs?: number;
}

export interface Stream {
  /** Accepted messages, in the order their 200s arrived. */
  readonly accepted: AcceptedMessage[];
  /** Deliveries posted (first tries, retries and replays). */
  readonly counts: { posts: number; retries: number; replays: number };
  /** Resolves once every sender's last message was accepted. */
  readonly done: Promise<void>;
}

const REQUEST_TIMEOUT_MS = 5000;
const RETRY_PAUSE_MS = 100;

/**
 * Plays the platform (WhatsApp Cloud API) posting channel A webhooks: every
 * sender posts its next message only after the previous one got its 200, and
 * a delivery that fails (no answer, a 5xx, the api process gone) is posted
 * again until it is accepted, as the platform retries. A share of deliveries
 * is replayed, some at the same instant.
 */
export function startStream(options: StreamOptions): Stream {
  const accepted: AcceptedMessage[] = [];
  const counts = { posts: 0, retries: 0, replays: 0 };
  const giveUpAfter = options.giveUpAfterMs ?? 120_000;

  async function post(body: string): Promise<boolean> {
    counts.posts += 1;
    try {
      const response = await fetch(options.webhookUrl, {
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

  async function deliver(body: string): Promise<void> {
    const deadline = Date.now() + giveUpAfter;
    while (!(await post(body))) {
      if (Date.now() > deadline) throw new Error(`a delivery was refused for ${giveUpAfter} ms`);
      counts.retries += 1;
      await sleep(RETRY_PAUSE_MS);
    }
  }

  async function sender(index: number, phone: string): Promise<void> {
    for (let n = 0; n < options.perSender; n++) {
      const tag = messageTag({ stream: options.stream, sender: index, n });
      const body = senderWebhookBody(phone, index, tag);
      const replay =
        options.random() < options.replayRate ? (options.random() < 0.5 ? 'together' : 'after') : null;
      if (replay) counts.replays += 1;
      if (replay === 'together') await Promise.all([deliver(body), deliver(body)]);
      else await deliver(body);
      accepted.push({ sender: index, n, tag, at: Date.now() });
      if (replay === 'after') await deliver(body);
      const [min, max] = options.gapMs;
      await sleep(min + options.random() * (max - min));
    }
  }

  const done = Promise.all(options.phones.map((phone, index) => sender(index, phone))).then(() => undefined);
  return { accepted, counts, done };
}

/** One webhook POST body: sender `index`'s tagged message from `phone`, with a fresh message id. */
export function senderWebhookBody(phone: string, index: number, tag: string): string {
  return JSON.stringify(
    webhookPayload({
      messages: [textMessage(phone, faultMessageText(tag), wamid())],
      contacts: [{ waId: phone, name: `Sender ${index}` }],
    }),
  );
}
