import { beforeEach } from 'vitest';
import { builtForFile, createTestApp, type TestContext } from './app.js';
import { type FakeLlmOptions, type FakeLlmServer, startFakeLlmServer } from './fakes/llm-server.js';

/** The settings that point the service's OpenAI-compatible provider at `fake` (chat model `model`). */
export function fakeLlmEnv(fake: FakeLlmServer, model = 'fake-chat'): Record<string, string> {
  return {
    LLM_API_KEY: fake.apiKey,
    LLM_BASE_URL: fake.baseUrl,
    LLM_MODEL: model,
    LLM_EMBEDDING_MODEL: 'fake-embed',
  };
}

/** A test app whose LLM provider is the local fake server `fake`. */
export interface FakeLlmTestContext extends TestContext {
  fake: FakeLlmServer;
}

/**
 * One app for the test file with the OpenAI-compatible provider served by a
 * fresh fake LLM server (`env` added to its settings); built before the
 * file's tests, closed after them, and the fake's record cleared before each test.
 */
export function useFakeLlmTestApp(
  env: Record<string, string> = {},
  fakeOptions: FakeLlmOptions = {},
): FakeLlmTestContext {
  const ctx = builtForFile('useFakeLlmTestApp', async (): Promise<FakeLlmTestContext> => {
    const fake = await startFakeLlmServer(fakeOptions);
    const app = await createTestApp({ ...fakeLlmEnv(fake), ...env });
    return {
      ...app,
      fake,
      async close() {
        await app.close();
        await fake.close();
      },
    };
  });
  beforeEach(() => ctx.fake.reset());
  return ctx;
}
