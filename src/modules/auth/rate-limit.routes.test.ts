import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';

const ctx = useTestApp({ AUTH_RATE_LIMIT_PER_MIN: '3' });

it('answers 429 past AUTH_RATE_LIMIT_PER_MIN requests a minute from one address', async () => {
  const login = (remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress,
      payload: { email: 'nobody@example.test', password: 'whatever1' },
    });
  // Windows are whole minutes; start well inside one so the four requests share it.
  const msToNextMinute = 60_000 - (Date.now() % 60_000);
  if (msToNextMinute < 5_000) await sleep(msToNextMinute + 50);

  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await login('10.1.1.1')).statusCode);
  expect(statuses).toEqual([401, 401, 401]);
  const limited = await login('10.1.1.1');
  expect(limited.statusCode).toBe(429);
  expect(limited.json().error).toBe('TooManyRequestsError');
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  // Another address has its own budget.
  expect((await login('10.2.2.2')).statusCode).toBe(401);
});
