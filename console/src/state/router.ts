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
  | { name: 'intents' };

export function parseRoute(hash: string): Route | null {
  // `#/setup?code=…` and `#/login?next=…` carry a query after the page.
  const [, first, second] = (hash.replace(/^#/, '').split('?')[0] ?? '').split('/');
  if (first === 'setup') return { name: 'setup' };
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
