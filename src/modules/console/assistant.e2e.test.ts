/**
 * The namespace screens in a real browser (test/console-browser.ts): an
 * administrator creates a namespace, sets its system prompt and persona,
 * installs a plugin through the form generated from its JSON Schema (a
 * missing required field is said and nothing is stored), adds an evaluation
 * case and runs it; a department head sees only their department's namespaces.
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
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { createPipelineScene, type PipelineScene } from '../../../test/pipeline-factories.js';

describe.skipIf(!hasChromium)('the namespace screens', () => {
  let browser: ConsoleBrowser;
  let scene: PipelineScene;
  let admin: TestUser;
  let head: TestUser;
  let otherNamespaceName: string;
  let page: Page;
  let namespaceId: string;

  beforeAll(async () => {
    browser = await startConsoleBrowser();
    scene = await createPipelineScene(browser.ctx.container);
    admin = await createUser(browser.ctx.container, {
      role: 'admin',
      departmentId: scene.departmentId,
      name: 'Ada Admin',
    });
    head = await createUser(browser.ctx.container, {
      role: 'dept_head',
      departmentId: scene.departmentId,
      name: 'Olena Head',
    });
    const other = await createDepartment(browser.ctx.container);
    otherNamespaceName = `Elsewhere ${other.slug}`;
    await createNamespace(browser.ctx.container, { departmentId: other.id, name: otherNamespaceName });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Opens the namespaces list from the navigation, as a user would. */
  const openNamespaces = async (on: Page) => {
    await on.getByRole('navigation').getByRole('link', { name: 'Administration' }).click();
    await on.getByRole('link', { name: 'Namespaces', exact: true }).click();
    await on.getByRole('heading', { level: 1, name: 'Namespaces' }).waitFor();
  };

  /** The namespace as the API answers it to the administrator. */
  const stored = async (path = '') => {
    const response = await browser.ctx.app.inject({
      url: `/api/v1/namespaces/${namespaceId}${path}`,
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('creates a namespace and sets its system prompt and persona', async () => {
    page = await browser.newPage();
    await signIn(page, browser.baseUrl, admin);
    await openNamespaces(page);
    await page.getByRole('heading', { name: 'All namespaces' }).waitFor();
    await page.getByRole('link', { name: otherNamespaceName }).waitFor();
    await checkBothWidths(page, 'namespaces', true);

    await page.getByLabel('Name', { exact: true }).fill('HR assistant');
    await page.getByRole('combobox', { name: /^Department/ }).selectOption(scene.departmentId);
    await page.getByRole('button', { name: 'Create namespace' }).click();
    await page.getByRole('heading', { level: 1, name: 'HR assistant' }).waitFor();
    namespaceId = decodeURIComponent(page.url().split('/').pop() ?? '');

    await page.getByLabel('System prompt', { exact: true }).fill('You answer questions about leave.');
    await page.getByRole('button', { name: 'Save name and prompt' }).click();
    await page.getByRole('region', { name: 'General' }).getByRole('status').getByText('Saved').waitFor();

    await page.getByRole('textbox', { name: /^Answer language/ }).fill('uk');
    await page.getByLabel('Off-limits topics', { exact: true }).fill('salaries of colleagues');
    await page.getByRole('button', { name: 'Save persona' }).click();
    await page.getByRole('region', { name: 'Persona' }).getByRole('status').getByText('Saved').waitFor();

    const namespace = await stored();
    expect(namespace.name).toBe('HR assistant');
    expect(namespace.departmentId).toBe(scene.departmentId);
    expect(namespace.systemPrompt).toBe('You answer questions about leave.');
    expect(namespace.persona).toEqual({ language: 'uk', boundaries: ['salaries of colleagues'] });
    await checkBothWidths(page, 'namespace', true);
  }, 120_000);

  it('installs a plugin through its generated form, refusing a missing required field', async () => {
    const plugins = page.getByRole('region', { name: 'Plugins' });
    await plugins.getByRole('button', { name: 'Install Outbound webhook' }).click();
    const form = page.getByRole('region', { name: 'Install Outbound webhook' });
    await form.getByLabel('url (required)', { exact: true }).fill('https://hooks.example.test/hr');
    await form.getByRole('button', { name: 'Install', exact: true }).click();
    await form.getByRole('alert').getByText('Nothing was saved. Fill in: secret.').waitFor();
    expect(await form.getByLabel('secret (required)', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect((await stored('/plugins')).items).toEqual([]);
    await checkBothWidths(page, 'namespace-plugin-form', true);

    await form.getByLabel('secret (required)', { exact: true }).fill('a-secret-of-twenty-chars');
    await form.getByLabel('approval.decided', { exact: true }).check();
    await form.getByRole('button', { name: 'Install', exact: true }).click();
    await plugins.getByRole('status').getByText('Outbound webhook saved.').waitFor();
    const installed = (await stored('/plugins')).items;
    expect(installed).toHaveLength(1);
    expect(installed[0]).toMatchObject({
      pluginId: 'webhook',
      enabled: true,
      config: { url: 'https://hooks.example.test/hr', secret: '[set]', events: ['approval.decided'] },
    });
  }, 120_000);

  it('adds an evaluation case and runs it', async () => {
    const evaluation = page.getByRole('region', { name: 'Evaluation' });
    await evaluation.getByLabel('Question', { exact: true }).fill('How many vacation days do employees get?');
    await evaluation.getByLabel('Expected phrase in the answer', { exact: true }).fill('twenty four');
    await evaluation.getByRole('button', { name: 'Add case' }).click();
    await evaluation
      .getByRole('cell', { name: 'How many vacation days do employees get?', exact: true })
      .waitFor();
    expect((await stored('/eval-cases')).items).toHaveLength(1);

    await evaluation.getByRole('button', { name: 'Run evaluation' }).click();
    await evaluation.getByText(/\d of 1 correct/).waitFor({ timeout: 60_000 });
    const runs = (await stored('/eval-runs')).items;
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('completed');
    await evaluation.getByRole('table', { name: 'Result of each case' }).waitFor();
  }, 120_000);

  it('shows a department head only the namespaces of their department', async () => {
    const headPage = await browser.newPage();
    await signIn(headPage, browser.baseUrl, head);
    await openNamespaces(headPage);
    await headPage.getByRole('link', { name: 'HR assistant' }).waitFor();
    const names = await headPage.locator('table a').allTextContents();
    expect(names).not.toContain(otherNamespaceName);
    expect(names.length).toBeGreaterThan(0);
    const response = await browser.ctx.app.inject({
      url: '/api/v1/namespaces?limit=100',
      headers: head.headers,
    });
    const ids = response.json().items.map((n: { departmentId: string }) => n.departmentId);
    expect(new Set(ids)).toEqual(new Set([scene.departmentId]));
  }, 120_000);
});
