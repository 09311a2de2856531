import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api } from '../api/client';
import type { Department, Namespace } from '../api/types';
import { me } from './session';

const departments = signal<Department[] | null>(null);
const namespaces = signal<Namespace[] | null>(null);

/** The departments the user works in (all of them for a global role), read once per session. */
export function useDepartments(): Department[] {
  useEffect(() => {
    if (departments.value) return;
    void api('get', '/departments', { query: { limit: 100 } })
      .then((page) => {
        const user = me.value;
        const mine = new Set(user?.effectiveDepartmentIds ?? []);
        departments.value = user?.isGlobal ? page.items : page.items.filter((d) => mine.has(d.id));
      })
      .catch(() => {
        departments.value = [];
      });
  }, []);
  return departments.value ?? [];
}

/** The namespaces the user can see, read once per session. */
export function useNamespaces(): Namespace[] {
  useEffect(() => {
    if (namespaces.value) return;
    void api('get', '/namespaces', { query: { limit: 100 } })
      .then((page) => {
        namespaces.value = page.items;
      })
      .catch(() => {
        namespaces.value = [];
      });
  }, []);
  return namespaces.value ?? [];
}

/** Forgets what was read for the previous user. */
export function clearDirectory(): void {
  departments.value = null;
  namespaces.value = null;
}
