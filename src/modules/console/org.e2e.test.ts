/**
 * The organisation screens in a real browser (test/console-browser.ts): an
 * administrator creates and renames a department, archives another, creates
 * a user in it, revokes one of the user's permissions, links a channel
 * identity, sees the system roles read-only and creates a custom role; a
 * department head sees only their department and no way to create or archive.
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
import { createDepartment, createUser, type TestUser } from '../../../test/factories.js';
import { createPipelineScene, type PipelineScene } from '../../../test/pipeline-factories.js';

interface Named {
  id: string;
  name: string;
}

describe.skipIf(!hasChromium)('the organisation screens', () => {
  let browser: ConsoleBrowser;
  let scene: PipelineScene;
  let admin: TestUser;
  let head: TestUser;
  let headDepartment: Named;
  let spare: Named;
  const departmentName = 'Logistics Hub';
  const renamed = 'Logistics and Supply';
  const email = `oksana-${Date.now()}@example.test`;
  let userId = '';

  beforeAll(async () => {
    browser = await startConsoleBrowser();
    scene = await createPipelineScene(browser.ctx.container);
    admin = await createUser(browser.ctx.container, {
      role: 'admin',
      departmentId: scene.departmentId,
      name: 'Ada Admin',
    });
    headDepartment = await createDepartment(browser.ctx.container, { name: 'Head Office Finance' });
    spare = await createDepartment(browser.ctx.container, { name: 'Old Archive Unit' });
    head = await createUser(browser.ctx.container, {
      role: 'dept_head',
      departmentId: headDepartment.id,
      name: 'Olena Head',
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  const get = async <T>(user: TestUser, url: string): Promise<T> => {
    const response = await browser.ctx.app.inject({ url: `/api/v1${url}`, headers: user.headers });
    expect(response.statusCode, url).toBe(200);
    return response.json() as T;
  };

  /** Opens an administration page from the navigation, as a user would (a typed address races the sign-in's own redirect). */
  const open = async (page: Page, section: string) => {
    page.on('pageerror', (error) => console.error(`page error on ${section}:`, error.message));
    await page.getByRole('navigation').getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('heading', { level: 1, name: 'Administration' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: section, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: section }).waitFor();
  };

  it('creates, renames and archives departments as an administrator', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, admin);
    await open(page, 'Departments');
    const create = page.getByRole('form', { name: 'New department' });
    await create.getByLabel('Name', { exact: true }).fill(departmentName);
    await create.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('status').getByText('Department created.').waitFor();
    await page.getByRole('rowheader', { name: departmentName }).waitFor();
    await checkBothWidths(page, 'departments', true);

    await page.getByRole('button', { name: `Rename ${departmentName}` }).click();
    await page.getByLabel(`New name of ${departmentName}`).fill(renamed);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: renamed }).waitFor();
    const found = await get<{ items: Named[] }>(admin, `/departments?search=${encodeURIComponent(renamed)}`);
    expect(found.items.map((d) => d.name)).toEqual([renamed]);

    await page.getByRole('button', { name: `Archive ${spare.name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, archive' }).click();
    await page.getByRole('status').getByText('Department archived.').waitFor();
    const archived = await get<{ isArchived: boolean }>(admin, `/departments/${spare.id}`);
    expect(archived.isArchived).toBe(true);
  }, 120_000);

  it('creates a user, revokes a permission and links a channel identity', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, admin);
    await open(page, 'Users');
    const create = page.getByRole('form', { name: 'New user' });
    await create.getByLabel('Name', { exact: true }).fill('Oksana Clerk');
    await create.getByLabel('Email', { exact: true }).fill(email);
    await create.locator('input[type=password]').fill('clerk-pass-42');
    await create.getByLabel(/^Role/).selectOption({ label: 'Employee' });
    await create.getByLabel(/^Department/).selectOption({ label: renamed });
    await create.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('status').getByText('User Oksana Clerk created.').waitFor();
    await page.getByRole('link', { name: 'Oksana Clerk' }).waitFor();
    await checkBothWidths(page, 'users', true);

    const users = await get<{ items: Array<Named & { email: string; departmentId: string }> }>(
      admin,
      `/users?search=${encodeURIComponent(email)}`,
    );
    expect(users.items).toHaveLength(1);
    userId = users.items[0]!.id;

    await page.getByRole('link', { name: 'Oksana Clerk' }).click();
    await page.getByRole('heading', { level: 1, name: 'Oksana Clerk' }).waitFor();
    const before = await get<{ effectivePermissions: string[] }>(admin, `/users/${userId}/effective-access`);
    expect(before.effectivePermissions).toContain('canGenerateDocuments');
    await page.getByRole('button', { name: 'Revoke Generate documents' }).click();
    await page.getByRole('button', { name: 'Undo revoke: Generate documents' }).waitFor();
    const after = await get<{ effectivePermissions: string[]; overrides: { revokedPermissions: string[] } }>(
      admin,
      `/users/${userId}/effective-access`,
    );
    expect(after.effectivePermissions).not.toContain('canGenerateDocuments');
    expect(after.overrides.revokedPermissions).toEqual(['canGenerateDocuments']);
    await expect
      .poll(() => page.getByRole('row', { name: /canGenerateDocuments/ }).textContent())
      .toContain('Revoked from this user');

    await page.getByLabel('Sender id on chanB').fill('123456789');
    await page.getByRole('button', { name: 'Save chanB identity' }).click();
    await page.getByRole('status').getByText('Channel identity saved.').waitFor();
    const identities = await get<{ items: Array<{ channel: string; channelUserId: string }> }>(
      admin,
      `/users/${userId}/channel-identities`,
    );
    expect(identities.items).toEqual([
      expect.objectContaining({ channel: 'chanB', channelUserId: '123456789' }),
    ]);
    await page.getByRole('button', { name: 'Unlink chanB' }).waitFor();
    await checkBothWidths(page, 'user', true);
  }, 120_000);

  it('lists system roles read-only and creates a custom role', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, admin);
    await open(page, 'Roles');
    const adminRow = page.getByRole('row', { name: /Administrator/ });
    await adminRow.getByText('System role').waitFor();
    expect(await adminRow.getByRole('button').count()).toBe(0);

    const create = page.getByRole('form', { name: 'New role' });
    await create.getByLabel('Role name', { exact: true }).fill('Warehouse clerk');
    await create.getByLabel('Use knowledge').check();
    await create.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('status').getByText('Role created.').waitFor();
    await page.getByRole('rowheader', { name: /Warehouse clerk/ }).waitFor();
    const roles = await get<{ items: Array<Named & { permissions: string[]; isSystem: boolean }> }>(
      admin,
      '/roles?search=Warehouse',
    );
    expect(roles.items).toEqual([
      expect.objectContaining({
        name: 'Warehouse clerk',
        permissions: ['canViewKnowledge'],
        isSystem: false,
      }),
    ]);
    await page.getByRole('button', { name: 'Edit role Warehouse clerk' }).waitFor();
    await checkBothWidths(page, 'roles', true);
  }, 120_000);

  it('shows a department head only their department, without create or archive', async () => {
    const page = await browser.newPage();
    await signIn(page, browser.baseUrl, head);
    await open(page, 'Departments');
    await page.getByRole('rowheader', { name: headDepartment.name }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.getByRole('form', { name: 'New department' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Archive|Rename/ }).count()).toBe(0);
    await checkBothWidths(page, 'departments-head');
  });
});
