import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { CHROMIUM, hasChromium, launchChromium } from '../../../test/browser.js';
import { createUser } from '../../../test/factories.js';
import { QUEUE_NAMES } from '../../core/queue/queue.js';

/** Where the screenshot is kept for a person to look at (git-ignored). */
const ARTIFACTS = path.resolve(import.meta.dirname, '../../../test-results');

if (!hasChromium) {
  console.warn(`queue dashboard browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

const ctx = useTestApp();
let baseURL = '';

beforeAll(async () => {
  if (!hasChromium) return;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app has no port');
  baseURL = `http://127.0.0.1:${address.port}`;
});

describe.skipIf(!hasChromium)('queue dashboard in a headless browser', () => {
  const browserReady = hasChromium ? launchChromium() : null;
  afterAll(async () => {
    await (await browserReady)?.close();
  });

  it('opens with the session cookie a bearer token obtains and lists the seven queues; without it a page is sent to sign-in, an API call gets 401', async () => {
    const browser = await browserReady!;
    const admin = await createUser(ctx.container, { role: 'admin' });

    // A browser without a session is sent to the console's sign-in, which brings it back afterwards.
    const stranger = await browser.newContext({ baseURL });
    const strangerPage = await stranger.newPage();
    const landed = await strangerPage.goto('/admin/queues/queue/agent-tasks');
    const redirect = await landed?.request().redirectedFrom()?.response();
    expect(redirect?.status()).toBe(302);
    // The console page itself is another test's business (setup.browser.test.ts); here, where it was sent.
    expect(redirect?.headers().location).toBe(
      `/console/#/login?next=${encodeURIComponent('/admin/queues/queue/agent-tasks')}`,
    );
    expect(new URL(strangerPage.url()).pathname).toBe('/console/');
    // API clients (no text/html in Accept) keep the JSON 401; so does anything but a GET.
    const api = await stranger.request.get('/admin/queues/api/queues', {
      headers: { accept: 'application/json' },
    });
    expect(api.status()).toBe(401);
    expect((await api.json()).error).toBe('UnauthorizedError');
    const page302 = await stranger.request.get('/admin/queues', {
      headers: { accept: 'text/html' },
      maxRedirects: 0,
    });
    expect(page302.status()).toBe(302);
    const post = await stranger.request.put('/admin/queues/api/queues/agent-tasks/pause', {
      headers: { accept: 'text/html' },
    });
    expect(post.status()).toBe(401);
    await stranger.close();

    const context = await browser.newContext({ baseURL });
    const session = await context.request.post('/api/v1/admin/queues/session', {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(session.status()).toBe(200);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ path: '/admin/queues', httpOnly: true, sameSite: 'Strict' });

    const page = await context.newPage();
    const response = await page.goto('/admin/queues');
    expect(response?.status()).toBe(200);
    for (const name of QUEUE_NAMES) {
      await page.getByText(name, { exact: true }).first().waitFor({ timeout: 20_000 });
    }
    // The page's own scripts cannot read the HttpOnly cookie.
    expect(await page.evaluate('document.cookie')).toBe('');
    mkdirSync(ARTIFACTS, { recursive: true });
    const driver = ctx.container.queue.kind;
    await page.screenshot({ path: path.join(ARTIFACTS, `queue-board-${driver}.png`), fullPage: true });
    await context.close();
  });
});
