import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { postWebhook, textMessage, wamid, webhookPayload } from '../../../test/fakes/chanA-webhooks.js';
import { ConfigError, loadConfig } from '../../core/config/config.js';
import { messageJobId } from './webhook.service.js';

// Without CHANA_APP_SECRET nothing can tell the platform's POSTs from anyone else's.
const unsigned = useTestApp();
const allowed = useTestApp({ CHANA_ALLOW_UNSIGNED: 'true' });

const payload = (id: string) => webhookPayload({ messages: [textMessage('380501239999', 'hello', id)] });

describe('POST /chanA/webhook without CHANA_APP_SECRET', () => {
  it('answers 503 ServiceUnavailableError to unsigned and signed POSTs and queues nothing', async () => {
    for (const options of [{}, { appSecret: 'any-secret-at-all' }, { signature: 'sha256=00' }]) {
      const id = wamid();
      const res = await postWebhook(unsigned.app, payload(id), options);
      expect(res.statusCode, JSON.stringify(options)).toBe(503);
      expect(res.json()).toMatchObject({ error: 'ServiceUnavailableError', statusCode: 503 });
      expect(res.json().message).toContain('CHANA_APP_SECRET');
      expect(await unsigned.container.queue.getJob('chanA-inbound', messageJobId(id))).toBeNull();
    }
  });

  it('takes unsigned POSTs when CHANA_ALLOW_UNSIGNED=true (local testing)', async () => {
    const id = wamid();
    const res = await postWebhook(allowed.app, payload(id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(await allowed.container.queue.getJob('chanA-inbound', messageJobId(id))).toMatchObject({
      name: 'message',
      data: { id, text: 'hello' },
    });
  });

  it('still answers 400 for a body that is not JSON when unsigned POSTs are allowed', async () => {
    const res = await postWebhook(allowed.app, '{"object":');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'BadRequestError' });
  });
});

describe('CHANA_ALLOW_UNSIGNED in production', () => {
  it('refuses to start, naming the setting', () => {
    const env = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-secret-that-is-long-enough-for-hs256',
      LLM_API_KEY: 'sk-test',
      CHANA_ALLOW_UNSIGNED: 'true',
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).problems.join('\n')).toContain('CHANA_ALLOW_UNSIGNED');
    }
    expect(() => loadConfig({ ...env, CHANA_ALLOW_UNSIGNED: 'false' })).not.toThrow();
  });
});
