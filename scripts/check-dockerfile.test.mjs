// Tests of scripts/check-dockerfile.mjs, run by CI with `node --test scripts/`:
// a small build context with a good Dockerfile passes, and each way of
// breaking it fails with a line naming the problem.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';

const checker = resolve(import.meta.dirname, 'check-dockerfile.mjs');

const GOOD = `FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY --from=build /app/dist ./dist
USER node
HEALTHCHECK CMD ["node", "-e", "process.exit(0)"]
ENTRYPOINT ["node", "dist/main.js"]
CMD ["all"]
`;

/** A build context as after `npm ci` and `npm run build`: `files` maps paths to contents. */
function context(files) {
  const dir = mkdtempSync(join(tmpdir(), 'dockerfile-'));
  const all = {
    'package.json': JSON.stringify({
      name: 'fixture',
      private: true,
      dependencies: { pino: '1.0.0', '@tesseract.js-data/eng': '1.0.0' },
      devDependencies: { vitest: '1.0.0' },
    }),
    'package-lock.json': '{}',
    'src/main.ts': 'export {};\n',
    'dist/main.js': "import pino from 'pino';\nimport { join } from 'node:path';\nimport './local.js';\n",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: built JavaScript holding a template literal
    'dist/ocr.js': 'const dir = require.resolve(`@tesseract.js-data/${lang}/package.json`);\n',
    Dockerfile: GOOD,
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    if (content === null) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function check(files) {
  const dir = context(files);
  try {
    return spawnSync(process.execPath, [checker, '--context', dir], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a Dockerfile whose sources exist and whose entry is built passes', () => {
  const result = check({});
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /Dockerfile: ok .*entry dist\/main\.js/);
});

test('a COPY of a file the context lacks fails, naming it', () => {
  const result = check({
    Dockerfile: GOOD.replace('COPY src ./src', 'COPY src ./src\nCOPY tsconfig.json ./'),
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /line 6: tsconfig\.json does not exist/);
});

test('a COPY of a path .dockerignore leaves out fails', () => {
  const result = check({ '.dockerignore': 'node_modules\nsrc\n' });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /src is left out by \.dockerignore/);
});

test('a .dockerignore exception keeps a path in', () => {
  const result = check({
    '.dockerignore': '**/*.ts\n!src/main.ts\n',
    Dockerfile: GOOD.replace('COPY src', 'COPY src/main.ts'),
  });
  assert.equal(result.status, 0, result.stderr);
});

test('an entry point that was not built fails', () => {
  const result = check({ 'dist/main.js': null, 'dist/other.js': 'export {};\n' });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /ENTRYPOINT's dist\/main\.js: dist\/main\.js is not built/);
});

test('a COPY --from of a stage that does not exist fails', () => {
  const result = check({ Dockerfile: GOOD.replace('--from=build', '--from=builder') });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /--from=builder names no earlier build stage/);
});

test('no HEALTHCHECK, no CMD and a root user each fail', () => {
  const result = check({
    Dockerfile: GOOD.replace(/^HEALTHCHECK.*\n/m, '')
      .replace(/^CMD.*\n/m, '')
      .replace('USER node', 'USER root'),
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /no HEALTHCHECK CMD/);
  assert.match(result.stderr, /no CMD/);
  assert.match(result.stderr, /runs as root/);
});

test('the built service loading a devDependency fails: the production install leaves it out', () => {
  const result = check({ 'dist/check.js': "import { test } from 'vitest';\n" });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /dist\/check\.js loads vitest, a devDependency/);
});

test('a package scope loaded by a computed name needs a production dependency in that scope', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: built JavaScript holding a template literal
  const result = check({ 'dist/ocr.js': 'require.resolve(`@other-data/${lang}/package.json`);\n' });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /loads @other-data\/\*, which package\.json does not list/);
});
