import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import '../http/route-config.js';
import authPlugin from './auth-plugin.js';
import { createTokenService } from './jwt.js';

const options = {
  tokens: createTokenService('x'.repeat(40), 60),
  resolveActor: async () => null,
  publicPrefixes: ['/docs'],
};

describe('auth plugin', () => {
  it('fails the boot when a route has no config.auth', async () => {
    const app = Fastify();
    await app.register(authPlugin, options);
    expect(() => app.get('/forgotten', async () => 'open?')).toThrow(
      'Route GET /forgotten has no config.auth',
    );
  });

  it("boots when every route says 'none' or 'user', and plugin routes under a public prefix need none", async () => {
    const app = Fastify();
    await app.register(authPlugin, options);
    app.get('/open', { config: { auth: 'none' } }, async () => 'ok');
    app.get('/closed', { config: { auth: 'user' } }, async () => 'ok');
    app.get('/docs/json', async () => ({}));
    await app.ready();
    expect((await app.inject({ url: '/open' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/closed' })).statusCode).not.toBe(200);
    await app.close();
  });
});
