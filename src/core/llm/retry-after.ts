/**
 * The longest wait a provider's `retry-after` may ask for that is honoured
 * (60 s, half the default AGENT_TASK_TIMEOUT_MS). openai 6.x waits whatever
 * the header says, however long, and a waiting request keeps its place among
 * the LLM_MAX_CONCURRENCY in flight: past this the request fails at once.
 */
export const RETRY_AFTER_MAX_MS = 60_000;

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms`, else
 * `retry-after` in seconds or as an HTTP date (the headers the SDK reads, in
 * its order); null when it names none.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms)) return ms;
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number.parseFloat(value);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * `fetch` for the OpenAI SDK that turns a retryable answer asking for a
 * wait longer than `maxWaitMs` into a final one (`x-should-retry: false`,
 * which the SDK obeys), so the call fails with the provider's status
 * instead of sleeping past the task's deadline with its place held.
 * Shorter waits are left to the SDK, which retries after them.
 */
export function cappedRetryAfterFetch(
  maxWaitMs: number = RETRY_AFTER_MAX_MS,
  base: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok) return response;
    const wait = retryAfterMs(response.headers);
    if (wait === null || wait <= maxWaitMs) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
