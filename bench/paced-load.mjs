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
 * Usage (from bench/*.ts, in a child process): node bench/paced-load.mjs '<json>'
 * with { url, rate, durationSec, secret?, template? }: when `template` is
 * given each request is a POST of it with `__ID__` and `__FROM__` filled
 * and, with `secret`, an X-Hub-Signature-256 over the exact body.
 * Prints one JSON line: { requestsPerSec, p50, p99, non2xx, total }.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';

const options = JSON.parse(process.argv[2]);
const url = new URL(options.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const run = process.pid.toString(36) + Date.now().toString(36);

let seed = 0x2545f491;
/** A small seeded generator, so two runs draw the same arrival pattern. */
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return ((seed >>> 0) + 0.5) / 2 ** 32;
};

function requestBody(n) {
  if (!options.template) return null;
  return options.template
    .replace('__ID__', `wamid.paced-${run}-${n}`)
    .replaceAll('__FROM__', String(380500000000 + (n % 5000)));
}

const latencies = [];
let non2xx = 0;
let sent = 0;
let finished = 0;

/**
 * Every request's body and headers are built before the clock starts, so the
 * generator's own work (a JSON string and an HMAC per request) is not paid
 * inside the measured window, where it would delay the requests behind it.
 */
function prepare(n) {
  const body = requestBody(n);
  const headers = {};
  if (body !== null) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
    if (options.secret) {
      headers['x-hub-signature-256'] =
        `sha256=${createHmac('sha256', options.secret).update(body).digest('hex')}`;
    }
  }
  return { body, headers };
}

const planned = Math.ceil(options.rate * options.durationSec * 1.2) + 100;
const prepared = Array.from({ length: planned }, (_, i) => prepare(i + 1));

function send(n, dueAt) {
  const { body, headers } = prepared[n - 1] ?? prepare(n);
  const request = http.request(
    {
      agent,
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: body === null ? 'GET' : 'POST',
      headers,
    },
    (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode < 200 || response.statusCode > 299) non2xx += 1;
        latencies.push(performance.now() - dueAt);
        finished += 1;
      });
    },
  );
  request.on('error', () => {
    non2xx += 1;
    finished += 1;
  });
  if (body !== null) request.end(body);
  else request.end();
}

const start = performance.now();
const endAt = start + options.durationSec * 1000;
let nextDue = start;

function tick() {
  const now = performance.now();
  while (nextDue <= now && nextDue < endAt) {
    sent += 1;
    send(sent, nextDue);
    nextDue += (-Math.log(random()) * 1000) / options.rate;
  }
  if (nextDue < endAt) setTimeout(tick, Math.max(0, Math.min(1, nextDue - performance.now())));
  else waitForAll();
}

function waitForAll() {
  if (finished < sent && performance.now() < endAt + 10_000) return void setTimeout(waitForAll, 5);
  latencies.sort((a, b) => a - b);
  const at = (p) =>
    latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0;
  const round = (ms) => Math.round(ms * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({
      requestsPerSec: finished / options.durationSec,
      p50: round(at(50)),
      p99: round(at(99)),
      non2xx: non2xx + (sent - finished),
      total: sent,
    })}\n`,
  );
  agent.destroy();
}

tick();
