import type { GraphRequest } from '../fakes/chanA-graph-server.js';
import { type MessageTag, messageTag, tagOf } from './company.js';
import type { AcceptedMessage } from './stream.js';

/** A reply as the platform received it, in arrival order. */
export interface ArrivedReply extends MessageTag {
  tag: string;
}

/** The replies to stream `stream`'s messages among the fake platform's requests (sends to `/{phone-number-id}/messages`). */
export function arrivedReplies(requests: readonly GraphRequest[], stream: number): ArrivedReply[] {
  const replies: ArrivedReply[] = [];
  for (const request of requests) {
    if (request.method !== 'POST' || !request.path.endsWith('/messages')) continue;
    const text = (request.body.text as { body?: string } | undefined)?.body ?? '';
    const tag = tagOf(text);
    if (tag?.stream === stream) replies.push({ ...tag, tag: messageTag(tag) });
  }
  return replies;
}

export interface Tally {
  accepted: number;
  /** Accepted messages without a reply. */
  lost: string[];
  /** Messages answered more than once where the service logged no possible duplicate. */
  doubled: string[];
  /** Repeats the service logged as possible duplicates. */
  loggedRepeats: number;
  /** Senders whose replies arrived in another order than their messages. */
  outOfOrder: number[];
}

/**
 * Counts what the platform received against what it was told arrived: every
 * accepted message answered once; a repeat counts as doubled unless its
 * message is among `loggedDuplicates` (the tags of the replies the service
 * logged as possible duplicates); each sender's replies in its messages' order
 * (repeats left out).
 */
export function tally(
  accepted: readonly AcceptedMessage[],
  replies: readonly ArrivedReply[],
  loggedDuplicates: readonly string[],
): Tally {
  const replyCount = new Map<string, number>();
  for (const reply of replies) replyCount.set(reply.tag, (replyCount.get(reply.tag) ?? 0) + 1);
  const logged = new Map<string, number>();
  for (const tag of loggedDuplicates) logged.set(tag, (logged.get(tag) ?? 0) + 1);

  const lost = accepted.filter((m) => !replyCount.has(m.tag)).map((m) => m.tag);
  const doubled = [...replyCount]
    .filter(([tag, count]) => count - 1 > (logged.get(tag) ?? 0))
    .map(([tag]) => tag);

  const lastSeen = new Map<number, number>();
  const seen = new Set<string>();
  const outOfOrder = new Set<number>();
  for (const reply of replies) {
    if (seen.has(reply.tag)) continue;
    seen.add(reply.tag);
    const last = lastSeen.get(reply.sender);
    if (last !== undefined && reply.n < last) outOfOrder.add(reply.sender);
    lastSeen.set(reply.sender, Math.max(last ?? -1, reply.n));
  }
  const loggedRepeats = [...replyCount].reduce(
    (sum, [tag, count]) => sum + Math.min(count - 1, logged.get(tag) ?? 0),
    0,
  );
  return { accepted: accepted.length, lost, doubled, loggedRepeats, outOfOrder: [...outOfOrder] };
}
