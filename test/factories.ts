import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Container } from '../src/container.js';
import { hashPassword } from '../src/core/auth/passwords.js';
import { roles } from '../src/core/db/schema/index.js';
import type { DepartmentRow } from '../src/modules/departments/departments.repository.js';
import type { UserRow } from '../src/modules/users/users.repository.js';

const unique = () => randomBytes(4).toString('hex');

export const TEST_PASSWORD = 'correct-horse-1';
let cachedHash: Promise<string> | null = null;
/** argon2 is slow on purpose; factories share one hash of TEST_PASSWORD. */
const testPasswordHash = () => {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  return cachedHash;
};

export async function createDepartment(
  container: Container,
  values: Partial<{
    name: string;
    slug: string;
    archivedAt: Date | null;
    settings: Record<string, unknown>;
  }> = {},
): Promise<DepartmentRow> {
  const suffix = unique();
  return container.repositories.departments.insert({
    name: values.name ?? `Department ${suffix}`,
    slug: values.slug ?? `dept-${suffix}`,
    ...values,
  });
}

export interface TestUser {
  user: UserRow;
  token: string;
  password: string;
  /** `Authorization` header for `inject`. */
  headers: { authorization: string };
}

export interface UserOverrides {
  role?: string;
  departmentId?: string;
  email?: string;
  name?: string;
  phone?: string | null;
  isActive?: boolean;
  extraPermissions?: string[];
  revokedPermissions?: string[];
  extraDepartmentIds?: string[];
  revokedDepartmentIds?: string[];
}

/** A user of a system role (default employee) in a new department unless one is given, with a valid token. */
export async function createUser(container: Container, overrides: UserOverrides = {}): Promise<TestUser> {
  const roleSlug = overrides.role ?? 'employee';
  const [role] = await container.db.select().from(roles).where(eq(roles.slug, roleSlug)).limit(1);
  if (!role) throw new Error(`no role ${roleSlug}`);
  const departmentId = overrides.departmentId ?? (await createDepartment(container)).id;
  const user = await container.repositories.users.insertWithProfile({
    email: overrides.email ?? `user-${unique()}@example.test`,
    name: overrides.name ?? `User ${unique()}`,
    passwordHash: await testPasswordHash(),
    role: role.slug,
    roleId: role.id,
    departmentId,
    phone: overrides.phone ?? null,
    isActive: overrides.isActive ?? true,
    extraPermissions: overrides.extraPermissions ?? [],
    revokedPermissions: overrides.revokedPermissions ?? [],
    extraDepartmentIds: overrides.extraDepartmentIds ?? [],
    revokedDepartmentIds: overrides.revokedDepartmentIds ?? [],
  });
  const token = container.tokens.sign(user.id, user.tokenVersion);
  return { user, token, password: TEST_PASSWORD, headers: { authorization: `Bearer ${token}` } };
}

/** A custom (non-system) role; pass `permissions` to give it any. */
export async function createRole(
  container: Container,
  values: Partial<{
    name: string;
    slug: string;
    permissions: string[];
    departmentIds: string[];
    allDepartments: boolean;
  }> = {},
) {
  const suffix = unique();
  const [role] = await container.db
    .insert(roles)
    .values({
      name: values.name ?? `Role ${suffix}`,
      slug: values.slug ?? `role-${suffix}`,
      permissions: values.permissions ?? [],
      departmentIds: values.departmentIds ?? [],
      allDepartments: values.allDepartments ?? false,
    })
    .returning();
  return role!;
}

/** An empty knowledge base in `departmentId`, with the default rag weights. */
