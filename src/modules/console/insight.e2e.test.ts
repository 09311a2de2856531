/**
 * The insight screens in a real browser (test/console-browser.ts): an
 * employee asks two questions on the web chat, an approver edits both
 * replies (analytics rows, audit entries and learning suggestions follow),
 * then an administrator reads the analytics charts, accepts one suggestion
 * into a knowledge base and dismisses the other, reads both channels'
 * status and narrows the audit log; every screen passes axe-core at both widths.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/browser.js';
import {
  type ConsoleBrowser,
  checkBothWidths,
  signIn,
  startConsoleBrowser,
} from '../../../test/console-browser.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createPipelineScene,
  type PipelineScene,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';

const SALARY_QUESTION = 'When is the salary paid each month?';

describe.skipIf(!hasChromium)('insight screens', () => {
  let browser: ConsoleBrowser;
  let scene: PipelineScene;
  let admin: TestUser;
  let approver: TestUser;
  let page: Page;

  const call = async (user: TestUser, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) => {
    const res = await browser.ctx.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: user.headers,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };

  /** The employee asks on the web chat; the approver edits the reply the pipeline held for a human. */
  const askAndEdit = async (question: string, edited: string) => {
    await call(scene.employee, '/conversations/web/messages', 'POST', { text: question });
    const approval = await waitFor(`an approval for “${question}”`, async () => {
      const page = await call(approver, '/approvals?limit=100');
      return (page.items as Array<{ id: string; status: string; context?: unknown }>).find(
        (item) => item.status === 'pending' && JSON.stringify(item).includes(question),
      );
    });
    await call(approver, `/approvals/${approval.id}/approve`, 'POST', { editedContent: edited });
  };

  const open = async (hash: string, heading: string) => {
    // Set again while another heading shows: the first page after signing in may still move the hash.
    const title = page.getByRole('heading', { level: 1, name: heading, exact: true });
    await expect
      .poll(
        async () => {
          if ((await title.count()) === 0) await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
          return title.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
  };

  beforeAll(async () => {
    browser = await startConsoleBrowser();
    scene = await createPipelineScene(browser.ctx.container);
    const departmentId = scene.departmentId;
    admin = await createUser(browser.ctx.container, { role: 'admin', departmentId, name: 'Ada Admin' });
    approver = await createUser(browser.ctx.container, {
      role: 'approver',
      departmentId,
      name: 'Petro Approver',
    });
    await askAndEdit(VACATION_QUESTION, 'Everyone gets twenty eight days of paid vacation a year.');
    await askAndEdit(SALARY_QUESTION, 'Salary is paid on the fifth working day of each month.');
    page = await browser.newPage();
    await signIn(page, browser.baseUrl, admin);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('draws the analytics charts with the API’s figures', async () => {
    await open('#/admin/analytics', 'Analytics');
    const dashboard = await call(admin, '/analytics/dashboard?days=30');
    const figure = page.locator('.insight-figures > div', { hasText: 'Messages in' }).locator('dd');
    await expect.poll(() => figure.textContent()).toBe(String(dashboard.messages.inbound));
    expect(dashboard.approvals.byStatus.edited).toBeGreaterThanOrEqual(2);
    await expect(page.getByRole('img', { name: 'Approval outcomes' }).count()).resolves.toBe(1);
    const outcomes = page.locator('figure', { hasText: 'Approval outcomes' });
    await outcomes.getByText('Numbers of “Approval outcomes”').click();
    await expect
      .poll(() => outcomes.getByRole('row', { name: /Approved with edits/ }).textContent())
      .toContain(String(dashboard.approvals.byStatus.edited));

    const intents = await call(admin, `/analytics/intents?namespaceId=${scene.namespaceId}&days=30`);
    const namespace = await call(admin, `/namespaces/${scene.namespaceId}`);
    await page.getByLabel('Namespace').selectOption({ label: namespace.name });
    const first = intents.intents[0];
    const row = page.locator(`tr[data-intent="${first.intent}"]`);
    await expect.poll(() => row.locator('td').first().textContent()).toBe(String(first.messages));
    await expect(page.getByRole('img', { name: 'Share of replies sent on its own' }).count()).resolves.toBe(
      1,
    );
    await checkBothWidths(page, 'admin-analytics', true);
  });

  it('accepts one learning suggestion into a knowledge base and dismisses another', async () => {
    const open_ = await call(admin, `/learning/suggestions?namespaceId=${scene.namespaceId}&type=answer`);
    expect(open_.items.map((item: { question: string }) => item.question).sort()).toEqual(
      [SALARY_QUESTION, VACATION_QUESTION].sort(),
    );
    await open('#/admin/learning', 'Learning suggestions');
    const namespace = await call(admin, `/namespaces/${scene.namespaceId}`);
    await page.getByLabel('Namespace').selectOption({ label: namespace.name });
    await page.getByLabel('Kind').selectOption({ label: 'Answer for the knowledge base' });
    // The same question is also an example suggestion until the Kind filter has applied.
    const answers = page
      .locator('li.insight-suggestion')
      .filter({ hasText: 'Answer for the knowledge base' });
    const vacation = answers.filter({ hasText: VACATION_QUESTION });
    const salary = answers.filter({ hasText: SALARY_QUESTION });
    await expect.poll(() => page.locator('li.insight-suggestion').count()).toBe(2);
    await vacation.waitFor();
    await salary.waitFor();
    await checkBothWidths(page, 'admin-learning', true);

    const base = scene.knowledge.knowledgeBase;
    await vacation.getByLabel('Knowledge base').selectOption({ label: base.name });
    await vacation.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('status').filter({ hasText: 'Accepted:' }).waitFor();
    await salary.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('status').filter({ hasText: 'Dismissed:' }).waitFor();
    await expect.poll(() => vacation.count()).toBe(0);

    const query = `namespaceId=${scene.namespaceId}&type=answer`;
    const accepted = await call(admin, `/learning/suggestions?${query}&status=accepted`);
    expect(accepted.items).toEqual([
      expect.objectContaining({ question: VACATION_QUESTION, knowledgeBaseId: base.id }),
    ]);
    const dismissed = await call(admin, `/learning/suggestions?${query}&status=dismissed`);
    expect(dismissed.items.map((item: { question: string }) => item.question)).toEqual([SALARY_QUESTION]);
  });

  it('states both channels’ status and links the queue dashboard', async () => {
    await open('#/admin/channels', 'Channels');
    await page.getByText(/^Not configured: CHANA_PHONE_NUMBER_ID/).waitFor();
    await page.getByText(/^Not configured: CHANB_BOT_TOKEN/).waitFor();
    await page.getByText('WhatsApp Cloud API protocol', { exact: false }).waitFor();
    await page.getByText('Telegram Bot API protocol', { exact: false }).waitFor();
    await expect(page.getByRole('link', { name: 'Open the queue dashboard' }).count()).resolves.toBe(1);
    await checkBothWidths(page, 'admin-channels', true);
  });

  it('lists audit entries newest first and narrows them by a filter', async () => {
    await open('#/admin/audit', 'Audit log');
    const rows = page.locator('tr[data-action]');
    await rows.first().waitFor();
    const all = await call(admin, '/audit?limit=1');
    await page.getByText(`of ${all.total} entries`).waitFor();
    await checkBothWidths(page, 'admin-audit', true);

    const narrowed = await call(admin, '/audit?entityType=learning_suggestions&limit=50');
    expect(narrowed.total).toBeGreaterThanOrEqual(2);
    expect(narrowed.total).toBeLessThan(all.total);
    await page.getByLabel('Entity type').fill('learning_suggestions');
    await page.getByText(`Showing ${narrowed.total} of ${narrowed.total} entries`).waitFor();
    await expect.poll(() => rows.count()).toBe(narrowed.total);
    for (const cell of await page.locator('tr[data-action] td:nth-child(4)').allTextContents()) {
      expect(cell).toContain('learning_suggestions');
    }
  });
});
