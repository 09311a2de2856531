import { computed, signal } from '@preact/signals';
import { api, configureClient } from '../api/client';
import type { Me } from '../api/types';
import { type Language, setLanguage } from '../i18n';
import { navigate } from './router';

const TOKEN_KEY = 'console.token';

/** The access token, kept for the browser session only (closing the tab signs out). */
export const token = signal<string | null>(sessionStorage.getItem(TOKEN_KEY));
/** GET /me of the signed-in user: capabilities and permissions decide what the console shows. */
export const me = signal<Me | null>(null);
export const signedIn = computed(() => token.value !== null && me.value !== null);

export type Permission = Me['effectivePermissions'][number];
export const can = (permission: Permission): boolean =>
  me.value?.effectivePermissions.includes(permission) ?? false;

configureClient({
  token: () => token.value,
  unauthorized: () => signOut(),
});

/**
 * Whether the service waits for its first administrator (GET /setup): the
 * setup page shows instead of the sign-in page while it does; null until asked.
 */
export const setupNeeded = signal<boolean | null>(null);

/** Asks the service once whether it is set up; a failure counts as set up (the sign-in page shows). */
export async function checkSetup(): Promise<void> {
  setupNeeded.value = await api('get', '/setup')
    .then((status) => status.needed)
    .catch(() => false);
}

/** Keeps a token a sign-in or the setup answered, then reads /me. */
async function adopt(result: { token: string }): Promise<void> {
  token.value = result.token;
  sessionStorage.setItem(TOKEN_KEY, result.token);
  await loadMe();
}

/** Signs in with email and password; throws the API error (401 for wrong credentials). */
export async function signIn(email: string, password: string): Promise<void> {
  await adopt(await api('post', '/auth/login', { body: { email, password } }));
}

/**
 * Creates the first administrator with the setup code from the service's log
 * and signs them in; throws the API error (401 wrong code, 409 set up already, 422 weak password).
 */
export async function completeSetup(input: {
  setupCode: string;
  name: string;
  email: string;
  password: string;
}): Promise<void> {
  const result = await api('post', '/setup', { body: input });
  setupNeeded.value = false;
  await adopt(result);
}

/** Where the queue dashboard lives; the only place a sign-in returns to outside the console. */
export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Opens the queue dashboard in this tab: asks for its session cookie (an
 * HttpOnly cookie only the dashboard's path receives), then goes there.
 * `path` is a page of the dashboard (a sign-in's return path), the board itself by default.
 */
export async function openQueueBoard(path: string = QUEUE_BOARD_PATH): Promise<void> {
  const session = await api('post', '/admin/queues/session');
  location.assign(isQueueBoardPath(path) ? path : session.path);
}

/** A return path the console follows: the dashboard's own pages only, never another site. */
export function isQueueBoardPath(path: string | null): path is string {
  return path !== null && (path === QUEUE_BOARD_PATH || path.startsWith(`${QUEUE_BOARD_PATH}/`));
}

/** Reads /me for the current token; a 401 on the way signs out. */
export async function loadMe(): Promise<void> {
  me.value = await api('get', '/me');
}

/** Forgets the token (the server keeps no session) and goes back to the login page. */
export function signOut(): void {
  token.value = null;
  me.value = null;
  sessionStorage.removeItem(TOKEN_KEY);
  navigate({ name: 'login' });
}

/**
 * The console's language choice: kept in this browser, and, when someone is
 * signed in, saved as their language (PATCH /me), which the service uses for
 * what it writes to them unprompted. A failed save leaves the console's choice.
 */
export function chooseLanguage(next: Language): void {
  setLanguage(next);
  if (token.value) void api('patch', '/me', { body: { language: next } }).catch(() => {});
}
