import type { DbExecutor } from '../src/core/db/client.js';
import { type FakeBotServer, startFakeBotServer } from './fakes/chanB-bot-server.js';
import { createPipelineTestApp, type PipelineTestContext } from './pipeline-factories.js';

/**
 * The channel B settings of the test apps: the bot `token` against the fake Bot API at `botUrl`,
 * one-second long polls and a short poller lock, so tests see updates and a new poller quickly.
 */
export function chanBTestEnv(
  botUrl: string,
  token: string,
  options: { ratePerMinute?: number } = {},
): Record<string, string> {
  return {
    CHANB_BOT_TOKEN: token,
    CHANB_API_BASE_URL: botUrl,
    CHANB_POLL_TIMEOUT_SEC: '1',
    CHANB_LOCK_TTL_MS: '10000',
    CHANB_LOCK_RETRY_MS: '100',
    CHANB_RATE_LIMIT_PER_MIN: String(options.ratePerMinute ?? 100),
  };
}

export interface ChanBTestApp {
  /** The fake Bot API server the app polls and sends to. */
  bot: FakeBotServer;
  ctx: PipelineTestContext;
  close(): Promise<void>;
}

/** The whole service with channel B configured against a fresh fake Bot API server, workers running. */
export async function startChanBTestApp(options: {
  token: string;
  username?: string;
  ratePerMinute?: number;
}): Promise<ChanBTestApp> {
  const bot = await startFakeBotServer({
    token: options.token,
    ...(options.username ? { username: options.username } : {}),
  });
  const ctx = await createPipelineTestApp(chanBTestEnv(bot.url, options.token, options), { workers: true });
  return {
    bot,
    ctx,
    async close() {
      await ctx.close();
      await bot.close();
    },
  };
}

/** Platform user ids no other test uses, from `start` on (a private chat has the user's id). */
export function chatIds(start: number): () => number {
  let next = start + Math.floor(Math.random() * 1_000_000);
  return () => {
    next += 1;
    return next;
  };
}

/** Links platform user `chat` to `userId` as a stored channel B identity would. */
export async function linkChanBUser(ctx: PipelineTestContext, chat: number, userId: string, tx?: DbExecutor) {
  await ctx.container.pipeline.repositories.senders.insertIdentity(
    'chanB',
    String(chat),
    userId,
    tx ?? ctx.container.db,
  );
}
