import type { AdminSection } from './router';
import { can, type Permission } from './session';

/**
 * Who may open each administration page: any one of its permissions, the
 * ones its API routes check (scoped by department on the server, as always).
 * Analytics has no permission of its own in the API; the console shows it to
 * those who run namespaces or read the audit, the people who act on it.
 */
export const SECTION_PERMISSIONS: Record<AdminSection, readonly Permission[]> = {
  departments: ['canManageDepartments', 'canArchiveDepartments', 'canViewAllUsers'],
  users: ['canViewAllUsers', 'canCreateUsers', 'canManageUsers'],
  roles: ['canViewRoles', 'canManageRoles'],
  namespaces: ['canManageNamespaces', 'canManagePlugins'],
  templates: ['canManageTemplates', 'canGenerateDocuments'],
  analytics: ['canManageNamespaces', 'canViewAudit'],
  learning: ['canManageNamespaces'],
  channels: ['canEditSettings'],
  audit: ['canViewAudit'],
};

/** Whether the signed-in user may open `section`. */
export function canOpen(section: AdminSection): boolean {
  return SECTION_PERMISSIONS[section].some(can);
}
