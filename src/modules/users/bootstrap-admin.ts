import { isNotNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { hashPassword } from '../../core/auth/passwords.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { users as usersTable } from '../../core/db/schema/index.js';
import { ConflictError } from '../../core/errors/app-errors.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { slugify } from '../departments/slug.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { UserRow, UsersRepository } from './users.repository.js';

export interface AdministratorDeps {
  db: Database;
  users: UsersRepository;
  roles: RolesRepository;
  departments: DepartmentsRepository;
}

export interface BootstrapAdminDeps extends AdministratorDeps {
  logger: FastifyBaseLogger;
}

export interface NewAdministrator {
  email: string;
  password: string;
  name: string;
  /** Department name, created when missing (ADMIN_DEPARTMENT, `General` by default). */
  department: string;
}

/**
 * The transaction-scoped advisory lock every administrator creation takes, so
 * two concurrent first-administrator requests (two api replicas, or a setup
 * page and `create-admin`) run one after the other and the second sees the first.
 */
const ADMINISTRATOR_LOCK_KEY = 0x5e7_0ad;

/**
 * Whether any account that can sign in exists (a user with a password).
 * Placeholder employees made for unknown channel senders have no password
 * and do not count: they must not close the way to the first administrator.
 */
export async function anyAccountExists(db: DbExecutor): Promise<boolean> {
  const [row] = await db
    .select({ id: usersTable.id })
    .from(usersTable)
    .where(isNotNull(usersTable.passwordHash))
    .limit(1);
  return row !== undefined;
}

/**
 * Creates a user with the `admin` role in the named department (created when
 * missing): the one path of the ADMIN_EMAIL bootstrap, the setup page and
 * `create-admin`. With `onlyFirst`, refuses once any account exists.
 * @throws ConflictError when `onlyFirst` and an account exists, or when the email is taken.
 */
export async function createAdministrator(
  deps: AdministratorDeps,
  admin: NewAdministrator,
  options: { onlyFirst: boolean },
): Promise<UserRow> {
  const { db, users, roles, departments } = deps;
  const role = await roles.findBySlug('admin');
  if (!role) throw new Error('system role admin is missing');
  const passwordHash = await hashPassword(admin.password);
  const email = admin.email.trim();
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADMINISTRATOR_LOCK_KEY})`);
    if (options.onlyFirst && (await anyAccountExists(tx)))
      throw new ConflictError('An account already exists; sign in instead of running the setup');
    if (await users.findByEmail(email, tx)) throw new ConflictError(`Email ${email} is already registered`);
    const department =
      (await departments.findByName(admin.department, tx)) ??
      (await departments.findBySlug(slugify(admin.department), tx)) ??
      (await departments.insert({ name: admin.department, slug: slugify(admin.department) }, tx));
    return users.insertWithProfile(
      {
        email,
        passwordHash,
        name: admin.name.trim(),
        role: role.slug,
        roleId: role.id,
        departmentId: department.id,
      },
      tx,
    );
  });
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
  if (await deps.users.findByEmail(admin.email)) return;
  try {
    await createAdministrator(
      deps,
      { email: admin.email, password: admin.password, name: 'Administrator', department: admin.department },
      { onlyFirst: false },
    );
  } catch (error) {
    // Another process started at the same moment created it first.
    if (error instanceof ConflictError) return;
    throw error;
  }
  deps.logger.info({ email: admin.email, department: admin.department }, 'bootstrap admin created');
}
