/** The 19 permission names of the interface, exactly. */
export const PERMISSIONS = [
  'canApprove',
  'canEscalate',
  'canUploadDocuments',
  'canDeleteDocuments',
  'canViewKnowledge',
  'canManageEmployeeProfiles',
  'canManageNamespaces',
  'canManageDepartments',
  'canArchiveDepartments',
  'canViewAllUsers',
  'canCreateUsers',
  'canManageUsers',
  'canViewAudit',
  'canViewRoles',
  'canManageRoles',
  'canManagePlugins',
  'canManageTemplates',
  'canGenerateDocuments',
  'canEditSettings',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export interface SystemRoleDefinition {
  slug: string;
  name: string;
  description: string;
  allDepartments: boolean;
  permissions: readonly Permission[];
}

/** The system role whose members receive escalations and demotion notices. */
export const DEPARTMENT_HEAD_ROLE = 'dept_head';

/** Seeded at start (docs/access.md); `isSystem` rows cannot be deleted. */
export const SYSTEM_ROLES: readonly SystemRoleDefinition[] = [
  {
    slug: 'admin',
    name: 'Administrator',
    description: 'Every permission in every department.',
    allDepartments: true,
    permissions: PERMISSIONS,
  },
  {
    slug: 'dept_head',
    name: 'Department head',
    description: 'Runs a department: approvals, knowledge, namespaces, profiles, audit.',
    allDepartments: false,
    permissions: [
      'canApprove',
      'canEscalate',
      'canUploadDocuments',
      'canDeleteDocuments',
      'canViewKnowledge',
      'canManageEmployeeProfiles',
      'canManageNamespaces',
      'canViewAllUsers',
      'canViewAudit',
      'canViewRoles',
      'canManagePlugins',
      'canManageTemplates',
      'canGenerateDocuments',
    ],
  },
  {
    slug: 'approver',
    name: 'Approver',
    description: 'Reviews assistant replies before they are sent.',
    allDepartments: false,
    permissions: [
      'canApprove',
      'canEscalate',
      'canViewKnowledge',
      'canUploadDocuments',
      'canGenerateDocuments',
    ],
  },
  {
    slug: 'employee',
    name: 'Employee',
    description: 'Asks the assistant; reads knowledge and generates documents.',
    allDepartments: false,
    permissions: ['canViewKnowledge', 'canGenerateDocuments'],
  },
];

/** The role every self-registered or channel-created user gets. */
export const DEFAULT_ROLE_SLUG = 'employee';
