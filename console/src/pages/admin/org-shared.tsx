import { api, type Success } from '../../api/client';
import { useLoad } from '../../components/common';
import { lang } from '../../i18n';

/** The permission catalogue of GET /permissions: groups of permissions with labels in three languages. */
export type PermissionCatalog = Success<'/permissions', 'get'>;
export type PermissionEntry = PermissionCatalog['groups'][number]['permissions'][number];

/** Loads the permission catalogue once for the component that asks. */
export function usePermissionCatalog() {
  return useLoad(() => api('get', '/permissions'), []);
}

/** A permission's short name in the console's language, its key when the catalogue does not know it. */
export function permissionLabel(catalog: PermissionCatalog | null, key: string): string {
  for (const group of catalog?.groups ?? []) {
    const entry = group.permissions.find((p) => p.key === key);
    if (entry) return entry.label[lang.value];
  }
  return key;
}

/** Every role, system ones included (without includeSystem the API lists only custom roles). */
export function useRoles() {
  return useLoad(() => api('get', '/roles', { query: { includeSystem: true, limit: 100 } }), []);
}

/** A line read out politely once an action succeeded (empty until then). */
export function Done({ text }: { text: string }) {
  return (
    <p class="ok" role="status">
      {text}
    </p>
  );
}
