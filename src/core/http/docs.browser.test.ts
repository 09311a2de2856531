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
      const context = await browser.newContext({ baseURL });
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
      const csp = response?.headers()['content-security-policy'] ?? '';
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
      await context.close();
    },
    TIMEOUT,
  );

  for (const colorScheme of ['light', 'dark'] as const) {
    it(
      `has no serious or critical axe-core violation in the ${colorScheme} scheme, an operation expanded`,
      async () => {
        const context = await browser.newContext({ baseURL, colorScheme });
        const page = await context.newPage();
        await openDocs(page, '/docs');
        // One check of the page with the list and an operation open holds both: axe on this page takes seconds.
        await page.locator('.opblock-summary-control').first().click();
        await page.locator('.opblock-body').first().waitFor({ timeout: RENDERED });
        await page.getByRole('button', { name: 'Try it out' }).first().click();
        await page.getByRole('button', { name: 'Execute' }).first().waitFor({ timeout: RENDERED });
        await expectAccessible(page, `operation list with one expanded (${colorScheme})`);
        await context.close();
      },
      TIMEOUT,
    );
  }

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
