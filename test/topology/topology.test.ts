/**
 * The deploy kit's topology, run as processes: two `api` and two `worker`
 * processes of the built service (dist/main.js, as the image runs it) on
 * PostgreSQL and a Redis of the suite's own, with the fake channel A
 * platform and the fake model. What compose.yaml deploys with
 * `--scale worker=2` and two apis behind the proxy must hold here: a
 * channel A message sent to either api is answered once, a task's socket
 * events reach a client on the other api, and stopping one api or one
 * worker with SIGTERM while messages flow loses nothing.
 * CI builds before the tests; locally, `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/core/db/schema/index.js';
import { createTestDatabase, testDatabaseUrl } from '../database.js';
import { createUser } from '../factories.js';
import { type FaultDeployment, startFaultDeployment } from '../faults/deployment.js';
import { arrivedReplies, tally } from '../faults/tally.js';
import { withDatabase } from '../global-setup.js';
import { waitFor } from '../pipeline-factories.js';
import { SocketTestClient } from '../ws-client.js';
import { type SpreadStream, startSpreadStream } from './spread-stream.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SENDERS = 8;
const PER_SENDER = 4;
const MODEL_LATENCY_MS = 50;
/** Four processes start at once on a shared machine. */
const START_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 60_000;

const distributed = testDatabaseUrl() !== null && Boolean(process.env.REDIS_URL);

let deployment: FaultDeployment;
/** An administrator (every department) and the fault company's namespace, for the socket. */
let admin: { token: string };
let namespaceId: string;
let streams = 0;

const webhookUrls = () => deployment.apiUrls.map((url) => `${url}/api/v1/chanA/webhook`);

/** Waits until every accepted message of `stream` has a reply at the fake platform and the service is quiet. */
async function settled(stream: SpreadStream, id: number): Promise<void> {
  await waitFor(
    'every accepted message answered and no work left',
    async () => {
      const replied = new Set(arrivedReplies(deployment.graph.requests, id).map((reply) => reply.tag));
      return stream.accepted.every((m) => replied.has(m.tag)) && (await deployment.unfinished()) === 0;
    },
    RUN_TIMEOUT_MS,
  );
}

/**
 * Runs a stream across both apis; `fault` (if any) once a third of it was
 * accepted. With `pauseForFault`, each sender waits after its first message
 * until the fault is done, so the rest of the stream surely meets it.
 */
async function run(fault?: () => Promise<void>, { pauseForFault = false } = {}) {
  const id = ++streams;
  let faultDone = () => {};
  const open = new Promise<void>((resolve) => {
    faultDone = resolve;
  });
  const stream = startSpreadStream({
    stream: id,
    webhookUrls: webhookUrls(),
    appSecret: deployment.appSecret,
    phones: deployment.company.phones,
    perSender: PER_SENDER,
    ...(pauseForFault ? { pause: { afterMessages: 1, open } } : {}),
  });
  const failed = stream.done.then(
    () => null,
    (error: unknown) => error,
  );
  if (fault) {
    await waitFor(
      pauseForFault ? "every sender's first message accepted" : 'a third of the stream accepted',
      async () => {
        const error = await Promise.race([failed, Promise.resolve(undefined)]);
        if (error) throw error;
        // Paused, every sender stops after its first message: SENDERS in all.
        return stream.accepted.length >= (pauseForFault ? SENDERS : (SENDERS * PER_SENDER) / 3);
      },
      RUN_TIMEOUT_MS,
    );
    await fault();
  }
  faultDone();
  const error = await failed;
  if (error) throw error;
  await settled(stream, id);
  const counted = tally(
    stream.accepted,
    arrivedReplies(deployment.graph.requests, id),
    await deployment.loggedDuplicates(),
  );
  return { ...counted, stream };
}

describe.runIf(distributed)('two apis and two workers of the built service on PostgreSQL + Redis', () => {
  beforeAll(async () => {
    if (!existsSync(path.join(root, 'dist', 'main.js')))
      throw new Error('dist/main.js is missing: npm run build');
    const stale = spawnSync(process.execPath, ['scripts/build-if-stale.mjs', '--check'], { cwd: root });
    if (stale.status !== 0)
      console.warn('topology: dist/ is older than the sources; npm run build tests the current code');
    const handle = await createTestDatabase();
    const name = handle.location.split('/').pop() ?? '';
    await handle.close();
    deployment = await startFaultDeployment({
      storage: { kind: 'postgres', databaseUrl: withDatabase(testDatabaseUrl() ?? '', name) },
      senders: SENDERS,
      modelLatencyMs: MODEL_LATENCY_MS,
      apis: 2,
      workers: 2,
      entry: 'built',
      async prepare(container, company) {
        const [sender] = await container.db
          .select({ departmentId: users.departmentId })
          .from(users)
          .where(eq(users.phone, company.phones[0] ?? ''));
        const department = sender
          ? await container.repositories.departments.findById(sender.departmentId)
          : null;
        const defaultNamespace = (department?.settings as { defaultNamespaceId?: string } | undefined)
          ?.defaultNamespaceId;
        if (!defaultNamespace) throw new Error('the fault company has no default namespace');
        namespaceId = defaultNamespace;
        admin = await createUser(container, { role: 'admin' });
      },
    });
  }, START_TIMEOUT_MS);
  afterAll(() => deployment?.close(), START_TIMEOUT_MS);

  it(
    'a channel A message sent to either api is answered exactly once',
    async () => {
      const result = await run();
      expect(result.accepted).toBe(SENDERS * PER_SENDER);
      // The stream spreads the senders' messages over both apis.
      expect(new Set(result.stream.accepted.map((m) => m.api))).toEqual(new Set([0, 1]));
      expect(result.lost).toEqual([]);
      expect(result.doubled).toEqual([]);
      expect(result.outOfOrder).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a task created through one api sends its socket events to a client on the other',
    async () => {
      const [firstUrl, secondUrl] = deployment.apiUrls;
      const socket = await SocketTestClient.open(`${secondUrl?.replace(/^http/, 'ws')}/ws/agent-tasks`);
      try {
        await socket.authenticate(admin.token);
        socket.send({ action: 'subscribe', namespaceId });
        await socket.waitFor('subscribed', (f) => f.event === 'subscribed');

        const id = ++streams;
        const stream = startSpreadStream({
          stream: id,
          webhookUrls: [`${firstUrl}/api/v1/chanA/webhook`],
          appSecret: deployment.appSecret,
          phones: deployment.company.phones.slice(0, 1),
          perSender: 1,
        });
        await stream.done;
        // The inbound message made the task on the first api; the socket sits on the second.
        const created = await socket.waitFor('agent-task.created', (f) => f.event === 'agent-task.created');
        const taskId = created.payload.taskId;
        expect(created.payload.namespaceId).toBe(namespaceId);
        const completed = await socket.waitFor(
          'agent-task.completed of that task',
          (f) => f.event === 'agent-task.completed' && f.payload.taskId === taskId,
        );
        expect(completed.payload.status).toBe('done');
        const steps = socket.frames.filter(
          (f) => f.event === 'agent-task.tool-call' && f.payload.taskId === taskId,
        );
        expect(steps.map((f) => f.payload.progress)).toContain(1);
        await settled(stream, id);
        expect(arrivedReplies(deployment.graph.requests, id)).toHaveLength(1);
      } finally {
        socket.close();
      }
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a worker stopped with SIGTERM while messages flow loses nothing',
    async () => {
      const [worker] = deployment.workers;
      const result = await run(async () => {
        await worker?.stop();
      });
      expect(worker?.running).toBe(false);
      expect(result.accepted).toBe(SENDERS * PER_SENDER);
      expect(result.lost).toEqual([]);
      expect(result.doubled).toEqual([]);
      await worker?.start();
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'an api stopped with SIGTERM while messages flow loses nothing: senders go to the other api',
    async () => {
      const stopped = deployment.apis[1];
      let stoppedAt = Number.POSITIVE_INFINITY;
      const result = await run(
        async () => {
          await stopped?.stop();
          stoppedAt = Date.now();
        },
        { pauseForFault: true },
      );
      expect(stopped?.running).toBe(false);
      expect(result.accepted).toBe(SENDERS * PER_SENDER);
      expect(result.lost).toEqual([]);
      expect(result.doubled).toEqual([]);
      // Deliveries meant for the stopped api were refused and taken by the other one.
      expect(result.stream.refused.count).toBeGreaterThan(0);
      const afterStop = result.stream.accepted.filter((m) => m.at > stoppedAt);
      expect(afterStop.length).toBeGreaterThan(0);
      expect(afterStop.every((m) => m.api === 0)).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );
});
