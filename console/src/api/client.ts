import type { paths } from './schema';

/** Everything the console calls lives under the API prefix (the OpenAPI description's server URL). */
export const API_PREFIX = '/api/v1';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Json<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** The body of the operation's success answer (200, 201 or 202); undefined for 204. */
export type Success<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: infer R }
    ? R extends { 200: infer S }
      ? Json<S>
      : R extends { 201: infer S }
        ? Json<S>
        : R extends { 202: infer S }
          ? Json<S>
          : undefined
    : never;
export type QueryOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type ParamsOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { parameters: { path: infer A } } ? A : never;
export type BodyOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export interface RequestOptions<P extends keyof paths, M extends Method> {
  params?: ParamsOf<P, M>;
  query?: QueryOf<P, M>;
  body?: BodyOf<P, M>;
  /** A multipart form instead of a JSON body. */
  form?: FormData;
}

/** An answer outside 2xx, in the service's error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly details: Array<{ field: string; message: string }> = [],
  ) {
    super(message);
  }
}

let currentToken: () => string | null = () => null;
let onUnauthorized: () => void = () => {};

/** Wires the client to the session: where the token comes from, what a 401 does. */
export function configureClient(options: { token: () => string | null; unauthorized: () => void }): void {
  currentToken = options.token;
  onUnauthorized = options.unauthorized;
}

function urlOf(path: string, params?: unknown, query?: unknown): string {
  let url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, unknown> | undefined)?.[name] ?? '')),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  if (qs) url += `?${qs}`;
  return API_PREFIX + url;
}

/**
 * Calls one operation of the API, typed by the generated description: the
 * path, its parameters, query, body and answer all come from schema.d.ts.
 * A 401 on any call but the login itself ends the session.
 */
export async function api<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  options: RequestOptions<P, M> = {},
): Promise<Success<P, M>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = currentToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(urlOf(path, options.params, options.query), {
    method: method.toUpperCase(),
    headers,
    body,
  });
  if (res.status === 204) return undefined as Success<P, M>;
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const envelope = (data ?? {}) as { error?: string; message?: string; details?: ApiError['details'] };
    if (res.status === 401 && path !== '/auth/login') onUnauthorized();
    throw new ApiError(
      res.status,
      envelope.error ?? 'Error',
      envelope.message ?? res.statusText,
      envelope.details ?? [],
    );
  }
  return data as Success<P, M>;
}
