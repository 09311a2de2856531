import type { FastifyBaseLogger } from 'fastify';
import { hashPassword } from '../../core/auth/passwords.js';
import type { Database } from '../../core/db/client.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { slugify } from '../departments/slug.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { UsersRepository } from './users.repository.js';

export interface BootstrapAdminDeps {
  db: Database;
  users: UsersRepository;
  roles: RolesRepository;
  departments: DepartmentsRepository;
  logger: FastifyBaseLogger;
}

/**
 * With ADMIN_EMAIL and ADMIN_PASSWORD set and no user of that
 * email, creates an `admin` in ADMIN_DEPARTMENT (created when missing).
 * An existing user is never touched, so changing ADMIN_PASSWORD later does nothing.
 */
export async function bootstrapAdmin(
  deps: BootstrapAdminDeps,
  admin: { email: string | null; password: string | null; department: string },
): Promise<void> {
  if (!admin.email || !admin.password) return;
  const { db, users, roles, departments, logger } = deps;
  if (await users.findByEmail(admin.email)) return;
  const role = await roles.findBySlug('admin');
  if (!role) throw new Error('system role admin is missing');
  const passwordHash = await hashPassword(admin.password);
  await db.transaction(async (tx) => {
    const department =
      (await departments.findByName(admin.department, tx)) ??
      (await departments.findBySlug(slugify(admin.department), tx)) ??
      (await departments.insert({ name: admin.department, slug: slugify(admin.department) }, tx));
    await users.insertWithProfile(
      {
        email: admin.email!,
        passwordHash,
        name: 'Administrator',
        role: role.slug,
        roleId: role.id,
        departmentId: department.id,
      },
      tx,
    );
  });
  logger.info({ email: admin.email, department: admin.department }, 'bootstrap admin created');
}
