import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';

/** Debian's chromium package (.ci/install-chromium.sh installs it in CI). */
const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`API explorer browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

const ctx = useTestApp();
let baseURL = '';

beforeAll(async () => {
  if (!hasChromium) return;
  baseURL = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

describe.skipIf(!hasChromium)('the API explorer at /docs in a headless browser', () => {
  const browserReady = hasChromium
    ? chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_FLAGS, headless: true })
    : null;
  afterAll(async () => {
    await (await browserReady)?.close();
  });

  it('renders the operations within its Content-Security-Policy, loading nothing from other sites', async () => {
    const browser = await browserReady!;
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
    const response = await page.goto('/docs/');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    // An operation of the description, rendered by Swagger UI's scripts.
    await page.getByText('/departments', { exact: true }).first().waitFor({ timeout: 20_000 });
    expect(refused).toEqual([]);
    expect(elsewhere).toEqual([]);
    await context.close();
  });
});
