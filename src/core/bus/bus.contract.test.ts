import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testRedis } from '../../../test/database.js';
import type { Bus } from './bus.js';
import { createMemoryBus } from './memory-bus.js';
import { createRedisBus } from './redis-bus.js';

const redis = testRedis();
/** Subscriber failures the buses reported; the test that provokes one checks it. */
const reported: unknown[] = [];
const logger = { warn: () => undefined, error: (object: object) => void reported.push(object) };

const implementations: Array<{ name: string; open(): Bus }> = [
  { name: 'memory', open: () => createMemoryBus({ logger }) },
];
if (redis) implementations.push({ name: 'redis', open: () => createRedisBus({ ...redis, logger }) });

/** A channel no other test uses. */
const fresh = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;
const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 5000, interval: 10 });

for (const impl of implementations) {
  describe(`Bus contract: ${impl.name}`, () => {
    let bus: Bus;
    beforeAll(() => {
      bus = impl.open();
    });
    afterAll(async () => {
      await bus.close();
    });

    it('delivers a message to the subscribers of its channel only', async () => {
      const [news, other] = [fresh('news'), fresh('other')];
      const onNews: unknown[] = [];
      const onOther: unknown[] = [];
      await bus.subscribe(news, (message) => onNews.push(message));
      await bus.subscribe(other, (message) => onOther.push(message));
      await bus.publish(news, { kind: 'agent-task.created', id: 'a1', at: new Date(0) });
      await waitFor(() => expect(onNews).toHaveLength(1));
      // Messages travel as JSON on both buses: a Date arrives as its ISO string.
      expect(onNews[0]).toEqual({ kind: 'agent-task.created', id: 'a1', at: '1970-01-01T00:00:00.000Z' });
      // A later message on the other channel arrives after the first would have: the first never came.
      await bus.publish(other, 'marker');
      await waitFor(() => expect(onOther).toEqual(['marker']));
      expect(onNews).toHaveLength(1);
    });

    it('delivers asynchronously, never inside publish', async () => {
      const channel = fresh('async');
      const received: unknown[] = [];
      await bus.subscribe(channel, (message) => received.push(message));
      const publishing = bus.publish(channel, 1);
      expect(received).toEqual([]);
      await publishing;
      await waitFor(() => expect(received).toEqual([1]));
    });

    it('delivers to several subscribers, and a failing one does not stop the others', async () => {
      const channel = fresh('fanout');
      const first: unknown[] = [];
      const second: unknown[] = [];
      reported.length = 0;
      await bus.subscribe(channel, (message) => first.push(message));
      await bus.subscribe(channel, () => {
        throw new Error('subscriber broke');
      });
      await bus.subscribe(channel, (message) => second.push(message));
      await bus.publish(channel, { n: 1 });
      await bus.publish(channel, { n: 2 });
      await waitFor(() => expect(second).toEqual([{ n: 1 }, { n: 2 }]));
      expect(first).toEqual([{ n: 1 }, { n: 2 }]);
      expect(reported).toHaveLength(2);
    });

    it('publishAll delivers every message on its own channel, in the order given', async () => {
      const tasks = fresh('all-tasks');
      const notices = fresh('all-notices');
      const heard: unknown[] = [];
      await bus.subscribe(tasks, (message) => heard.push({ tasks: message }));
      await bus.subscribe(notices, (message) => heard.push({ notices: message }));
      await bus.publishAll([]);
      await bus.publishAll([
        { channel: tasks, message: 1 },
        { channel: notices, message: 'a' },
        { channel: tasks, message: { n: 2 } },
      ]);
      await waitFor(() => expect(heard).toHaveLength(3));
      expect(heard).toEqual([{ tasks: 1 }, { notices: 'a' }, { tasks: { n: 2 } }]);
    });

    it('stops delivering to a subscriber that unsubscribed', async () => {
      const channel = fresh('leave');
      const marker = fresh('marker');
      const leaving: unknown[] = [];
      const staying: unknown[] = [];
      const onMarker: unknown[] = [];
      const unsubscribe = await bus.subscribe(channel, (message) => leaving.push(message));
      await bus.subscribe(channel, (message) => staying.push(message));
      await bus.subscribe(marker, (message) => onMarker.push(message));
      await bus.publish(channel, 'before');
      await waitFor(() => expect(staying).toEqual(['before']));
      expect(leaving).toEqual(['before']);

      await unsubscribe();
      await bus.publish(channel, 'after');
      await waitFor(() => expect(staying).toEqual(['before', 'after']));
      expect(leaving).toEqual(['before']);

      // The last subscriber of a channel leaving: nothing more arrives there.
      const lastOnly = fresh('last');
      const last: unknown[] = [];
      const leave = await bus.subscribe(lastOnly, (message) => last.push(message));
      await leave();
      await bus.publish(lastOnly, 'lost');
      await bus.publish(marker, 'done');
      await waitFor(() => expect(onMarker).toEqual(['done']));
      expect(last).toEqual([]);
    });
  });
}
