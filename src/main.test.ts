import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { entryArgs } from '../test/faults/service-process.js';

// The real entry point in a child process, on the embedded drivers and a
// scratch DATA_DIR, as `npm start` would run it: dist/main.js when dist/ is
// the build of the sources as they are (CI), else src/main.ts through tsx.

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  dataDir: string;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
/** What outlives one test: the first start that two tests share. */
const fileCleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of fileCleanups.splice(0).reverse()) await cleanup();
});

/**
 * Starts the service on `dataDir` (a new scratch one unless given; removed
 * when new), stopped after the test, or after the file with `until: 'file'`.
 */
function startMain(env: Record<string, string>, given?: string, until: 'test' | 'file' = 'test'): Run {
  const dataDir = given ?? mkdtempSync(path.join(tmpdir(), 'aos-main-'));
  const child = spawn(process.execPath, entryArgs(), {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  (until === 'file' ? fileCleanups : cleanups).push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    if (!given) rmSync(dataDir, { recursive: true, force: true });
  });
  return { child, stdout: () => out, stderr: () => err, exited, dataDir };
}

async function listenOnSomePort(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port that was free a moment ago (the system's pick, released). */
async function freePort(): Promise<number> {
  const listener = await listenOnSomePort();
  await listener.close();
  return listener.port;
}

async function occupiedPort(): Promise<number> {
  const listener = await listenOnSomePort();
  cleanups.push(listener.close);
  return listener.port;
}

/** Polls until `done` holds or the child exits; fails with what it printed otherwise. */
async function waitFor(run: Run, done: () => Promise<boolean>, deadlineMs = 150_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await done()) return;
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not reached; stdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`);
}

/** Waits until the service answers /health and its workers run; answers the messages it logged. */
async function started(run: Run, port: number): Promise<string[]> {
  await waitFor(run, async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
    return res?.status === 200 && run.stdout().includes('workers started');
  });
  return run
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

interface FirstStart {
  run: Run;
  port: number;
  messages: string[];
}
let firstStart: Promise<FirstStart> | undefined;

/**
 * The first start on a new data folder, made once for the two tests that
 * read it (its phases; its hint and setup code), as a start-up costs
 * seconds: the second test stops it.
 */
function startFirst(): Promise<FirstStart> {
  firstStart ??= (async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-main-'));
    fileCleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const run = startMain({ PORT: String(port) }, dataDir, 'file');
    return { run, port, messages: await started(run, port) };
  })();
  return firstStart;
}

describe('main', () => {
  it('logs each start-up phase as it begins, listens, then starts the workers', async () => {
    const { messages } = await startFirst();
    const order = [
      'start-up: configuration loaded',
      'start-up: creating the embedded database (only the first start does)',
      'start-up: migrating the database',
      'start-up: aligning embedding dimensions',
      'start-up: seeding system roles',
      'start-up: listening',
      'start-up: starting workers',
    ].map((phase) => messages.indexOf(phase));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(messages.findIndex((m) => m.startsWith('listening on '))).toBeLessThan(
      messages.indexOf('start-up: starting workers'),
    );
    // The next test stops this start and expects a clean exit (0).
  }, 180_000);

  it('without any user logs how to get the first one, once; the setup code works; later starts say neither', async () => {
    const { run: first, port, messages: firstMessages } = await startFirst();
    const hints = firstMessages.filter((m) => m.startsWith('No user can sign in yet'));
    expect(hints).toHaveLength(1);
    const hint = hints[0]!;
    expect(hint).toContain('node dist/main.js create-admin --email you@example.com --password-stdin');
    expect(hint).toContain('ADMIN_EMAIL and ADMIN_PASSWORD');
    const setupCode = /\/console\/#\/setup\?code=([A-Z0-9-]+) /.exec(hint)?.[1];
    expect(setupCode).toBeDefined();
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        setupCode,
        email: 'owner@example.test',
        password: 'owner-pass-42',
        name: 'Owner',
      }),
    });
    expect(created.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startMain({ PORT: String(port) }, first.dataDir);
    const messages = await started(second, port);
    expect(messages).toContain('start-up: opening the embedded database');
    expect(messages.filter((m) => /first start|No user can sign in/.test(m))).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 300_000);

  it('ends with one clear line and exit code 1 when the port is taken, before any worker starts', async () => {
    const port = await occupiedPort();
    const run = startMain({ PORT: String(port) });
    const code = await run.exited;
    expect(code).toBe(1);
    // Other lines (a runtime deprecation notice, say) may come; the problem is one line, no stack trace.
    expect(run.stderr().split('\n')).toContain(
      `Port ${port} is already in use on 127.0.0.1; set PORT to another port`,
    );
    expect(run.stderr()).not.toMatch(/^\s+at /m);
    expect(run.stdout()).not.toContain('workers started');
    expect(run.stdout()).toContain('start-up: listening');
  }, 180_000);
});
