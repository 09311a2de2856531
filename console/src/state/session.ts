import { computed, signal } from '@preact/signals';
import { api, configureClient } from '../api/client';
import type { Me } from '../api/types';
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

/** Signs in with email and password; throws the API error (401 for wrong credentials). */
export async function signIn(email: string, password: string): Promise<void> {
  const result = await api('post', '/auth/login', { body: { email, password } });
  token.value = result.token;
  sessionStorage.setItem(TOKEN_KEY, result.token);
  await loadMe();
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
