import { builtForFile } from './app.js';
import { type FakeGraphServer, startFakeGraphServer } from './fakes/chanA-graph-server.js';
import { TEST_PHONE_NUMBER_ID } from './fakes/chanA-webhooks.js';
import { createPipelineTestApp, type PipelineTestContext } from './pipeline-factories.js';

/** The app secret the channel A test apps verify webhook signatures with. */
export const TEST_APP_SECRET = 'test-app-secret';
/** The handshake token of the channel A test apps. */
export const TEST_VERIFY_TOKEN = 'test-verify-token';

export interface ChanATestApp {
  /** The fake Graph server every Graph call of the app goes to. */
  graph: FakeGraphServer;
  ctx: PipelineTestContext;
  close(): Promise<void>;
}

/**
 * The whole service with channel A configured against a fresh fake Graph
 * server (signed webhooks with {@link TEST_APP_SECRET}, the handshake token
 * {@link TEST_VERIFY_TOKEN}, a stored access token) and its workers running.
 */
export async function startChanATestApp(): Promise<ChanATestApp> {
  const graph = await startFakeGraphServer();
  const ctx = await createPipelineTestApp(
    {
      CHANA_APP_SECRET: TEST_APP_SECRET,
      CHANA_WEBHOOK_VERIFY_TOKEN: TEST_VERIFY_TOKEN,
      CHANA_PHONE_NUMBER_ID: TEST_PHONE_NUMBER_ID,
      CHANA_ACCESS_TOKEN: 'test-access-token',
      CHANA_PHONE_NUMBER: '15550783881',
      CHANA_API_BASE_URL: `${graph.url}/v21.0`,
    },
    { workers: true },
  );
  return {
    graph,
    ctx,
    async close() {
      await ctx.close();
      await graph.close();
    },
  };
}

/**
 * {@link startChanATestApp} for one test file: started before its tests and
 * closed after them; the answer reads through to it once started.
 */
export function useChanATestApp(): ChanATestApp {
  return builtForFile('useChanATestApp', startChanATestApp);
}
