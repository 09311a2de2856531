/**
 * Open-loop load at a fixed rate, for latency at a given arrival rate:
 * requests leave at Poisson-distributed times averaging `rate` per second
 * whatever the server does, and each latency is measured from the time the
 * request was due, so a server that falls behind is charged for the wait
 * (no coordinated omission).
 *
 * Why not autocannon's `overallRate`: it lets each connection send its
 * whole per-second quota back to back when the second starts and then
 * pause, so the server sees bursts at full speed rather than the rate, and
 * it corrects for coordinated omission with an expected interval of
 * `ceil(1 / rate)` = 1 ms, which adds made-up samples to every response
 * slower than 1 ms. Even a bare route then shows a p99 of 12 ms at 1,000
 * requests/s. autocannon still measures the maximum throughput.
 *
 * The generator shares the machine's cores with the server, so whatever it
 * spends per request delays the requests behind it and is counted as the
 * server's latency. It therefore spends as little as it can, as wrk and
 * autocannon do: every request's bytes (request line, headers, body and
 * its signature) are built before the clock starts, written as one buffer
 * on a kept-alive connection, and a response is read only far enough to
 * find its status and length. Connections are opened during the warm-up
 * and reused; one more is opened only when every open one is busy.
 *
 * Usage (from bench/*.ts, in a child process): node bench/paced-load.mjs '<json>'
 * with { url, rate, durationSec, warmupSec?, secret?, template? }: when
 * `template` is given each request is a POST of it with `__ID__` and
 * `__FROM__` filled and, with `secret`, an X-Hub-Signature-256 over the
 * exact body; else a GET. The warm-up (default 0 s) runs at the same rate
 * on the same connections and is not counted.
 * Prints one JSON line: { requestsPerSec (answered requests over the time until the
 * last answer), p50, p99, non2xx, total, connections }.
 */
import { createHmac } from 'node:crypto';
import net from 'node:net';

const options = JSON.parse(process.argv[2]);
const url = new URL(options.url);
const warmupSec = options.warmupSec ?? 0;
const run = process.pid.toString(36) + Date.now().toString(36);

let seed = 0x2545f491;
/** A small seeded generator, so two runs draw the same arrival pattern. */
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return ((seed >>> 0) + 0.5) / 2 ** 32;
};

/** The whole HTTP/1.1 request n as bytes. */
function requestBytes(n) {
  const host = `Host: ${url.host}\r\nConnection: keep-alive\r\n`;
  if (!options.template) return Buffer.from(`GET ${url.pathname} HTTP/1.1\r\n${host}\r\n`);
  const body = options.template
    .replace('__ID__', `wamid.paced-${run}-${n}`)
    .replaceAll('__FROM__', String(380500000000 + (n % 5000)));
  const signature = options.secret
    ? `X-Hub-Signature-256: sha256=${createHmac('sha256', options.secret).update(body).digest('hex')}\r\n`
    : '';
  return Buffer.from(
    `POST ${url.pathname} HTTP/1.1\r\n${host}Content-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${signature}\r\n${body}`,
  );
}

const planned = Math.ceil(options.rate * (warmupSec + options.durationSec) * 1.2) + 100;
const requests = Array.from({ length: planned }, (_, i) => requestBytes(i + 1));

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * One kept-alive connection carrying one request at a time. `onDone(status)`
 * is called when the response is whole (status 0: the connection failed).
 */
function openConnection(onFree) {
  const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
  const connection = { socket, busy: false, done: null, buffered: Buffer.alloc(0) };
  socket.on('data', (chunk) => {
    connection.buffered =
      connection.buffered.length === 0 ? chunk : Buffer.concat([connection.buffered, chunk]);
    const end = connection.buffered.indexOf(HEADER_END);
    if (end < 0) return;
    const head = connection.buffered.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (connection.buffered.length < end + 4 + length) return;
    connection.buffered = connection.buffered.subarray(end + 4 + length);
    finish(connection, status);
  });
  const fail = () => {
    if (connection.busy) finish(connection, 0);
    connection.broken = true;
  };
  socket.on('error', fail);
  socket.on('close', fail);
  function finish(c, status) {
    const done = c.done;
    c.busy = false;
    c.done = null;
    done?.(status);
    if (!c.broken) onFree(c);
  }
  return connection;
}

const idle = [];
let opened = 0;
const connectionOf = () => {
  const free = idle.pop();
  if (free && !free.broken) return free;
  opened += 1;
  return openConnection((c) => idle.push(c));
};

const latencies = [];
let non2xx = 0;
let sent = 0;
let finished = 0;
let measuredSent = 0;
/** When the last measured response arrived: a server that falls behind finishes after the window. */
let lastDoneAt = 0;

function send(n, dueAt, measured) {
  const connection = connectionOf();
  connection.busy = true;
  connection.done = (status) => {
    if (!measured) return;
    finished += 1;
    lastDoneAt = performance.now();
    if (status < 200 || status > 299) non2xx += 1;
    else latencies.push(performance.now() - dueAt);
  };
  connection.socket.write(requests[n - 1] ?? requestBytes(n));
}

const start = performance.now();
const measureFrom = start + warmupSec * 1000;
const endAt = measureFrom + options.durationSec * 1000;
let nextDue = start;

function tick() {
  const now = performance.now();
  while (nextDue <= now && nextDue < endAt) {
    sent += 1;
    const measured = nextDue >= measureFrom;
    if (measured) measuredSent += 1;
    send(sent, nextDue, measured);
    nextDue += (-Math.log(random()) * 1000) / options.rate;
  }
  if (nextDue < endAt) setTimeout(tick, Math.max(0, Math.min(1, nextDue - performance.now())));
  else waitForAll();
}

function waitForAll() {
  if (finished < measuredSent && performance.now() < endAt + 10_000) return void setTimeout(waitForAll, 5);
  latencies.sort((a, b) => a - b);
  const at = (p) =>
    latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0;
  const round = (ms) => Math.round(ms * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({
      // Answered requests over the time until the last answer: the rate the server kept up.
      requestsPerSec: (finished - non2xx) / ((Math.max(endAt, lastDoneAt) - measureFrom) / 1000),
      p50: round(at(50)),
      p99: round(at(99)),
      non2xx: non2xx + (measuredSent - finished),
      total: measuredSent,
      connections: opened,
    })}\n`,
  );
  for (const c of idle) c.socket.destroy();
  process.exit(0);
}

tick();
