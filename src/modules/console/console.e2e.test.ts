/**
 * The approver console in a real browser (Debian's chromium, headless,
 * driven by playwright-core) against the whole service on a real port with
 * its workers: channel A messages from the local fake platform, the
 * pipeline, approvals, knowledge ingestion, sockets. One browser for the
 * file; the steps run in order and share the signed-in page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from '../../../test/browser.js';
import {
  axeViolations as axeOf,
  type ConsoleBrowser,
  checkBothWidths,
  DESKTOP,
  PHONE,
  startConsoleBrowser,
} from '../../../test/console-browser.js';
import { createUser, TEST_PASSWORD, type TestUser } from '../../../test/factories.js';
import { type FakeGraphServer, startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import {
  postWebhook,
  TEST_PHONE_NUMBER_ID,
  textMessage,
  webhookPayload,
} from '../../../test/fakes/chanA-webhooks.js';
import {
  createPipelineScene,
  type PipelineScene,
  type PipelineTestContext,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';

if (!hasChromium) {
  console.warn(`console e2e: skipped, ${CHROMIUM} is missing (install it with bash .ci/install-chromium.sh)`);
}
const APP_SECRET = 'console-e2e-app-secret';
/** The first load's budget: gzipped JavaScript the page loads before any interaction. */
const FIRST_LOAD_BUDGET = 200 * 1024;
const NAMES = [
  'Anna Channel',
  'Boris Reject',
  'Vira Escalate',
  'Gleb Conflict',
  'Dana Batch',
  'Yurii Batch',
  'Pavlo Phone',
  'Kira Keys',
];

describe.skipIf(!hasChromium)('approver console in a browser', () => {
  let graph: FakeGraphServer;
  let consoleBrowser: ConsoleBrowser;
  let ctx: PipelineTestContext;
  let scene: PipelineScene;
  let head: TestUser;
  let approver: TestUser;
  /** Senders on channel A by name; the first message waits for the browser, the rest are sent together. */
  const people: Record<string, TestUser> = {};
  let page: Page;
  let baseUrl: string;
  /** What the console's Content-Security-Policy refused while the steps ran: nothing, if it fits the build. */
  const cspViolations: string[] = [];

  beforeAll(async () => {
    graph = await startFakeGraphServer();
    consoleBrowser = await startConsoleBrowser({
      CHANA_APP_SECRET: APP_SECRET,
      CHANA_WEBHOOK_VERIFY_TOKEN: 'console-e2e-verify',
      CHANA_PHONE_NUMBER_ID: TEST_PHONE_NUMBER_ID,
      CHANA_ACCESS_TOKEN: 'console-e2e-access-token',
      CHANA_PHONE_NUMBER: '15550783881',
      CHANA_API_BASE_URL: `${graph.url}/v21.0`,
    });
    ({ ctx, baseUrl } = consoleBrowser);
    scene = await createPipelineScene(ctx.container);
    head = await createUser(ctx.container, {
      role: 'dept_head',
      departmentId: scene.departmentId,
      name: 'Olena Head',
    });
    approver = await createUser(ctx.container, {
      role: 'approver',
      departmentId: scene.departmentId,
      name: 'Petro Approver',
    });
    for (const name of NAMES) people[name] = await employee(name);
    page = await consoleBrowser.newPage();
    // Chromium reports what the Content-Security-Policy refused on the page's console.
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await consoleBrowser?.close();
    await graph?.close();
  });

  /** Employees of the scene's department, each with a phone number (a channel A sender). */
  const employee = (name: string) =>
    createUser(ctx.container, {
      departmentId: scene.departmentId,
      name,
      phone: `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`,
    });

  /** The employee writes to the company's channel A number: the platform posts the webhook. */
  const sendOnChannelA = async (sender: TestUser, text: string) => {
    const phone = sender.user.phone!;
    const res = await postWebhook(
      ctx.app,
      webhookPayload({
        messages: [textMessage(phone, text)],
        contacts: [{ waId: phone, name: sender.user.name }],
      }),
      { appSecret: APP_SECRET },
    );
    expect(res.statusCode).toBe(200);
  };

  const inboxRow = (name: string) => page.locator('tr[data-approval-id]', { hasText: name });
  const approvalIdOf = async (name: string) => (await inboxRow(name).getAttribute('data-approval-id'))!;
  const approvalOf = async (id: string) =>
    (await ctx.app.inject({ url: `/api/v1/approvals/${id}`, headers: head.headers })).json();

  const axeViolations = () => axeOf(page);
  const screenshots = (name: string) => checkBothWidths(page, name, true);

  it('keeps the first load under 200 KB of gzipped JavaScript', () => {
    const html = readFileSync(path.join(consoleBrowser.consoleDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce(
      (sum, file) => sum + gzipSync(readFileSync(path.join(consoleBrowser.consoleDir, file))).length,
      0,
    );
    console.info(`console: first load ${(gzipped / 1024).toFixed(1)} KB of gzipped JavaScript`);
    expect(gzipped).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
  });

  it('signs in and waits for the live connection', async () => {
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel('Email').fill(head.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Approvals inbox' }).waitFor();
    await page.locator('[data-live="on"]').waitFor();
  });

  it('shows a channel A message in the inbox without a reload; edit-and-approve reaches the platform', async () => {
    const anna = people['Anna Channel']!;
    await sendOnChannelA(anna, VACATION_QUESTION);
    await inboxRow('Anna Channel').waitFor();
    // The row leads with the employee's question; the draft follows.
    expect(await inboxRow('Anna Channel').locator('td.question a').textContent()).toBe(VACATION_QUESTION);
    expect(await axeViolations(), 'inbox').toEqual([]);

    // The bell counts the approval_pending notification and leads to the approval, marking it read.
    const badge = page.getByTestId('unread-count');
    await badge.waitFor();
    const unread = Number(await badge.textContent());
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByRole('link', { name: 'A reply awaits your approval' }).first().click();
    await page.getByRole('heading', { name: 'Reply to Anna Channel' }).waitFor();
    // allTextContents does not wait: the badge goes away when the count reaches 0, and a
    // textContent() asked for in between would wait for it for the whole timeout.
    await waitFor('the unread count to drop', async () => {
      const [text] = await badge.allTextContents();
      return text === undefined || Number(text) < unread;
    });
    // The others' messages run through the pipeline while this reply is reviewed.
    for (const name of NAMES.slice(1)) await sendOnChannelA(people[name]!, VACATION_QUESTION);
    expect(await page.locator('blockquote.message').textContent()).toBe(VACATION_QUESTION);
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(await page.locator('.sources li').first().textContent()).toContain('Vacation policy');
    expect(await axeViolations(), 'approval detail').toEqual([]);
    await screenshots('approval');

    const edited = 'Twenty four days a year, Anna. Ask HR for the form.';
    await page.getByRole('button', { name: 'Edit, then approve' }).click();
    const editor = page.getByLabel('Reply to send');
    expect(await editor.inputValue()).not.toBe('');
    await editor.fill(edited);
    await page.getByRole('button', { name: 'Send edited reply' }).click();
    await page.getByText('Approved with your edits').waitFor();
    const call = await waitFor('the edited reply at the fake platform', () =>
      graph.messageCalls().find((c) => JSON.stringify(c.body).includes('Twenty four days a year, Anna')),
    );
    expect(call.body.to).toBe(anna.user.phone);
  });

  it('rejects one with a reason and escalates another to a chosen approver', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await inboxRow('Boris Reject').waitFor();
    await inboxRow('Vira Escalate').waitFor();
    const borisId = await approvalIdOf('Boris Reject');
    const viraId = await approvalIdOf('Vira Escalate');

    await inboxRow('Boris Reject').getByRole('link').click();
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByLabel('Reason (optional)').fill('Policy changes next month');
    await page.getByRole('button', { name: 'Reject the reply' }).click();
    await page.getByText('Rejected: nothing was sent.').waitFor();
    expect(await approvalOf(borisId)).toMatchObject({
      status: 'rejected',
      reason: 'Policy changes next month',
    });

    await page.goto(`${baseUrl}/console/#/approvals/${viraId}`);
    await page.getByRole('button', { name: 'Escalate' }).click();
    await page.getByRole('combobox', { name: /^Escalate to/ }).selectOption(approver.user.id);
    await page.getByLabel('Note for them (optional)').fill('Needs your call');
    await page.getByRole('button', { name: 'Escalate' }).click();
    await page.getByText('Escalated.').waitFor();
    expect(await approvalOf(viraId)).toMatchObject({ status: 'escalated', escalatedToId: approver.user.id });
  });

  it('shows a decision made elsewhere instead of hiding it', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await inboxRow('Gleb Conflict').waitFor();
    const id = await approvalIdOf('Gleb Conflict');
    await inboxRow('Gleb Conflict').getByRole('link').click();
    await page.getByRole('button', { name: 'Approve and send' }).waitFor();
    const elsewhere = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${id}/reject`,
      headers: approver.headers,
      payload: { reason: 'decided by a colleague' },
    });
    expect(elsewhere.statusCode).toBe(200);
    await page.getByRole('button', { name: 'Approve and send' }).click();
    await page.getByTestId('conflict').waitFor();
    expect(await page.getByTestId('conflict').textContent()).toContain('Its status now: Rejected');
    expect(await page.getByTestId('approval-status').textContent()).toBe('Rejected');
  });

  it('approves from the phone layout, the decision bar on the first screen', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await inboxRow('Pavlo Phone').waitFor();
    const id = await approvalIdOf('Pavlo Phone');
    await page.setViewportSize(PHONE);
    try {
      await page.goto(`${baseUrl}/console/#/approvals/${id}`);
      const approve = page.getByRole('button', { name: 'Approve and send' });
      await approve.waitFor();
      // Question, draft and the decision are within the first 812 px, without scrolling.
      for (const part of [page.locator('blockquote.message'), page.getByTestId('draft'), approve]) {
        const box = (await part.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      }
      expect(await axeViolations(), 'approval at 375 px').toEqual([]);
      // The conversation and the sources fold open on demand.
      expect(await page.locator('.sources').isVisible()).toBe(false);
      await page.getByText(/^Sources/).click();
      expect(await page.locator('.sources').isVisible()).toBe(true);
      // The escalation list offers colleagues, not the reviewer.
      await page.getByRole('button', { name: 'Escalate' }).click();
      const offered = await page
        .getByRole('combobox', { name: /^Escalate to/ })
        .locator('option')
        .allTextContents();
      expect(offered.some((o) => o.startsWith(head.user.name))).toBe(false);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await approve.click();
      await page.getByText('Approved: the reply is on its way.').waitFor();
      expect(await approvalOf(id)).toMatchObject({ status: 'approved' });
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('moves through the inbox and approves from the keyboard', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await inboxRow('Kira Keys').waitFor();
    const id = await approvalIdOf('Kira Keys');
    await page.keyboard.press('?');
    await page.getByText('Next reply').waitFor();
    expect(await axeViolations(), 'inbox with the keys shown').toEqual([]);
    const rows = await page.locator('tr[data-approval-id]').count();
    for (let i = 0; i < rows; i += 1) {
      if ((await page.locator('tr.current').getAttribute('data-approval-id')) === id) break;
      await page.keyboard.press('j');
    }
    expect(await page.locator('tr.current').getAttribute('data-approval-id')).toBe(id);
    await page.keyboard.press('a');
    await page.locator('[data-result="success"]').waitFor();
    await inboxRow('Kira Keys').waitFor({ state: 'detached' });
    expect(await approvalOf(id)).toMatchObject({ status: 'approved' });
  });

  it('batch-approves two selected replies and shows each result', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await inboxRow('Dana Batch').waitFor();
    await inboxRow('Yurii Batch').waitFor();
    await screenshots('inbox');
    await page.getByLabel('Select the reply to Dana Batch').check();
    await page.getByLabel('Select the reply to Yurii Batch').check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await page.locator('[data-result="success"]').nth(1).waitFor();
    expect(await page.locator('[data-result]').count()).toBe(2);
    await inboxRow('Dana Batch').waitFor({ state: 'detached' });
  });

  it('follows tasks live in the task monitor', async () => {
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Task monitor' }).waitFor();
    await page.locator('tr[data-task-id]').nth(5).waitFor();
    const before = await page.locator('tr[data-task-id]').count();
    const zoe = await employee('Zoe Live');
    await sendOnChannelA(zoe, VACATION_QUESTION);
    await page.locator('tr[data-task-id]').nth(before).waitFor();
    await screenshots('tasks');
    await page.locator('tr[data-task-id] a').first().click();
    await page.getByRole('heading', { name: 'Knowledge search' }).waitFor();
    await page.getByRole('heading', { name: 'Confidence check' }).waitFor();
    await checkBothWidths(page, 'task');
  });

  it('uploads a TXT file and shows it becoming ready', async () => {
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Knowledge', exact: true }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'parking.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Parking spaces are booked through the facilities desk one day ahead.\n'),
    });
    // The title is the file name without its extension.
    await page.locator('tr[data-document="parking"] [data-status="ready"]').waitFor();
    expect(await axeViolations(), 'knowledge').toEqual([]);
  });

  it('changes a trust threshold', async () => {
    await page.getByRole('link', { name: 'Intents and trust' }).click();
    const threshold = page.getByLabel('Threshold for vacation');
    await threshold.fill('7');
    expect(await threshold.inputValue()).toBe('7');
    const [patch] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().includes('/api/v1/intents/trust/') && r.request().method() === 'PATCH',
      ),
      page.getByRole('button', { name: 'Save trust settings for vacation' }).click(),
    ]);
    expect(patch.status(), await patch.text()).toBe(200);
    expect(patch.request().postDataJSON()).toMatchObject({ threshold: 7 });
    await page.getByText('Saved').waitFor();
    const trust = await ctx.app.inject({
      url: `/api/v1/intents/trust?namespaceId=${scene.namespaceId}`,
      headers: head.headers,
    });
    expect(
      trust.json().items.find((r: { intentName: string }) => r.intentName === 'vacation').threshold,
    ).toBe(7);
  });

  it('runs the evaluation cases, then changes the trust policy, keeping the rest of the config', async () => {
    const added = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/namespaces/${scene.namespaceId}/eval-cases`,
      headers: head.headers,
      payload: { question: VACATION_QUESTION, expectedIntent: 'vacation' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const before = (
      await ctx.app.inject({ url: `/api/v1/namespaces/${scene.namespaceId}`, headers: head.headers })
    ).json().config;

    await page.getByRole('button', { name: 'Run the evaluation cases' }).click();
    await page.getByText(/Evaluation: \d+ of 1 answered correctly/).waitFor();
    await page.getByLabel('Mode').selectOption('confidence');
    await page.getByLabel('Rate of approvals without edits to reach').fill('0.9');
    const [patch] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().includes('/api/v1/namespaces/') && r.request().method() === 'PATCH',
      ),
      page.getByRole('button', { name: 'Save the policy' }).click(),
    ]);
    expect(patch.status(), await patch.text()).toBe(200);
    const after = (
      await ctx.app.inject({ url: `/api/v1/namespaces/${scene.namespaceId}`, headers: head.headers })
    ).json().config;
    expect(after).toEqual({
      ...before,
      trust: {
        ...before.trust,
        policy: { mode: 'confidence', window: 50, targetRate: 0.9, confidenceLevel: 0.95, margin: 0.05 },
      },
    });
    await checkBothWidths(page, 'intents and trust policy');
  });

  it('chats on the web channel and shows the reply once it is approved, without a reload', async () => {
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByLabel('Message').fill(VACATION_QUESTION);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-direction="inbound"]').waitFor();
    // Head's first question on the topic goes to a person first.
    await page.getByText('The reply is waiting for a person to approve it.').waitFor();
    const pending = await waitFor('the approval of the chat message', async () => {
      const list = await ctx.app.inject({ url: '/api/v1/approvals?limit=100', headers: approver.headers });
      return list.json().items.find((a: { sender: { id: string } }) => a.sender.id === head.user.id);
    });
    const approved = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${pending.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);
    await page.locator('[data-direction="outbound"]', { hasText: 'twenty four days' }).waitFor();
    await checkBothWidths(page, 'chat');
  });

  it('switches to Ukrainian and remembers it', async () => {
    await page.getByLabel('Language').selectOption('uk');
    await page.getByRole('link', { name: 'Погодження' }).click();
    await page.getByRole('heading', { name: 'Вхідні на погодження' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Вхідні на погодження' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('uk');
  });

  it('sends the user back to the login page when the token is refused', async () => {
    // A token the service does not accept: the first call answers 401.
    await page.evaluate(`sessionStorage.setItem('console.token', 'not-a-token')`);
    await page.reload();
    await page.getByRole('button', { name: 'Увійти' }).waitFor();
    await checkBothWidths(page, 'sign-in');
    // Signed in again, then signed out everywhere: the revoked sockets close and the page follows.
    await page.getByLabel('Електронна пошта').fill(head.user.email);
    await page.getByLabel('Пароль').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Увійти' }).click();
    await page.locator('[data-live="on"]').waitFor();
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/me/logout-all', headers: head.headers });
    expect(res.statusCode).toBe(200);
    await page.getByRole('button', { name: 'Увійти' }).waitFor();
  });

  it('runs every step within its Content-Security-Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
