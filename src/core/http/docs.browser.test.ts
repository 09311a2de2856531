import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { hasChromium, launchChromium } from '../../../test/browser.js';

const AXE = readFileSync(
  path.resolve(import.meta.dirname, '../../../node_modules/axe-core/axe.min.js'),
  'utf8',
);
/** Swagger UI renders the whole description in the page: slow on a loaded CI machine. */
const TIMEOUT = 300_000;
/** How long the page may take to render the operation list. */
const RENDERED = 120_000;
const WIDTHS = [
  { width: 1280, height: 860 },
  { width: 375, height: 812 },
];

if (!hasChromium) console.warn('API explorer browser test skipped: no Chromium (apt-get install chromium)');

const ctx = useTestApp();
let baseURL = '';
let browser: Browser;

/** Serious and critical axe-core violations of the page as it is now. */
async function axeViolations(page: Page): Promise<unknown[]> {
  // Through the DevTools protocol: the page's CSP rightly refuses an injected <script>.
  await page.evaluate(AXE);
  return page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' ' + n.failureSummary) })))`);
}

/** Expects no serious or critical violation at desktop width and at 375 px. */
async function expectAccessible(page: Page, name: string): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    expect(await axeViolations(page), `${name} at ${size.width} px`).toEqual([]);
  }
}

/** Opens the explorer and waits for the operation list. */
async function openDocs(page: Page, url: string): Promise<void> {
  const response = await page.goto(url, { timeout: RENDERED });
  expect(response?.status()).toBe(200);
  await page.locator('.opblock-summary').first().waitFor({ timeout: RENDERED });
}

/**
 * The explorer opened once for the CSP and accessibility tests: Swagger UI
 * renders the 1,000-operation description for seconds, so one page carries
 * those checks instead of one render each. What it refused or fetched from
 * elsewhere is recorded from the first request on.
 */
interface Explorer {
  page: Page;
  csp: string;
  status: number | undefined;
  refused: string[];
  elsewhere: string[];
}
let explorer: Promise<Explorer> | undefined;

function openExplorer(): Promise<Explorer> {
  explorer ??= (async () => {
    const context = await browser.newContext({ baseURL, colorScheme: 'light' });
    const page = await context.newPage();
    const refused: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(baseURL) && !request.url().startsWith('data:')) {
        elsewhere.push(request.url());
      }
    });
    const response = await page.goto('/docs/', { timeout: RENDERED });
    await page.locator('.opblock-summary').first().waitFor({ timeout: RENDERED });
    return {
      page,
      csp: response?.headers()['content-security-policy'] ?? '',
      status: response?.status(),
      refused,
      elsewhere,
    };
  })();
  return explorer;
}

let expanded: Promise<Page> | undefined;

/** The explorer with its first operation open and in "Try it out": what the axe-core checks look at. */
function openOperation(): Promise<Page> {
  expanded ??= (async () => {
    const { page } = await openExplorer();
    // One check of the page with the list and an operation open holds both: axe on this page takes seconds.
    await page.locator('.opblock-summary-control').first().click();
    await page.locator('.opblock-body').first().waitFor({ timeout: RENDERED });
    await page.getByRole('button', { name: 'Try it out' }).first().click();
    await page.getByRole('button', { name: 'Execute' }).first().waitFor({ timeout: RENDERED });
    return page;
  })();
  return expanded;
}

beforeAll(async () => {
  if (!hasChromium) return;
  baseURL = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!hasChromium)('the API explorer at /docs in a headless browser', () => {
  it(
    'renders the operations within its Content-Security-Policy, loading nothing from other sites',
    async () => {
      const { page, csp, status, refused, elsewhere } = await openExplorer();
      expect(status).toBe(200);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      // An operation of the description, rendered by Swagger UI's scripts.
      await page.getByText('/departments', { exact: true }).first().waitFor({ timeout: RENDERED });
      expect(refused).toEqual([]);
      expect(elsewhere).toEqual([]);
      // The theme comes from this origin, not from inline code.
      expect(await page.locator('link[href$="/theme/theme.css"]').count()).toBe(1);
      expect(await page.locator('script[src$="/theme/theme.js"]').count()).toBe(1);
      // An inline script does not run.
      await page.evaluate(`{
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
    }`);
      expect(await page.evaluate('window.inlineRan === true')).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'has no serious or critical axe-core violation in the light scheme, an operation expanded',
    async () => {
      const page = await openOperation();
      expect(await page.evaluate(`document.documentElement.classList.contains('dark-mode')`)).toBe(false);
      await expectAccessible(page, 'operation list with one expanded (light)');
    },
    TIMEOUT,
  );

  it(
    'has no serious or critical axe-core violation in the dark scheme, an operation expanded',
    async () => {
      const page = await openOperation();
      // Swagger UI reads the system's scheme once, when it mounts, and does not follow a change:
      // the scheme switched on the open page, its own toggle then does what a dark start does
      // (html.dark-mode, which theme.css styles). Saves rendering the description again.
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await page.evaluate(`matchMedia('(prefers-color-scheme: dark)').matches`)).toBe(true);
      await page.getByRole('button', { name: 'Switch to dark mode' }).click();
      expect(await page.evaluate(`document.documentElement.classList.contains('dark-mode')`)).toBe(true);
      await expectAccessible(page, 'operation list with one expanded (dark)');
    },
    TIMEOUT,
  );

  it(
    'opens the description in the language of ?lang= and keeps the address in step with the selector',
    async () => {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await openDocs(page, '/docs?lang=uk');
      await page.getByText('Список відділів').first().waitFor({ timeout: RENDERED });
      expect(await page.getAttribute('html', 'lang')).toBe('uk');
      await openDocs(page, '/docs?lang=ru');
      await page.getByText('Список отделов').first().waitFor({ timeout: RENDERED });
      await page.getByLabel('Select a definition').selectOption({ label: 'English' });
      await page.getByText('List departments').first().waitFor({ timeout: RENDERED });
      expect(new URL(page.url()).searchParams.get('lang')).toBe('en');
      await context.close();
    },
    TIMEOUT,
  );
});
