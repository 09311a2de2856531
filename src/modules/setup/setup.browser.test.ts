/**
 * The first run in a real browser (Debian's chromium, headless, driven by
 * playwright-core): the console on an empty database shows the setup page,
 * creates the first administrator with the code the service printed, lands
 * in the inbox, opens the queue dashboard; afterwards the setup is gone. The
 * steps run in order on one database and share the signed-in page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { CHROMIUM, hasChromium, launchChromium } from '../../../test/browser.js';
import { checkBothWidths } from '../../../test/console-browser.js';
import { QUEUE_NAMES } from '../../core/queue/queue.js';

if (!hasChromium) console.warn(`setup browser test: skipped, ${CHROMIUM} is missing`);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { name: 'Olena Owner', email: 'owner@example.test', password: 'owner-pass-42' };

describe.skipIf(!hasChromium).sequential('the first run from the console', () => {
  let consoleDir: string;
  let ctx: TestContext;
  let browser: Browser;
  let page: Page;
  let baseUrl: string;

  beforeAll(async () => {
    // The console as `npm run build` makes it, built into a directory of this run.
    consoleDir = mkdtempSync(path.join(tmpdir(), 'aos-setup-console-'));
    await build({
      configFile: path.join(ROOT, 'console', 'vite.config.ts'),
      build: { outDir: consoleDir, emptyOutDir: true },
      logLevel: 'warn',
    });
    ctx = await createTestApp({ CONSOLE_DIR: consoleDir });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ baseURL: baseUrl, locale: 'en-US' })).newPage();
    page.setDefaultTimeout(20_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
  });

  it('shows the setup page, not the sign-in page, on an empty database', async () => {
    await page.goto('/console/');
    await page.getByRole('heading', { name: 'Set up the service' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    await checkBothWidths(page, 'setup');
  });

  it('refuses a wrong code in words, then creates the administrator with the printed one and shows the inbox', async () => {
    // What main.ts prints at start: this process's setup code.
    const code = (await ctx.container.setup.service.announce())!;
    await page.getByLabel('Setup code').fill('WRNG-CODE-2222');
    await page.getByLabel('Your name').fill(ADMIN.name);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong setup code' }).waitFor();

    await page.getByLabel('Setup code').fill(code);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Approvals inbox' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/inbox');
  });

  it('saves the language chosen in the console as the user’s language', async () => {
    const picker = page.locator('header select');
    const saved = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/v1/me'),
    );
    await picker.selectOption('uk');
    const response = await saved;
    expect(response.request().postDataJSON()).toEqual({ language: 'uk' });
    expect(response.status()).toBe(200);
    expect((await ctx.container.repositories.users.findByEmail(ADMIN.email))?.language).toBe('uk');
    await page.getByRole('heading', { name: 'Вхідні на погодження' }).waitFor();
    await picker.selectOption('en');
    await page.getByRole('heading', { name: 'Approvals inbox' }).waitFor();
  });

  it('links the administrator to the queue dashboard, which opens signed in', async () => {
    await page.getByRole('link', { name: 'Queue dashboard' }).click();
    await page.waitForURL('**/admin/queues');
    for (const name of QUEUE_NAMES) await page.getByText(name, { exact: true }).first().waitFor();
  });

  it('is gone once the administrator exists: the sign-in page shows, GET needed false, POST 409', async () => {
    await page.goto('/console/#/inbox');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Set up the service' }).count()).toBe(0);
    // Asked for by address, the setup page gives way to the sign-in page too.
    await page.goto('/console/#/setup');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    const status = await page.request.get('/api/v1/setup');
    expect(await status.json()).toEqual({ needed: false });
    const again = await page.request.post('/api/v1/setup', {
      data: {
        setupCode: 'AAAA-BBBB-CCCC',
        email: 'late@example.test',
        password: 'late-pass-42',
        name: 'Late',
      },
    });
    expect(again.status()).toBe(409);
  });

  it('brings a browser sent to sign-in by the dashboard back to the dashboard page it asked for', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, locale: 'en-US' });
    const fresh = await context.newPage();
    fresh.setDefaultTimeout(20_000);
    await fresh.goto('/admin/queues/queue/agent-tasks');
    await fresh.getByRole('button', { name: 'Sign in' }).waitFor();
    await fresh.getByLabel('Email').fill(ADMIN.email);
    await fresh.getByLabel('Password').fill(ADMIN.password);
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    await fresh.waitForURL('**/admin/queues/queue/agent-tasks');
    await fresh.getByText('agent-tasks', { exact: true }).first().waitFor();
    await context.close();
  });
});
