import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

const root = mkdtempSync(path.join(tmpdir(), 'aos-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const folder = () => path.join(root, `pgdata-${++n}`);

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('lockDataDir', () => {
  it('holds the folder for one opener and names the holder to a second', async () => {
    const dir = folder();
    const lock = await lockDataDir(dir);
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    const second = lockDataDir(dir);
    await expect(second).rejects.toThrow(DataDirLockedError);
    await expect(lockDataDir(dir)).rejects.toThrow(`in use by process ${process.pid}`);
    await lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const again = await lockDataDir(dir);
    await again.release();
  });

  it('takes over a lock whose process has died, an unreadable one, and its own pid from a previous life', async () => {
    for (const content of [
      JSON.stringify({ pid: deadPid(), host: hostname(), since: new Date().toISOString() }),
      '{"pid":',
      JSON.stringify({ pid: process.pid, host: hostname(), since: '2020-01-01T00:00:00.000Z' }),
    ]) {
      const dir = folder();
      writeFileSync(`${dir}.lock`, content);
      const lock = await lockDataDir(dir);
      expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(process.pid);
      await lock.release();
    }
  });

  it('counts a live process of this host, and any process of another host, as the holder', async () => {
    const parent = process.ppid;
    const live = folder();
    writeFileSync(`${live}.lock`, JSON.stringify({ pid: parent, host: hostname(), since: '' }));
    await expect(lockDataDir(live)).rejects.toThrow(`in use by process ${parent}`);
    const remote = folder();
    writeFileSync(
      `${remote}.lock`,
      JSON.stringify({ pid: deadPid(), host: `${hostname()}-other`, since: '' }),
    );
    await expect(lockDataDir(remote)).rejects.toThrow(DataDirLockedError);
  });

  it('releases only once: a second release leaves a later holder alone', async () => {
    const dir = folder();
    const first = await lockDataDir(dir);
    await first.release();
    const second = await lockDataDir(dir);
    await first.release();
    expect(existsSync(`${dir}.lock`)).toBe(true);
    await second.release();
  });
});
