/**
 * The console in a real browser for a test file: the console built as
 * `npm run build` builds it, the whole service on a real port with its
 * workers, one Chromium, and the steps every console test repeats (sign in,
 * axe-core, screenshots at desktop width and 375 px). See
 * src/modules/console/*.e2e.test.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { expect } from 'vitest';
import { launchChromium } from './browser.js';
import { TEST_PASSWORD, type TestUser } from './factories.js';
import { createPipelineTestApp, type PipelineTestContext } from './pipeline-factories.js';

const ROOT = path.resolve(import.meta.dirname, '..');
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 375, height: 812 };

/**
 * Where screenshots go: docs/screenshots/ with SCREENSHOTS=update
 * (`npm run screenshots`), else a scratch folder, so that a test run leaves
 * the working tree as it found it.
 */
export const SCREENSHOTS =
  process.env.SCREENSHOTS === 'update'
    ? path.join(ROOT, 'docs', 'screenshots')
    : path.join(tmpdir(), 'aos-console-screenshots');

export interface ConsoleBrowser {
  ctx: PipelineTestContext;
  baseUrl: string;
  browser: Browser;
  /** Where the console build lives (its index.html and assets/); shared, read it only. */
  consoleDir: string;
  /** A page in a fresh browser context (its own storage), English, desktop width unless told. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * What the console build reads: every file under console/ (it imports
 * nothing outside it) and package-lock.json (the versions of Preact and
 * Vite), hashed by path and content.
 */
function consoleFingerprint(): string {
  const hash = createHash('sha256');
  const consoleFiles = readdirSync(path.join(ROOT, 'console'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  for (const file of [...consoleFiles.sort(), path.join(ROOT, 'package-lock.json')]) {
    hash.update(`${path.relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * The console built as `npm run build` builds it, once per version of its
 * sources: every console test file of a run (and of the next run, sources
 * unchanged) serves the same build instead of paying for its own. The build
 * goes to a scratch folder renamed into place, so a folder under the
 * fingerprint's name is always whole; when two workers build at once, the
 * first rename wins and the other drops its identical copy.
 */
export async function consoleBuild(): Promise<string> {
  const dir = path.join(tmpdir(), `aos-console-build-${consoleFingerprint().slice(0, 24)}`);
  if (existsSync(path.join(dir, 'index.html'))) return dir;
  const scratch = mkdtempSync(path.join(tmpdir(), 'aos-console-scratch-'));
  await build({
    configFile: path.join(ROOT, 'console', 'vite.config.ts'),
    build: { outDir: scratch, emptyOutDir: true },
    logLevel: 'warn',
  });
  try {
    renameSync(scratch, dir);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(path.join(dir, 'index.html'))) throw error;
  }
  return dir;
}

/** Builds the console (or reuses its build), starts the service with workers (extra `env` on top) and Chromium. */
export async function startConsoleBrowser(env: Record<string, string> = {}): Promise<ConsoleBrowser> {
  const consoleDir = await consoleBuild();
  const ctx = await createPipelineTestApp({ CONSOLE_DIR: consoleDir, ...env }, { workers: true });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  return {
    ctx,
    baseUrl,
    browser,
    consoleDir,
    async newPage(viewport = DESKTOP) {
      const page = await (await browser.newContext({ viewport, locale: 'en-US' })).newPage();
      page.setDefaultTimeout(20_000);
      return page;
    },
    async close() {
      await browser.close();
      // The console build stays for the next file (consoleBuild).
      await ctx.close();
    },
  };
}

/** Signs `user` in on `page` through the login form and waits for the first page after it. */
export async function signIn(page: Page, baseUrl: string, user: TestUser): Promise<void> {
  await page.goto(`${baseUrl}/console/`);
  await page.getByLabel('Email').fill(user.user.email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in, the console leaves the sign-in page for the user's first page; a navigation
  // before that would be overridden by it.
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  await page.locator('main h1').first().waitFor();
}

/** Serious and critical violations axe-core finds on the page as it is now. */
export async function axeViolations(page: Page): Promise<unknown[]> {
  // Evaluated through the DevTools protocol: the console's CSP rightly refuses an injected <script>.
  await page.evaluate(readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  return page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`);
}

/**
 * Checks the page as it is now at desktop width and at 375 px: no serious or
 * critical axe-core violation at either, nothing wider than the phone's
 * screen; with `screenshot`, saves both widths into {@link SCREENSHOTS}.
 */
export async function checkBothWidths(page: Page, name: string, screenshot = false): Promise<void> {
  const viewport = page.viewportSize() ?? DESKTOP;
  if (screenshot) mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize(DESKTOP);
  expect(await axeViolations(page), `${name} at desktop width`).toEqual([]);
  if (screenshot)
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await axeViolations(page), `${name} at 375 px`).toEqual([]);
  const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
  if (screenshot) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-375.png`), fullPage: true });
  await page.setViewportSize(viewport);
  expect(overflow, `${name} is wider than 375 px`).toBeLessThanOrEqual(0);
}
