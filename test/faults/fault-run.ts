import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeGraphServer } from '../fakes/chanA-graph-server.js';
import { type StreamOptions, startStream } from './stream.js';
import { arrivedReplies, type Tally, tally } from './tally.js';

export interface FaultRunOptions {
  stream: StreamOptions;
  graph: FakeGraphServer;
  /** The fault is injected once this many messages have been accepted. */
  faultAfterAccepted: number;
  /** Injects the fault and, as a supervisor would, brings back what it took down. */
  fault: () => Promise<void>;
  /** Work the service has not finished (tasks not ended, replies not sent); 0 once it is quiet. */
  unfinished: () => Promise<number>;
  /** The tags of the replies the service logged as possible duplicates (read once it is quiet). */
  loggedDuplicates: () => Promise<string[]>;
  /** How long to wait for every accepted message's reply after the stream ends. */
  settleTimeoutMs?: number;
}

export interface FaultRunResult extends Tally {
  /** From the fault to the first reply the platform received after it. */
  firstReplyMs: number | null;
  /**
   * The longest time without any reply reaching the platform, from the fault
   * until every message was answered: how long work stood still.
   */
  longestPauseMs: number | null;
  /** From the fault to the first reply to a message accepted after it began. */
  resumedMs: number | null;
  /** From the fault until every message accepted before it was answered. */
  backlogMs: number | null;
  counts: { posts: number; retries: number; replays: number };
}

const POLL_MS = 10;

/**
 * Runs a stream of messages, injects the fault mid-stream, waits until every
 * accepted message is answered and the service is quiet, then counts at the
 * fake platform (lost, doubled, out of order) and times the recovery.
 */
export async function runWithFault(options: FaultRunOptions): Promise<FaultRunResult> {
  const stream = startStream(options.stream);
  const failed = stream.done.then(
    () => null,
    (error: unknown) => error,
  );
  while (stream.accepted.length < options.faultAfterAccepted) {
    const error = await Promise.race([failed, sleep(POLL_MS).then(() => undefined)]);
    if (error) throw error;
  }
  const faultAt = Date.now();
  const before = new Set(stream.accepted.map((m) => m.tag));
  let resumedAt: number | null = null;
  let backlogAt: number | null = null;
  /** The fault's instant, then when each reply after it was first seen (every 10 ms). */
  const seenAt: number[] = [faultAt];
  let seen = arrivedReplies(options.graph.requests, options.stream.stream).length;
  const watching = { on: true };
  const watch = (async () => {
    while (watching.on) {
      const arrived = arrivedReplies(options.graph.requests, options.stream.stream);
      for (; seen < arrived.length; seen++) seenAt.push(Date.now());
      const replied = new Set(arrived.map((r) => r.tag));
      if (resumedAt === null && [...replied].some((tag) => !before.has(tag))) resumedAt = Date.now();
      if (backlogAt === null && [...before].every((tag) => replied.has(tag))) backlogAt = Date.now();
      await sleep(POLL_MS);
    }
  })();
  await options.fault();
  const error = await failed;
  if (error) throw error;

  const deadline = Date.now() + (options.settleTimeoutMs ?? 90_000);
  const allReplied = () => {
    const replied = new Set(arrivedReplies(options.graph.requests, options.stream.stream).map((r) => r.tag));
    return stream.accepted.every((m) => replied.has(m.tag));
  };
  while (Date.now() < deadline && !(allReplied() && (await options.unfinished()) === 0)) await sleep(100);
  watching.on = false;
  await watch;

  const counted = tally(
    stream.accepted,
    arrivedReplies(options.graph.requests, options.stream.stream),
    await options.loggedDuplicates(),
  );
  const pauses = seenAt.slice(1).map((at, i) => at - (seenAt[i] ?? at));
  return {
    ...counted,
    firstReplyMs: seenAt.length > 1 ? (seenAt[1] ?? faultAt) - faultAt : null,
    longestPauseMs: pauses.length > 0 ? Math.max(...pauses) : null,
    resumedMs: resumedAt === null ? null : resumedAt - faultAt,
    backlogMs: backlogAt === null ? null : backlogAt - faultAt,
    counts: stream.counts,
  };
}
