import type { Permission } from './permissions.js';

/**
 * UI capability booleans, one per permission area: a client shows an area
 * when the user holds any permission of it. Documented in docs/api.md.
 */
export const CAPABILITY_AREAS = {
  approvals: ['canApprove', 'canEscalate'],
  knowledge: ['canViewKnowledge', 'canUploadDocuments', 'canDeleteDocuments'],
  namespaces: ['canManageNamespaces', 'canManagePlugins'],
  departments: ['canManageDepartments', 'canArchiveDepartments'],
  users: ['canViewAllUsers', 'canCreateUsers', 'canManageUsers'],
  employeeProfiles: ['canManageEmployeeProfiles'],
  roles: ['canViewRoles', 'canManageRoles'],
  audit: ['canViewAudit'],
  templates: ['canManageTemplates', 'canGenerateDocuments'],
  settings: ['canEditSettings'],
} as const satisfies Record<string, readonly Permission[]>;

export type CapabilityArea = keyof typeof CAPABILITY_AREAS;

export function capabilitiesOf(permissions: ReadonlySet<Permission>): Record<CapabilityArea, boolean> {
  const result = {} as Record<CapabilityArea, boolean>;
  for (const [area, list] of Object.entries(CAPABILITY_AREAS) as [CapabilityArea, readonly Permission[]][]) {
    result[area] = list.some((p) => permissions.has(p));
  }
  return result;
}
