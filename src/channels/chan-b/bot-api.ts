import { Api, GrammyError, HttpError } from 'grammy';

/** The Bot API client channel B uses: grammY's raw `Api` (no hand-written HTTP). */
export type BotApi = Api;

/**
 * A client for the bot, or null without CHANB_BOT_TOKEN (channel B is then
 * not configured). `CHANB_API_BASE_URL` is the API root (a local server in
 * tests); the token never appears in errors or logs (grammY keeps the URL out
 * of its messages).
 */
export function createBotApi(config: { botToken: string | null; apiBaseUrl: string }): BotApi | null {
  if (!config.botToken) return null;
  return new Api(config.botToken, { apiRoot: config.apiBaseUrl.replace(/\/+$/, '') });
}

/** What a failed Bot API call came to, without the token or the payload. */
export interface BotFailure {
  /** The platform's error code (400, 403, 409, 429, 5xx), or null when no answer came (network). */
  code: number | null;
  /** The platform's description, or the network error's message. */
  description: string;
  /** `parameters.retry_after` in milliseconds, when the platform said how long to wait. */
  retryAfterMs: number | null;
}

/** Reads a grammY error; anything else (a bug of ours) is rethrown. */
export function botFailure(error: unknown): BotFailure {
  if (error instanceof GrammyError) {
    const after = error.parameters?.retry_after;
    return {
      code: error.error_code,
      description: error.description,
      retryAfterMs: typeof after === 'number' && after >= 0 ? after * 1000 : null,
    };
  }
  if (error instanceof HttpError) return { code: null, description: error.message, retryAfterMs: null };
  throw error;
}

/**
 * The bot's username from `getMe`, asked once and kept for the process's
 * life (a bot's username does not change under the same token); null
 * without a client, or while the platform cannot be reached (asked again
 * next time).
 */
export function createBotUsername(api: BotApi | null): () => Promise<string | null> {
  let known: string | null = null;
  return async () => {
    if (!api) return null;
    if (known) return known;
    try {
      known = (await api.getMe()).username ?? null;
    } catch (error) {
      botFailure(error);
      return null;
    }
    return known;
  };
}
