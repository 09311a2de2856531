/** Graph error code of a message sent outside the 24-hour customer-service window. */
export const OUTSIDE_WINDOW_CODE = 131047;

/**
 * Graph error codes that mean "too much, too fast" whatever the HTTP status:
 * application, account and pair rate limits, spam throttling. Worth a
 * later try, like a 429.
 */
const THROTTLING_CODES = new Set([4, 17, 32, 613, 80007, 130429, 131048, 131056]);

/** Why a Graph call did not succeed, as far as the answer tells. */
export interface GraphFailure {
  /** HTTP status; 0 when no answer came (network error, time-out). */
  status: number;
  /** The Graph error `code`, when the body had one. */
  code: number | null;
  /** A line for people: the platform's message with its code, never a token. */
  reason: string;
  /** From Retry-After (seconds or an HTTP date), in milliseconds. */
  retryAfterMs?: number;
  /** 429, 5xx, a throttling code or no answer: another try may succeed. */
  retryable: boolean;
}

export type GraphResult<T> = { ok: true; value: T } | { ok: false; failure: GraphFailure };

/** An interactive message: reply buttons (at most 3) or a list opened by a button (one section or more). */
export type GraphInteractive =
  | {
      type: 'button';
      body: { text: string };
      action: { buttons: Array<{ type: 'reply'; reply: { id: string; title: string } }> };
    }
  | {
      type: 'list';
      body: { text: string };
      action: { button: string; sections: Array<{ rows: Array<{ id: string; title: string }> }> };
    };

/**
 * The body of a `POST /{phone-number-id}/messages`, minus the fields every message carries;
 * `context.message_id` sends it as a reply to that message.
 */
export type GraphMessage = (
  | { type: 'text'; text: { body: string; preview_url: boolean } }
  | { type: 'template'; template: { name: string; language: { code: string } } }
  | { type: 'interactive'; interactive: GraphInteractive }
) & { context?: { message_id: string } };

/**
 * A small fetch-based client for the parts of the Graph API channel A uses:
 * the messages call and the `fb_exchange_token` exchange. It never throws
 * for a platform answer or a network error: each call answers a
 * {@link GraphResult}, and the caller decides what a failure means.
 */
export function createGraphClient(options: { baseUrl: string; timeoutMs?: number }) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function call(url: string, init: RequestInit): Promise<GraphResult<Record<string, unknown>>> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      return {
        ok: false,
        failure: { status: 0, code: null, reason: `Graph API ${reason}`, retryable: true },
      };
    }
    const body = await response.json().catch(() => null);
    if (response.ok && isObject(body)) return { ok: true, value: body };
    return { ok: false, failure: failureOf(response, body) };
  }

  return {
    /** `POST /{phone-number-id}/messages` to one recipient; answers the platform's message id (`wamid…`). */
    async sendMessage(
      input: { phoneNumberId: string; token: string; to: string },
      message: GraphMessage,
    ): Promise<GraphResult<{ id: string }>> {
      const result = await call(`${base}/${encodeURIComponent(input.phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${input.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: input.to,
          ...message,
        }),
      });
      if (!result.ok) return result;
      const messages = result.value.messages;
      const id = Array.isArray(messages) && isObject(messages[0]) ? messages[0].id : undefined;
      if (typeof id !== 'string' || !id) {
        return {
          ok: false,
          failure: {
            status: 200,
            code: null,
            reason: 'Graph API answered without a message id',
            retryable: false,
          },
        };
      }
      return { ok: true, value: { id } };
    },

    /**
     * `GET /oauth/access_token?grant_type=fb_exchange_token…`: trades a token
     * for a long-lived one; `expiresInSec` null when the answer has no expiry.
     */
    async exchangeToken(input: {
      appId: string;
      appSecret: string;
      token: string;
    }): Promise<GraphResult<{ accessToken: string; expiresInSec: number | null }>> {
      const query = new URLSearchParams({
        grant_type: 'fb_exchange_token',
        client_id: input.appId,
        client_secret: input.appSecret,
        fb_exchange_token: input.token,
      });
      const result = await call(`${base}/oauth/access_token?${query}`, { method: 'GET' });
      if (!result.ok) return result;
      const { access_token: accessToken, expires_in: expiresIn } = result.value;
      if (typeof accessToken !== 'string' || !accessToken) {
        return {
          ok: false,
          failure: {
            status: 200,
            code: null,
            reason: 'Graph API answered without an access token',
            retryable: false,
          },
        };
      }
      return {
        ok: true,
        value: {
          accessToken,
          expiresInSec: typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : null,
        },
      };
    },
  };
}

export type GraphClient = ReturnType<typeof createGraphClient>;

/** Reads a Graph error answer: `{ error: { message, type, code, error_data?, fbtrace_id } }`. */
function failureOf(response: Response, body: unknown): GraphFailure {
  const error = isObject(body) && isObject(body.error) ? body.error : null;
  const code = typeof error?.code === 'number' ? error.code : null;
  const message = typeof error?.message === 'string' ? error.message : response.statusText || 'no message';
  const details =
    isObject(error?.error_data) && typeof error.error_data.details === 'string'
      ? error.error_data.details
      : null;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  const retryable =
    response.status === 429 || response.status >= 500 || (code !== null && THROTTLING_CODES.has(code));
  return {
    status: response.status,
    code,
    reason: `Graph API ${response.status}${code !== null ? ` (code ${code})` : ''}: ${message}${details ? ` (${details})` : ''}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    retryable,
  };
}

/** Retry-After as milliseconds from `now`: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
