// Tests of the helper scripts, run by CI with `node --test scripts/`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..');
const script = (name) => join(root, 'scripts', name);
const run = (args, cwd = root) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });

test('lockfile-platforms puts back stripped platform entries exactly as npm wrote them', () => {
  const committed = readFileSync(join(root, 'package-lock.json'), 'utf8');
  const lock = JSON.parse(committed);
  let stripped = 0;
  for (const [path, meta] of Object.entries(lock.packages)) {
    // What a registry serving only this platform leaves out: optional platform builds it never served.
    if (meta.optional && meta.os && !meta.integrity) {
      delete lock.packages[path];
      stripped++;
    }
  }
  assert.ok(stripped > 0, 'the committed lockfile has platform entries to strip');
  const dir = mkdtempSync(join(tmpdir(), 'lock-'));
  try {
    const file = join(dir, 'package-lock.json');
    writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
    const check = run([script('lockfile-platforms.mjs'), '--check', file]);
    assert.equal(check.status, 1);
    assert.match(check.stderr, /missing or entries out of npm's order/);
    assert.equal(run([script('lockfile-platforms.mjs'), file]).status, 0);
    assert.equal(readFileSync(file, 'utf8'), committed);
    assert.equal(run([script('lockfile-platforms.mjs'), '--check', file]).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('build-if-stale builds once, skips while the sources are unchanged, rebuilds when they change', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-'));
  try {
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'src', 'main.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'src', 'main.test.ts'), 'test\n');
    writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
    // A stand-in build that counts its runs, so what the script decided is observable.
    const build =
      "const fs=require('fs');fs.mkdirSync('dist',{recursive:true});fs.writeFileSync('dist/main.js','');fs.appendFileSync('builds','x')";
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'fixture', private: true, scripts: { build: `node -e "${build}"` } }),
    );
    const builds = () => readFileSync(join(dir, 'builds'), 'utf8').length;
    const start = () => {
      const result = run([script('build-if-stale.mjs')], dir);
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };

    assert.match(start(), /no build yet/);
    assert.equal(builds(), 1);
    assert.match(start(), /up to date/);
    assert.equal(builds(), 1);
    assert.equal(run([script('build-if-stale.mjs'), '--check'], dir).status, 0);

    writeFileSync(join(dir, 'src', 'main.test.ts'), 'changed test\n');
    assert.match(start(), /up to date/);
    assert.equal(builds(), 1);

    writeFileSync(join(dir, 'src', 'main.ts'), 'export const a = 2;\n');
    assert.equal(run([script('build-if-stale.mjs'), '--check'], dir).status, 1);
    assert.match(start(), /sources changed/);
    assert.equal(builds(), 2);

    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    assert.match(start(), /sources changed/);
    assert.equal(builds(), 3);

    // A build by hand (`npm run build` ends with --stamp) leaves nothing for the next start to build.
    writeFileSync(join(dir, 'src', 'main.ts'), 'export const a = 3;\n');
    assert.equal(run([script('build-if-stale.mjs'), '--stamp'], dir).status, 0);
    assert.match(start(), /up to date/);
    assert.equal(builds(), 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('build-if-stale --prepare builds at install when due, and skips cleanly without the build tools', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prepare-'));
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'main.ts'), 'export const a = 1;\n');
    const build =
      "const fs=require('fs');fs.mkdirSync('dist',{recursive:true});fs.writeFileSync('dist/main.js','');fs.appendFileSync('builds','x')";
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'fixture', private: true, scripts: { build: `node -e "${build}"` } }),
    );
    const prepare = () => {
      const result = run([script('build-if-stale.mjs'), '--prepare'], dir);
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };
    // A production install: no TypeScript, no Vite. Nothing is built and the install goes on.
    assert.match(prepare(), /skipped at install, the build tools \(devDependencies\) are not installed/);
    assert.throws(() => readFileSync(join(dir, 'builds')));

    // A development install: the tools resolve, so the install builds, and a second install does not.
    for (const tool of ['typescript', 'vite']) {
      mkdirSync(join(dir, 'node_modules', tool), { recursive: true });
      writeFileSync(join(dir, 'node_modules', tool, 'package.json'), JSON.stringify({ name: tool }));
    }
    assert.match(prepare(), /no build yet/);
    assert.match(prepare(), /up to date/);
    assert.equal(readFileSync(join(dir, 'builds'), 'utf8'), 'x');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('make-pglite-template dumps an empty database that PGlite loads into a new data folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'template-'));
  try {
    const made = run([script('make-pglite-template.mjs')], dir);
    assert.equal(made.status, 0, made.stderr);
    const template = readFileSync(join(dir, 'dist', 'core', 'db', 'pglite-template.tar.gz'));
    // What client.ts does for a folder without a database: start from the template.
    const { PGlite } = await import('@electric-sql/pglite');
    const dataDir = join(dir, 'pgdata');
    const db = await PGlite.create({ dataDir, loadDataDir: new Blob([template]) });
    try {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1', [
        'public',
      ]);
      assert.deepEqual(rows, [{ n: 0 }]);
    } finally {
      await db.close();
    }
    assert.ok(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim().length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
