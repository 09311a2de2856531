import { createHmac, timingSafeEqual } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';
import { type LocalHttpServer, startHttpServer } from '../../../test/http-server.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  makeAutonomous,
  markInteracted,
  type PipelineScene,
  type PipelineTestContext,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { agentRuns, agentTasks, approvals, messages } from '../../core/db/schema/index.js';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/plugins');
const SECRET = 'webhook-secret-for-the-test-run';
const SIGNATURE = '— HR assistant';

// Operator plugins for this file: the documented example, one that throws, one that never answers, one invalid.
const pluginsDir = mkdtempSync(path.join(tmpdir(), 'aos-plugins-'));
copyFileSync(path.join(EXAMPLES, 'reply-signature.mjs'), path.join(pluginsDir, 'reply-signature.mjs'));
const operatorPlugin = (id: string, hooks: string) => `export default {
  id: '${id}', name: '${id}', description: 'test plugin ${id}', version: '0.0.1',
  configSchema: { type: 'object' },
  hooks: { ${hooks} },
};\n`;
writeFileSync(
  path.join(pluginsDir, 'thrower.mjs'),
  operatorPlugin('thrower', "before_generate() { throw new Error('boom from the thrower'); }"),
);
writeFileSync(
  path.join(pluginsDir, 'sleeper.js'),
  operatorPlugin('sleeper', 'after_confidence_check() { return new Promise(() => {}); }'),
);
writeFileSync(path.join(pluginsDir, 'broken.mjs'), "export default { id: 'Not Valid', hooks: {} };\n");
writeFileSync(path.join(pluginsDir, 'README.txt'), 'not a plugin\n');

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

let ctx: PipelineTestContext;
let fake: FakeLlmServer;
let receiver: LocalHttpServer;
const received: Received[] = [];
/** Statuses the receiver answers next, one per request; 200 once empty. */
const receiverStatuses: number[] = [];
// Saturday noon in Kyiv's winter (UTC+2) is outside Monday-Friday hours.
let clock = new Date('2026-01-17T10:00:00Z');
let admin: TestUser;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  receiver = await startHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(receiverStatuses.shift() ?? 200).end();
  });
  ctx = await createPipelineTestApp(
    {
      LLM_API_KEY: fake.apiKey,
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: 'fake-chat',
      LLM_EMBEDDING_MODEL: 'fake-embed',
      PLUGINS_DIR: pluginsDir,
      PLUGIN_TIMEOUT_MS: '400',
      PLUGIN_WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    // Draws above every sampling rate: an autonomous intent is never sampled.
    { workers: true, random: () => 0.99, now: () => clock },
  );
  admin = await createUser(ctx.container, { role: 'admin' });
});
afterAll(async () => {
  await ctx?.close();
  await receiver?.close();
  await fake?.close();
  rmSync(pluginsDir, { recursive: true, force: true });
});

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: admin.headers, ...(payload ? { payload } : {}) });

async function install(namespaceId: string, pluginId: string, config: object) {
  const res = await api('POST', `/namespaces/${namespaceId}/plugins/${pluginId}`, { config });
  expect(res.statusCode, res.body).toBe(201);
}

let asked = 0;
/** Sends `text` on the web channel as the scene's employee and waits for the task to finish. */
async function ask(scene: PipelineScene, text = VACATION_QUESTION) {
  const userId = scene.employee.user.id;
  const { taskId } = await ctx.container.pipeline.inbound.receive({
    channel: 'web',
    channelUserId: userId,
    userId,
    text,
    channelMessageId: `plugins-${++asked}`,
  });
  const task = await waitFor(`task ${taskId} to finish`, async () => {
    const [row] = await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.id, taskId!));
    return row && ['done', 'failed', 'timeout'].includes(row.status) ? row : null;
  });
  const calls = await ctx.container.pipeline.repositories.tasks.toolCalls(task.id);
  return { task, output: task.output as Record<string, unknown>, calls };
}

/** A scene whose vacation intent is autonomous and already met: without plugins its reply is auto-sent. */
async function trustedScene() {
  const scene = await createPipelineScene(ctx.container);
  await ask(scene);
  await makeAutonomous(ctx.container, scene.namespaceId, 'vacation');
  await markInteracted(ctx.container, scene.employee.user.id, scene.namespaceId, 'vacation');
  return scene;
}

const pluginCalls = <T extends { stepName: string }>(calls: T[]) =>
  calls.filter((c) => c.stepName.startsWith('plugin:'));

describe('operator plugins from PLUGINS_DIR', () => {
  it('loads valid *.js and *.mjs plugins and skips the invalid ones', async () => {
    const res = await api('GET', '/plugins?limit=100');
    const plugins = res.json().items as Array<{ id: string; source: string; hooks: string[] }>;
    expect(plugins.filter((p) => p.source === 'operator').map((p) => p.id)).toEqual([
      'reply-signature',
      'sleeper',
      'thrower',
    ]);
    expect(plugins.find((p) => p.id === 'reply-signature')!.hooks).toEqual([
      'before_generate',
      'after_confidence_check',
    ]);
    expect(plugins.some((p) => p.id === 'Not Valid')).toBe(false);
  });

  it("runs the example: its instructions reach the model's prompt and it signs the reply", async () => {
    const scene = await createPipelineScene(ctx.container);
    await install(scene.namespaceId, 'reply-signature', { signature: SIGNATURE });
    fake.reset();
    const { task, output, calls } = await ask(scene);
    expect(task.status).toBe('done');
    const [chat] = fake.requestsTo('/v1/chat/completions');
    const system = (chat!.body.messages as Array<{ role: string; content: string }>).find(
      (m) => m.role === 'system',
    );
    expect(system!.content).toContain(`End every reply with this line: ${SIGNATURE}`);
    expect(output.reply).toMatch(new RegExp(`${SIGNATURE}$`));
    expect(calls.map((c) => c.stepName)).toEqual([
      'inject_profile',
      'rag_search',
      'plugin:reply-signature',
      'generate',
      'confidence_check',
      'plugin:reply-signature',
    ]);
    expect(pluginCalls(calls).map((c) => [c.status, (c.inputData as { hook: string }).hook])).toEqual([
      ['done', 'before_generate'],
      ['done', 'after_confidence_check'],
    ]);
    const [approval] = await ctx.container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
    expect(approval!.originalContent).toBe(output.reply);
    // With plugins the run is written before the hooks' calls, not with the decision: the trace is there.
    const [run] = await ctx.container.db.select().from(agentRuns).where(eq(agentRuns.taskId, task.id));
    expect(run).toMatchObject({ traceId: task.traceId, model: expect.any(String) });
    expect(task.totalTokens).toBe(run!.totalTokens);
    expect(run!.totalTokens).toBeGreaterThan(0);
  });
});

describe('a failing plugin never breaks the pipeline', () => {
  it('records a throwing plugin as a failed tool call; the task is still done with its reply', async () => {
    const scene = await createPipelineScene(ctx.container);
    await install(scene.namespaceId, 'thrower', {});
    const { task, output, calls } = await ask(scene);
    expect(task.status).toBe('done');
    expect(output.reply).toContain('FAKE-LLM answer');
    const [call] = pluginCalls(calls);
    expect(call).toMatchObject({ stepName: 'plugin:thrower', status: 'failed', outputData: null });
    expect(call!.errorMessage).toContain('boom from the thrower');
  });

  it('records a plugin past PLUGIN_TIMEOUT_MS as a failed tool call and goes on', async () => {
    const scene = await createPipelineScene(ctx.container);
    await install(scene.namespaceId, 'sleeper', {});
    const { task, calls } = await ask(scene);
    expect(task.status).toBe('done');
    const [call] = pluginCalls(calls);
    expect(call).toMatchObject({ stepName: 'plugin:sleeper', status: 'failed' });
    expect(call!.errorMessage).toBe('plugin:sleeper (after_confidence_check) did not finish within 400 ms');
  });

  it('DELETE stops the plugin for the next task', async () => {
    const scene = await createPipelineScene(ctx.container);
    await install(scene.namespaceId, 'thrower', {});
    expect(pluginCalls((await ask(scene)).calls)).toHaveLength(1);
    expect((await api('DELETE', `/namespaces/${scene.namespaceId}/plugins/thrower`)).statusCode).toBe(204);
    const next = await ask(scene);
    expect(next.task.status).toBe('done');
    expect(pluginCalls(next.calls)).toEqual([]);
    // PATCH enabling it again is seen by the next task too.
    await api('PATCH', `/namespaces/${scene.namespaceId}/plugins/thrower`, { enabled: true });
    expect(pluginCalls((await ask(scene)).calls)).toHaveLength(1);
  });
});

describe('glossary', () => {
  it('rewrites a forbidden term in an auto-sent reply', async () => {
    const scene = await trustedScene();
    await install(scene.namespaceId, 'glossary', {
      terms: [{ term: 'PAID VACATION', replacement: 'paid leave', action: 'rewrite' }],
    });
    const { output, task } = await ask(scene);
    expect(output.route).toBe('auto_send');
    expect(output.reply).toContain('paid leave');
    expect(output.reply).not.toMatch(/paid vacation/i);
    const [sent] = await ctx.container.db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(sent!.content).toBe(output.reply);
  });

  it('sends a reply with a flagged term to a human with the reason', async () => {
    const scene = await trustedScene();
    await install(scene.namespaceId, 'glossary', { terms: [{ term: 'calendar year', action: 'flag' }] });
    const { output, task } = await ask(scene);
    expect(output.route).toBe('hitl');
    expect(output.reasons).toEqual([
      { type: 'plugin', pluginId: 'glossary', reason: 'the reply uses forbidden terms: calendar year' },
    ]);
    const [approval] = await ctx.container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
    expect(approval).toMatchObject({ status: 'pending' });
  });
});

describe('business hours, with a fixed clock', () => {
  const hours = {
    timeZone: 'Europe/Kyiv',
    days: ['mon', 'tue', 'wed', 'thu', 'fri'],
    from: '09:00',
    to: '18:00',
  };

  it('outside the hours answers with the configured message at once; inside, the reply goes as usual', async () => {
    const scene = await createPipelineScene(ctx.container);
    const message = 'We are closed at the weekend; a colleague answers on Monday.';
    await install(scene.namespaceId, 'business-hours', { ...hours, outsideHours: 'reply', message });
    clock = new Date('2026-01-17T10:00:00Z'); // Saturday
    const outside = await ask(scene);
    expect(outside.output).toMatchObject({ route: 'auto_send', reply: message, reasons: [] });
    const [sent] = await ctx.container.db.select().from(messages).where(eq(messages.taskId, outside.task.id));
    expect(sent!.content).toBe(message);

    clock = new Date('2026-01-19T08:00:00Z'); // Monday 10:00 in Kyiv
    const inside = await ask(scene);
    expect(inside.output.reply).toContain('FAKE-LLM answer');
    expect(inside.output.route).toBe('hitl');
    expect(pluginCalls(inside.calls)[0]).toMatchObject({ status: 'done', outputData: {} });
  });

  it('outside the hours can send every reply to a human instead', async () => {
    const scene = await trustedScene();
    await install(scene.namespaceId, 'business-hours', { ...hours, outsideHours: 'hitl' });
    clock = new Date('2026-01-19T17:30:00Z'); // Monday 19:30 in Kyiv
    const { output } = await ask(scene);
    expect(output.route).toBe('hitl');
    expect(output.reasons).toEqual([
      {
        type: 'plugin',
        pluginId: 'business-hours',
        reason: 'outside business hours (mon, tue, wed, thu, fri 09:00-18:00 Europe/Kyiv)',
      },
    ]);
  });
});

describe('outbound webhook', () => {
  const verify = (request: Received) => {
    const header = String(request.headers['x-signature-256']);
    const expected = `sha256=${createHmac('sha256', SECRET).update(request.raw).digest('hex')}`;
    return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
  };

  it('POSTs a signed task event, then a signed approval event when a human decides', async () => {
    const scene = await createPipelineScene(ctx.container);
    await install(scene.namespaceId, 'webhook', { url: `${receiver.url}/hooks/assistant`, secret: SECRET });
    const { task, output } = await ask(scene);
    const routed = await waitFor('the task event', () =>
      received.find((r) => r.raw.includes(task.id) && r.raw.includes('"task.routed"')),
    );
    expect(verify(routed)).toBe(true);
    expect(routed.headers['content-type']).toBe('application/json');
    const body = JSON.parse(routed.raw);
    expect(body).toMatchObject({
      type: 'task.routed',
      data: {
        type: 'task.routed',
        taskId: task.id,
        namespaceId: scene.namespaceId,
        route: 'hitl',
        approvalId: output.approvalId,
        reply: output.reply,
      },
    });
    expect(routed.headers['x-webhook-delivery']).toBe(body.id);
    const recorded = await waitFor('the webhook tool call', async () =>
      pluginCalls(await ctx.container.pipeline.repositories.tasks.toolCalls(task.id)).find(
        (c) => c.stepName === 'plugin:webhook',
      ),
    );
    expect(recorded).toMatchObject({ status: 'done', outputData: { status: 200, attempts: 1 } });
    expect(JSON.stringify(recorded)).not.toContain(SECRET);

    const approved = await api('POST', `/approvals/${output.approvalId}/approve`, {});
    expect(approved.statusCode).toBe(200);
    const decided = await waitFor('the approval event', () =>
      received.find((r) => r.raw.includes('"approval.decided"') && r.raw.includes(String(output.approvalId))),
    );
    expect(verify(decided)).toBe(true);
    expect(JSON.parse(decided.raw).data).toMatchObject({
      approvalId: output.approvalId,
      taskId: task.id,
      status: 'approved',
      decidedById: admin.user.id,
      content: output.reply,
    });
  });

  it('retries a failed delivery with backoff', async () => {
    const scene = await createPipelineScene(ctx.container);
    await install(scene.namespaceId, 'webhook', {
      url: `${receiver.url}/hooks/retry`,
      secret: SECRET,
      events: ['task.routed'],
    });
    receiverStatuses.push(503);
    const { task } = await ask(scene);
    const recorded = await waitFor('the webhook tool call', async () =>
      pluginCalls(await ctx.container.pipeline.repositories.tasks.toolCalls(task.id)).find(
        (c) => c.stepName === 'plugin:webhook',
      ),
    );
    expect(recorded).toMatchObject({ status: 'done', outputData: { status: 200, attempts: 2 } });
    const attempts = received.filter((r) => r.raw.includes(task.id));
    expect(attempts).toHaveLength(2);
    expect(attempts.every(verify)).toBe(true);
  });
});
