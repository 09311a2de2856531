import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// The real entry point in a child process (through tsx), on the embedded
// drivers and a scratch DATA_DIR, as `npm start` would run it.
const MAIN = path.resolve(import.meta.dirname, 'main.ts');

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startMain(env: Record<string, string>): Run {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-main-'));
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
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
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { child, stdout: () => out, stderr: () => err, exited };
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

describe('main', () => {
  it('logs each start-up phase as it begins, listens, then starts the workers', async () => {
    const port = await freePort();
    const run = startMain({ PORT: String(port) });
    await waitFor(run, async () => {
      const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
      return res?.status === 200 && run.stdout().includes('workers started');
    });
    const messages = run
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    const order = [
      'start-up: configuration loaded',
      'start-up: opening the embedded database (the first start creates it, which takes a while)',
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
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 180_000);

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
