import { permissionCatalog } from './permission-catalog.js';

/** The permission metadata; static, so built once. */
export function createPermissionsService() {
  const catalog = permissionCatalog();
  return {
    /** Every one of the 19 permissions, grouped, with texts in en, ru and uk. */
    list() {
      return catalog;
    },
  };
}

export type PermissionsService = ReturnType<typeof createPermissionsService>;
