import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalHttpServer, startHttpServer } from '../../../../test/http-server.js';
import type { PluginContext, TaskRoutedEvent } from '../plugin.js';
import { guardedPost, PermanentDeliveryError, signBody } from './signed-post.js';
import { createWebhookPlugin, type WebhookConfig } from './webhook.plugin.js';

let server: LocalHttpServer;
const bodies: Array<{ path: string; raw: string; signature: string }> = [];

beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    bodies.push({
      path: req.url ?? '',
      raw: Buffer.concat(chunks).toString('utf8'),
      signature: String(req.headers['x-signature-256']),
    });
    res
      .writeHead(req.url === '/gone' ? 410 : req.url === '/moved' ? 302 : 204, { location: '/elsewhere' })
      .end();
  });
});
afterAll(() => server.close());

const event: TaskRoutedEvent = {
  type: 'task.routed',
  taskId: 't1',
  namespaceId: 'n1',
  departmentId: 'd1',
  route: 'auto_send',
  approvalId: null,
  messageId: 'm1',
  intent: 'vacation',
  confidence: 0.9,
  reply: 'Twenty four days.',
  occurredAt: '2026-01-17T10:00:00.000Z',
};

function context(config: WebhookConfig): PluginContext<WebhookConfig> {
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  return {
    config,
    namespace: { id: 'n1', departmentId: 'd1' },
    taskId: 't1',
    now: () => new Date('2026-01-17T10:00:01.000Z'),
    signal: new AbortController().signal,
    logger,
  };
}

describe('webhook plugin', () => {
  it('signs the exact body it sends with HMAC-SHA256 of the secret', async () => {
    const plugin = createWebhookPlugin({ allowPrivate: true });
    const secret = 'unit-test-secret-0123456789';
    const result = await plugin.hooks.after_delivery!(context({ url: `${server.url}/ok`, secret }), {
      event,
    });
    expect(result).toMatchObject({ status: 204, attempts: 1 });
    const sent = bodies.find((b) => b.path === '/ok')!;
    expect(sent.signature).toBe(`sha256=${createHmac('sha256', secret).update(sent.raw).digest('hex')}`);
    expect(sent.signature).toBe(signBody(sent.raw, secret));
    expect(JSON.parse(sent.raw)).toMatchObject({
      type: 'task.routed',
      sentAt: '2026-01-17T10:00:01.000Z',
      data: event,
    });
  });

  it('skips event types it is not configured for', async () => {
    const plugin = createWebhookPlugin({ allowPrivate: true });
    const config = {
      url: `${server.url}/skip`,
      secret: 'x'.repeat(16),
      events: ['approval.decided' as const],
    };
    expect(await plugin.hooks.after_delivery!(context(config), { event })).toEqual({
      skipped: 'task.routed',
    });
    expect(bodies.some((b) => b.path === '/skip')).toBe(false);
  });

  it('does not retry a 4xx or follow a redirect', async () => {
    const plugin = createWebhookPlugin({ allowPrivate: true });
    for (const target of ['/gone', '/moved']) {
      const before = bodies.filter((b) => b.path === target).length;
      await expect(
        plugin.hooks.after_delivery!(context({ url: `${server.url}${target}`, secret: 'y'.repeat(16) }), {
          event,
        }),
      ).rejects.toThrow(/failed: HTTP (410|302)$/);
      expect(bodies.filter((b) => b.path === target).length).toBe(before + 1);
    }
  });

  it('refuses loopback, private and link-local addresses unless allowed, before connecting', async () => {
    const signal = new AbortController().signal;
    for (const url of [
      `${server.url}/private`,
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
    ]) {
      await expect(guardedPost(url, '{}', {}, { allowPrivate: false, signal })).rejects.toBeInstanceOf(
        PermanentDeliveryError,
      );
    }
    await expect(
      guardedPost(`${server.url}/private`, '{}', {}, { allowPrivate: false, signal }),
    ).rejects.toThrow(
      /loopback address; this is refused as a private address unless PLUGIN_WEBHOOK_ALLOW_PRIVATE=true/,
    );
    await expect(guardedPost('file:///etc/passwd', '{}', {}, { allowPrivate: true, signal })).rejects.toThrow(
      /only http and https/,
    );
    expect(bodies.some((b) => b.path === '/private')).toBe(false);
  });
});
