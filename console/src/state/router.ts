import { signal } from '@preact/signals';

/** The pages, addressed by the URL's hash (`#/approvals/<id>`), so the service serves one page for all. */
export type Route =
  | { name: 'login' }
  | { name: 'setup' }
  | { name: 'inbox' }
  | { name: 'approval'; id: string }
  | { name: 'tasks' }
  | { name: 'task'; id: string }
  | { name: 'knowledge' }
  | { name: 'chat' }
  | { name: 'intents' }
  | AdminRoute
  | { name: 'account' };

/**
 * The administration pages: `#/admin` lists those the user may open, each at
 * `#/admin/<section>` and, for one record, `#/admin/<section>/<id>`.
 */
export const ADMIN_SECTIONS = [
  'departments',
  'users',
  'roles',
  'namespaces',
  'templates',
  'analytics',
  'learning',
  'channels',
  'audit',
] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];
export type AdminRoute = { name: 'admin'; section?: AdminSection; id?: string };

const isAdminSection = (value: string | undefined): value is AdminSection =>
  (ADMIN_SECTIONS as readonly string[]).includes(value ?? '');

export function parseRoute(hash: string): Route | null {
  // `#/setup?code=…` and `#/login?next=…` carry a query after the page.
  const [, first, second, third] = (hash.replace(/^#/, '').split('?')[0] ?? '').split('/');
  if (first === 'setup') return { name: 'setup' };
  if (first === 'account') return { name: 'account' };
  if (first === 'admin') {
    if (!isAdminSection(second)) return { name: 'admin' };
    return third
      ? { name: 'admin', section: second, id: decodeURIComponent(third) }
      : { name: 'admin', section: second };
  }
  if (first === 'approvals' && second) return { name: 'approval', id: decodeURIComponent(second) };
  if (first === 'tasks' && second) return { name: 'task', id: decodeURIComponent(second) };
  if (first === 'login' || first === 'inbox' || first === 'tasks' || first === 'knowledge') {
    return { name: first };
  }
  if (first === 'chat' || first === 'intents') return { name: first };
  return null;
}

export const route = signal<Route | null>(parseRoute(location.hash));
window.addEventListener('hashchange', () => {
  route.value = parseRoute(location.hash);
});

export function hrefOf(target: Route): string {
  if (target.name === 'approval') return `#/approvals/${encodeURIComponent(target.id)}`;
  if (target.name === 'task') return `#/tasks/${encodeURIComponent(target.id)}`;
  if (target.name === 'admin') {
    if (!target.section) return '#/admin';
    return target.id
      ? `#/admin/${target.section}/${encodeURIComponent(target.id)}`
      : `#/admin/${target.section}`;
  }
  return `#/${target.name}`;
}

export function navigate(target: Route): void {
  location.hash = hrefOf(target);
}

/** A parameter of the hash's query (`#/setup?code=…`), or null. */
export function hashParam(name: string): string | null {
  const query = location.hash.split('?')[1];
  return query ? new URLSearchParams(query).get(name) : null;
}
