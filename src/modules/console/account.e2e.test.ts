/**
 * My account and the task monitor's message and sender, in a real browser
 * (test/console-browser.ts): an employee changes their name and language,
 * password and avatar, makes a link code and signs out everywhere; an
 * approver chooses where approval requests reach them in chat; an
 * administrator sees a task's message text and sender in the task monitor.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/browser.js';
import {
  type ConsoleBrowser,
  checkBothWidths,
  signIn,
  startConsoleBrowser,
} from '../../../test/console-browser.js';
import { createUser, TEST_PASSWORD, type TestUser } from '../../../test/factories.js';
import { createPipelineScene, type PipelineScene } from '../../../test/pipeline-factories.js';

const AVATAR = path.resolve(import.meta.dirname, '../../../test/fixtures/ocr-uk.png');
const NEW_PASSWORD = 'fresh-horse-42';
const QUESTION = 'How many vacation days do I get this year, and can I carry them over?';

describe.skipIf(!hasChromium)('my account and the task monitor', () => {
  let browser: ConsoleBrowser;
  let scene: PipelineScene;
  let admin: TestUser;
  let employee: TestUser;
  let page: Page;

  beforeAll(async () => {
    browser = await startConsoleBrowser();
    scene = await createPipelineScene(browser.ctx.container);
    const departmentId = scene.departmentId;
    admin = await createUser(browser.ctx.container, { role: 'admin', departmentId, name: 'Ada Admin' });
    employee = await createUser(browser.ctx.container, {
      role: 'employee',
      departmentId,
      name: 'Ivan Employee',
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    browser.ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  /** The token the console in `page` holds now (a password change replaces it). */
  const consoleToken = async () => page.evaluate<string | null>("sessionStorage.getItem('console.token')");

  it('opens my account from the name in the header; makes a link code, uploads an avatar, changes the password', async () => {
    page = await browser.newPage();
    await signIn(page, browser.baseUrl, employee);
    await page.getByRole('link', { name: 'Ivan Employee' }).click();
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    await page.getByText('No messaging account is linked yet.').waitFor();
    await checkBothWidths(page, 'account', true);

    // A link code for channel B: the code, how to use it, and until when.
    await page.getByLabel('Channel').selectOption('chanB');
    await page.getByRole('button', { name: 'Get a link code' }).click();
    await page.getByText('Your link code for channel B:').waitFor();
    const code = (await page.locator('.account-code-value').textContent()) ?? '';
    expect(code).toMatch(/^\S{8}$/);
    await expect.poll(() => page.getByText(`Send “/start ${code}” to the bot`).count()).toBeGreaterThan(0);
    await page.getByText(/The code works once, until/).waitFor();

    // The avatar: uploaded, then shown from the URL /me gives.
    await page.getByLabel('Image file').setInputFiles(AVATAR);
    await page.getByRole('button', { name: 'Upload avatar' }).click();
    await page.getByText('Avatar saved.').waitFor();
    await page.getByRole('img', { name: 'Your avatar' }).waitFor();
    const me = (await inject('GET', '/me', employee.headers)).json();
    expect(me.user.avatarUrl).toMatch(/^\/static\/avatars\//);
    await expect
      .poll(() => page.evaluate<number>("document.querySelector('.account-avatar img')?.naturalWidth ?? 0"))
      .toBeGreaterThan(0);

    // The password: the new one signs in, and the console keeps its session.
    await page.getByLabel('Current password').fill(TEST_PASSWORD);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.', { exact: false }).waitFor();
    const login = await browser.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: employee.user.email, password: NEW_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const token = await consoleToken();
    expect((await inject('GET', '/me', { authorization: `Bearer ${token}` })).statusCode).toBe(200);
  }, 120_000);

  it('changes name and language (the console switches to Ukrainian), then signs out everywhere', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Ivan Renamed');
    await page.locator('form[aria-labelledby="account-profile-title"] select').selectOption('uk');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Мій обліковий запис' }).waitFor();
    await page.getByText('Ім’я та мову збережено.').waitFor();
    await page.getByRole('link', { name: 'Ivan Renamed' }).waitFor();
    const headers = { authorization: `Bearer ${await consoleToken()}` };
    const me = (await inject('GET', '/me', headers)).json();
    expect(me.user).toMatchObject({ name: 'Ivan Renamed', language: 'uk' });

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Вийти на всіх пристроях' }).click();
    await page.getByRole('button', { name: /Увійти/ }).waitFor();
    expect((await inject('GET', '/me', headers)).statusCode).toBe(401);
    await page.context().close();
  }, 60_000);

  it('lets an approver choose the linked channel where approval requests reach them', async () => {
    const approver = await createUser(browser.ctx.container, {
      role: 'approver',
      departmentId: scene.departmentId,
      name: 'Olena Approver',
    });
    await browser.ctx.container.pipeline.repositories.senders.insertIdentity(
      'chanB',
      String(7_100_000 + Math.floor(Math.random() * 1_000_000)),
      approver.user.id,
      browser.ctx.container.db,
    );
    const approverPage = await browser.newPage();
    await signIn(approverPage, browser.baseUrl, approver);
    await approverPage.goto(`${browser.baseUrl}/console/#/account`);
    const form = approverPage.locator('form[aria-labelledby="account-approvals-title"]');
    await form.getByRole('heading', { name: 'Approval requests in chat' }).waitFor();
    // Channel A has no linked account: its box cannot be ticked.
    expect(await form.getByRole('checkbox', { name: /channel A/ }).isDisabled()).toBe(true);
    await form.getByRole('checkbox', { name: 'channel B' }).check();
    await form.getByRole('button', { name: 'Save where requests go' }).click();
    await form.getByText('Saved.').waitFor();
    const me = (await inject('GET', '/me', approver.headers)).json();
    expect(me.approvalChannels).toEqual(['chanB']);
    await checkBothWidths(approverPage, 'account-approver', true);
    await approverPage.context().close();
  }, 120_000);

  it('shows the message text and the sender of a task in the task monitor and on the task page', async () => {
    const sent = await inject('POST', '/conversations/web/messages', scene.employee.headers, {
      text: QUESTION,
    });
    expect(sent.statusCode).toBeLessThan(300);
    const adminPage = await browser.newPage();
    await signIn(adminPage, browser.baseUrl, admin);
    await adminPage.goto(`${browser.baseUrl}/console/#/tasks`);
    const row = adminPage.locator('tr', { hasText: 'How many vacation days do I get this year' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(scene.employee.user.name);
    expect(await row.textContent()).toContain('web');
    await checkBothWidths(adminPage, 'task-monitor');

    const tasks = (await inject('GET', '/agent-tasks', admin.headers)).json();
    const task = tasks.items.find((t: { messageText: string | null }) => t.messageText === QUESTION);
    expect(task.sender.name).toBe(scene.employee.user.name);

    await adminPage.goto(`${browser.baseUrl}/console/#/tasks/${task.id}`);
    await adminPage.getByRole('heading', { level: 1, name: /^Task / }).waitFor();
    await adminPage.getByText(QUESTION, { exact: true }).waitFor();
    await adminPage.getByText(`${scene.employee.user.name} (web)`).waitFor();
    await adminPage.context().close();
  }, 120_000);
});
