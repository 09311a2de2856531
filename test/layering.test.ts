import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const projectConfig = require('../.dependency-cruiser.cjs') as IConfiguration;

/** Writes a tiny source tree and cruises it with the project's own rules. */
async function violationsOf(files: Record<string, string>): Promise<string[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'aos-layering-'));
  roots.push(root);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  );
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(['src'], {
      validate: true,
      ruleSet: { forbidden: projectConfig.forbidden },
      tsPreCompilationDeps: true,
      tsConfig: { fileName: 'tsconfig.json' },
    });
    const output = result.output as { summary: { violations: Array<{ rule: { name: string } }> } };
    return output.summary.violations.map((violation) => violation.rule.name);
  } finally {
    process.chdir(cwd);
  }
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('layering rules (npm run lint)', () => {
  it('refuses a route that imports a repository', async () => {
    const violations = await violationsOf({
      'src/modules/demo/demo.repository.ts': 'export const findDemo = () => 1;\n',
      'src/modules/demo/demo.routes.ts':
        "import { findDemo } from './demo.repository.js';\nexport const r = findDemo;\n",
    });
    expect(violations).toContain('routes-call-services-only');
  });

  it('refuses core importing a module, and a cycle', async () => {
    const violations = await violationsOf({
      'src/modules/demo/demo.service.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/modules/demo/b.ts': "import { a } from './demo.service.js';\nexport const b = () => a;\n",
      'src/core/helper.ts': "import { a } from '../modules/demo/demo.service.js';\nexport const h = a;\n",
    });
    expect(violations).toEqual(expect.arrayContaining(['core-is-independent', 'no-cycles']));
  });

  it('refuses one module importing another module service at run time', async () => {
    const violations = await violationsOf({
      'src/modules/one/one.service.ts': 'export const one = () => 1;\n',
      'src/modules/two/two.service.ts':
        "import { one } from '../one/one.service.js';\nexport const two = one;\n",
    });
    expect(violations).toContain('no-module-to-module-runtime-imports');
  });

  it('accepts a route that calls its service', async () => {
    const violations = await violationsOf({
      'src/modules/demo/demo.service.ts': 'export const run = () => 1;\n',
      'src/modules/demo/demo.routes.ts': "import { run } from './demo.service.js';\nexport const r = run;\n",
    });
    expect(violations).toEqual([]);
  });
});
