// Runs `npm run build` only when what the build reads has changed since the
// last build, so a second `npm start` goes straight to the service. The
// fingerprint is a SHA-256 of the paths and contents of src/, console/, the
// tsconfig files, the asset copier, the database template's maker and
// package-lock.json (test files left out, as the build leaves them out); it is
// kept in dist/ next to the output. Contents rather than modification times: a fresh clone or a
// checkout touches every file without changing any.
// Usage: node scripts/build-if-stale.mjs [--check | --stamp | --prepare]
//   --check    build nothing; exit 1 when a build is due.
//   --stamp    build nothing; record that dist/ matches the sources (the end of `npm run build`,
//              so that a clone built by hand does not build again at its first `npm start`).
//   --prepare  npm's `prepare` script, run by `npm install` and `npm ci`: build when due, so the
//              first `npm start` serves at once; but a production install (`npm ci --omit=dev`,
//              the container image) has no TypeScript or Vite, and then this skips with one
//              line and exit 0 instead of failing the install: that image ships a built dist/.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUTS = [
  'src',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/copy-assets.mjs',
  'scripts/make-pglite-template.mjs',
  'package-lock.json',
  // The web console, built into dist/console by the same `npm run build`.
  'console/src',
  'console/index.html',
  'console/vite.config.ts',
  'console/tsconfig.json',
];

/** Every file under `path` (a directory), or `path` itself (a file); nothing when it is missing. */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return (
    readdirSync(path, { withFileTypes: true, recursive: true })
      // Tests are not built (tsconfig.build.json leaves them out), so editing one needs no build.
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts'))
      .map((entry) => join(entry.parentPath, entry.name))
  );
}

function fingerprint() {
  const hash = createHash('sha256');
  const paths = INPUTS.flatMap(files).sort();
  for (const path of paths) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether the build's tools (devDependencies) are installed where this package resolves them. */
function buildToolsInstalled() {
  const require = createRequire(resolve('package.json'));
  try {
    require.resolve('typescript/package.json');
    require.resolve('vite/package.json');
    return true;
  } catch {
    return false;
  }
}

if (process.argv.includes('--prepare') && !buildToolsInstalled()) {
  console.log('build: skipped at install, the build tools (devDependencies) are not installed');
  process.exit(0);
}
const current = fingerprint();
if (process.argv.includes('--stamp')) {
  writeFileSync(STAMP, `${current}\n`);
  process.exit(0);
}
const built = existsSync('dist/main.js') && existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null;
if (built === current) {
  console.log('build: dist/ is up to date with src/, skipping the build');
  process.exit(0);
}
if (process.argv.includes('--check')) {
  console.log('build: dist/ is out of date');
  process.exit(1);
}
console.log(built ? 'build: sources changed, rebuilding dist/' : 'build: no build yet, building dist/');
const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(STAMP, `${current}\n`);
