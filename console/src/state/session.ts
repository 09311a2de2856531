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

/**
 * True while the password is being changed: the service revokes every
 * earlier token, this tab's too, before the answer brings the new one, so a
 * refusal meanwhile is expected, not a reason to sign out.
 */
let renewing = false;

configureClient({
  token: () => token.value,
  unauthorized: () => {
    if (!renewing) signOut();
  },
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

function keepToken(value: string): void {
  token.value = value;
  sessionStorage.setItem(TOKEN_KEY, value);
}

/** Keeps a token a sign-in or the setup answered, then reads /me. */
async function adopt(result: { token: string }): Promise<void> {
  keepToken(result.token);
  await loadMe();
}

/**
 * Changes the password (POST /me/change-password) and keeps the token the
 * answer brings, so this tab stays signed in while every other session ends
 * (the sockets reopen with the new token); throws the API error (401 wrong
 * current password, 422 weak new one).
 */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  renewing = true;
  try {
    const result = await api('post', '/me/change-password', { body: { currentPassword, newPassword } });
    keepToken(result.token);
  } finally {
    renewing = false;
  }
}

/**
 * A socket's token was refused (4003): sign out, unless this tab has a
 * newer token already or is getting one (a password change).
 */
export function refusedToken(refused: string): void {
  if (!renewing && refused === token.value) signOut();
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
