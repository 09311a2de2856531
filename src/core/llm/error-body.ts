/**
 * OpenAI-compatible servers answer errors in several shapes: OpenAI, Azure, Ollama and llama.cpp
 * nest the text in `{ error: { message } }`, vLLM has answered `{ object: "error", message }`,
 * FastAPI-based proxies `{ detail }`, some gateways `{ error: "text" }` or plain text. The SDK
 * reads only the first shape (the others become "404 status code (no body)" or a quoted JSON
 * string), so the server's own words would be lost from the task's error message.
 */

type Json = Record<string, unknown>;

const MAX_MESSAGE = 1000;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, MAX_MESSAGE) : null;

/** The error text a server's error body carries, whatever its shape; null when it carries none. */
export function errorMessageOf(body: unknown): string | null {
  if (typeof body === 'string') return text(body);
  if (!isObject(body)) return null;
  const { error } = body;
  if (isObject(error)) return text(error.message) ?? text(error.code);
  if (typeof error === 'string') return text(error);
  if (text(body.message)) return text(body.message);
  const { detail } = body;
  if (Array.isArray(detail)) {
    const parts = detail.flatMap((d) => (isObject(d) && text(d.msg) ? [text(d.msg)] : []));
    return parts.length ? parts.join('; ').slice(0, MAX_MESSAGE) : null;
  }
  return text(detail);
}

/**
 * `fetch` for the OpenAI SDK that rewrites an error answer into the shape the SDK reads
 * (`{ error: { message, type, code } }`) when it has another, so the provider's message reaches
 * the error. Answers that already have that shape, and successful ones, pass untouched.
 */
export function readableErrorFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok) return response;
    const raw = await response.text();
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // Not JSON: the text itself is the message.
    }
    const nested = isObject(body) && isObject(body.error) && typeof body.error.message === 'string';
    const message = nested ? null : errorMessageOf(body);
    const rewritten =
      nested || message === null
        ? raw
        : JSON.stringify({
            error: {
              message,
              type: isObject(body) ? (text(body.type) ?? null) : null,
              code:
                isObject(body) && (typeof body.code === 'string' || typeof body.code === 'number')
                  ? body.code
                  : null,
            },
          });
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(rewritten, { status: response.status, statusText: response.statusText, headers });
  };
}
