/**
 * The console as each role sees it, in a real browser (test/console-browser.ts):
 * an administrator, a department head, an approver and an employee sign in,
 * and the administration pages each may open are exactly those its
 * permissions allow; every page they open passes axe-core at both widths.
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
import { createPipelineScene, type PipelineScene } from '../../../test/pipeline-factories.js';

const ALL_SECTIONS = [
  'Departments',
  'Users',
  'Roles',
  'Namespaces',
  'Document templates',
  'Analytics',
  'Learning suggestions',
  'Channels',
  'Audit log',
];

describe.skipIf(!hasChromium)('the console by role', () => {
  let browser: ConsoleBrowser;
  let scene: PipelineScene;
  const users: Record<'admin' | 'head' | 'approver' | 'employee', TestUser> = {} as never;

  beforeAll(async () => {
    browser = await startConsoleBrowser();
    scene = await createPipelineScene(browser.ctx.container);
    const departmentId = scene.departmentId;
    users.admin = await createUser(browser.ctx.container, { role: 'admin', departmentId, name: 'Ada Admin' });
    users.head = await createUser(browser.ctx.container, {
      role: 'dept_head',
      departmentId,
      name: 'Olena Head',
    });
    users.approver = await createUser(browser.ctx.container, {
      role: 'approver',
      departmentId,
      name: 'Petro Approver',
    });
    users.employee = scene.employee;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Opens the administration index from the navigation and expects exactly `sections` listed. */
  const expectSections = async (page: Page, sections: string[]) => {
    await page.getByRole('navigation').getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    await expect.poll(() => page.locator('ul.admin-sections > li > a').allTextContents()).toEqual(sections);
    await checkBothWidths(page, 'administration');
  };

  it('lists every administration page for an administrator', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, users.admin);
    await expectSections(page, ALL_SECTIONS);
  });

  it('lists a department head’s pages, without channels or department management', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, users.head);
    await expectSections(page, [
      'Departments',
      'Users',
      'Roles',
      'Namespaces',
      'Document templates',
      'Analytics',
      'Learning suggestions',
      'Audit log',
    ]);
  });

  it('shows an approver no page for departments, users, roles or namespaces', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, users.approver);
    await expectSections(page, ['Document templates']);
    await page.goto(`${browser.baseUrl}/console/#/admin/users`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('not allowed');
    // Knowledge upload stays, as canUploadDocuments allows.
    await page.getByRole('navigation').getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Knowledge', exact: true }).waitFor();
    await page.locator('input[type="file"]').waitFor({ state: 'attached' });
  });

  it('shows an employee only document generation', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, users.employee);
    await expectSections(page, ['Document templates']);
    // Reading knowledge, not uploading: the employee role has no canUploadDocuments.
    await page.getByRole('navigation').getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Knowledge', exact: true }).waitFor();
    expect(await page.locator('input[type="file"]').count()).toBe(0);
  });
});
