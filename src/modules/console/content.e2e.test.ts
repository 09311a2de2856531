/**
 * Knowledge bases and document templates in a real browser
 * (test/console-browser.ts): an administrator creates a base, sets its
 * weights, uploads a file and sees the selector's count follow without a
 * reload, opens the document; creates a template with two variables and a
 * live preview, generates a DOCX and downloads it; an approver generates
 * from it without any editing control.
 */
import { readFile } from 'node:fs/promises';
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
import { createPipelineScene } from '../../../test/pipeline-factories.js';

describe.skipIf(!hasChromium)('the console’s knowledge bases and document templates', () => {
  let browser: ConsoleBrowser;
  let admin: TestUser;
  let approver: TestUser;
  let page: Page;
  let templateId = '';
  let namespaceId = '';

  beforeAll(async () => {
    browser = await startConsoleBrowser();
    const scene = await createPipelineScene(browser.ctx.container);
    const departmentId = scene.departmentId;
    namespaceId = scene.namespaceId;
    admin = await createUser(browser.ctx.container, { role: 'admin', departmentId, name: 'Ada Admin' });
    approver = await createUser(browser.ctx.container, {
      role: 'approver',
      departmentId,
      name: 'Petro Approver',
    });
    page = await browser.newPage();
    await signIn(page, browser.baseUrl, admin);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  const inject = async (user: TestUser, url: string) => {
    const res = await browser.ctx.app.inject({ url: `/api/v1${url}`, headers: user.headers });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  const chosenBase = () => page.getByLabel('Knowledge base').locator('option:checked').textContent();

  it('creates a knowledge base, sets its weights, uploads a file and opens it', async () => {
    await openPage(page, browser.baseUrl, 'knowledge', 'Knowledge');
    await page.getByRole('button', { name: 'New knowledge base' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Staff handbook');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await expect.poll(chosenBase).toBe('Staff handbook (documents: 0)');
    const baseId = await page.getByLabel('Knowledge base').inputValue();

    await page.getByLabel('Vector weight').fill('40');
    await page.getByLabel('Keyword weight').fill('60');
    await page.getByRole('button', { name: 'Save weights' }).click();
    await page.getByRole('status').filter({ hasText: 'Weights saved.' }).waitFor();
    const base = await inject(admin, `/knowledge/bases/${baseId}`);
    expect(base.ragWeights).toEqual({ vector: 40, keyword: 60 });
    await checkBothWidths(page, 'knowledge', true);

    await page.getByLabel('Choose files').setInputFiles({
      name: 'leave-policy.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Annual leave is 24 working days. Ask your head of department two weeks ahead.\n'),
    });
    // The selector's count follows the upload without a reload.
    await expect.poll(chosenBase).toBe('Staff handbook (documents: 1)');
    const link = page.getByRole('link', { name: /leave-policy/ });
    await link.click();
    await page.getByRole('heading', { level: 2, name: /leave-policy/ }).waitFor();
    await page.locator('.kb-facts [data-status="ready"]').waitFor({ timeout: 60_000 });
    await page.getByText('No chunk is held back.').waitFor();
    expect(Number(await page.locator('[data-chunks]').getAttribute('data-chunks'))).toBeGreaterThan(0);
    await checkBothWidths(page, 'knowledge-document', true);
    await page.getByRole('button', { name: 'Back to the documents' }).click();
    await page.getByLabel('Knowledge base').waitFor();
  });

  it('creates a template with a live preview, generates a DOCX and lists it', async () => {
    await openPage(page, browser.baseUrl, 'admin/templates', 'Document templates');
    await checkBothWidths(page, 'templates', true);
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Offer letter');
    // The department's own namespace, so the approver of that department sees the template.
    await page.getByLabel('Namespace').selectOption(namespaceId);
    await page.getByRole('button', { name: 'Add a variable' }).click();
    await page.getByLabel('Name of variable 1').fill('client');
    await page.getByLabel('Label of variable 1').fill('Client');
    await page.getByRole('button', { name: 'Add a variable' }).click();
    await page.getByLabel('Name of variable 2').fill('amount');
    await page.getByLabel('Type of variable 2').selectOption('number');
    const preview = page.locator('.tpl-preview pre');
    await page.getByLabel('Body (Markdown)').fill('Dear {{client}},');
    await expect.poll(() => preview.textContent()).toBe('Dear «Client»,');
    await page.getByLabel('Body (Markdown)').pressSequentially(' the amount is {{amount}}.');
    await expect.poll(() => preview.textContent()).toBe('Dear «Client», the amount is «amount».');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { level: 1, name: 'Offer letter' }).waitFor();
    templateId = decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');
    await page.getByRole('heading', { name: 'Edit the template' }).waitFor();
    await checkBothWidths(page, 'template-editor', true);

    await page.getByLabel('Client', { exact: true }).fill('Acme & Co');
    await page.getByLabel('amount', { exact: true }).fill('1200');
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Generate a document' }) });
    await expect.poll(() => form.locator('pre').textContent()).toBe('Dear Acme & Co, the amount is 1200.');
    await generateAndDownload(page);
    await page.locator('tr[data-generation]').first().waitFor();
    const history = await inject(admin, `/document-generations?templateId=${templateId}`);
    expect(history.items).toHaveLength(1);
    expect(history.items[0].outputFormat).toBe('docx');
  });

  it('lets an approver generate from the template without editing it', async () => {
    const visible = await inject(approver, '/document-templates');
    const created = await inject(admin, `/document-templates/${templateId}`);
    expect(
      visible.items.map((item: { id: string }) => item.id),
      JSON.stringify({ created, namespaceId }),
    ).toContain(templateId);
    const other = await browser.newPage();
    await signIn(other, browser.baseUrl, approver);
    await openPage(other, browser.baseUrl, 'admin/templates', 'Document templates');
    await other.getByRole('link', { name: 'Offer letter' }).click();
    await other.getByRole('heading', { level: 1, name: 'Offer letter' }).waitFor();
    await other.getByLabel('Client', { exact: true }).fill('Globex');
    await other.getByLabel('amount', { exact: true }).fill('5');
    await generateAndDownload(other);
    expect(await other.getByRole('heading', { name: 'Edit the template' }).count()).toBe(0);
    expect(await other.getByLabel('Body (Markdown)').count()).toBe(0);
    await openPage(other, browser.baseUrl, 'admin/templates', 'Document templates');
    await other.getByRole('link', { name: 'Offer letter' }).first().waitFor();
    expect(await other.getByRole('link', { name: 'New template' }).count()).toBe(0);
    expect(await other.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    const mine = await inject(approver, `/document-generations?templateId=${templateId}`);
    expect(mine.items.length).toBeGreaterThanOrEqual(1);
  });
});

/**
 * Opens `#/<hash>` and waits for its heading. Right after signing in, the
 * console may still move to its start page, so a page that did not come up
 * is opened once more.
 */
async function openPage(page: Page, baseUrl: string, hash: string, heading: string): Promise<void> {
  const title = page.getByRole('heading', { level: 1, name: heading, exact: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.goto(`${baseUrl}/console/#/${hash}`);
    if (
      await title.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  await title.waitFor();
}

/** Generates a DOCX from the open template, downloads it and checks it is a ZIP (a DOCX is one). */
async function generateAndDownload(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Generate DOCX' }).click();
  const link = page.getByRole('link', { name: /^Download .*\.docx$/ });
  await link.waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = await download.path();
  const bytes = await readFile(file);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
}
