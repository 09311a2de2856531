import { isAcceptablePassword, PASSWORD_RULE } from '../core/auth/passwords.js';
import { loadConfig } from '../core/config/config.js';
import { type DatabaseHandle, openDatabase } from '../core/db/client.js';
import { DataDirLockedError } from '../core/db/data-dir-lock.js';
import { seedSystemRoles } from '../modules/roles/system-roles.js';
import { createAdministrator } from '../modules/users/bootstrap-admin.js';
import { createOrganisationRepositories } from '../organisation-repositories.js';
import { type CommandOutput, UsageError } from './command-output.js';

export const CREATE_ADMIN_USAGE = `Usage: node dist/main.js create-admin --email <email> --password-stdin [--name <name>]

Creates an administrator (role admin, in ADMIN_DEPARTMENT, "General" by
default) who then signs in to the console. The password is read from standard
input (one line; ${PASSWORD_RULE.description}), so it never shows in the
process list or the shell history:
  printf '%s\\n' "$ADMIN_PASSWORD" | node dist/main.js create-admin --email you@example.com --password-stdin
The database is the configured one: DATABASE_URL (the service may be running),
else the embedded database under DATA_DIR (stop the service first: the embedded
database has one user at a time, and the command refuses one that a running
process holds; with the service running, use the console's setup page instead,
or ADMIN_EMAIL and ADMIN_PASSWORD at the next start).`;

/** What the command line asks for; the password comes from stdin. */
export type CreateAdminArgs = { help: true } | { help: false; email: string; name: string };

/** A deliberately small address check: something@something.something, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `--email <e> --password-stdin [--name <n>]` (or `--email=<e>`), in any order. */
export function parseCreateAdminArgs(argv: readonly string[]): CreateAdminArgs {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return { help: true };
  const values: Record<string, string> = {};
  let passwordStdin = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--password-stdin') {
      passwordStdin = true;
      continue;
    }
    const [flag, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag !== '--email' && flag !== '--name') throw new UsageError(`Unknown argument ${arg}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    values[flag.slice(2)] = value;
  }
  if (!passwordStdin) throw new UsageError('Pass --password-stdin and give the password on standard input');
  const email = values.email?.trim();
  if (!email) throw new UsageError('Name the administrator with --email');
  if (!EMAIL.test(email) || email.length > 254) throw new UsageError(`${email} is not an email address`);
  const name = (values.name ?? 'Administrator').trim();
  if (name.length === 0 || name.length > 200) throw new UsageError('--name must be 1 to 200 characters');
  return { help: false, email, name };
}

/** The first line of what stdin held, without its line ending. */
export function passwordFromStdin(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/**
 * The whole command: parse the arguments, check the password, open and
 * migrate the configured database, seed the system roles (a database created
 * by this command has none yet), create the administrator. Answers the exit
 * code (0 ok, 1 failure, 2 bad usage); never throws for a problem it can describe.
 */
export async function runCreateAdmin(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  stdin: () => Promise<string>,
  output: CommandOutput,
): Promise<number> {
  let args: CreateAdminArgs;
  try {
    args = parseCreateAdminArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`${error.message}\n\n${CREATE_ADMIN_USAGE}`);
    return 2;
  }
  if (args.help) {
    output.out(CREATE_ADMIN_USAGE);
    return 0;
  }
  const password = passwordFromStdin(await stdin());
  if (!isAcceptablePassword(password)) {
    output.err(`The password read from standard input must be ${PASSWORD_RULE.description}`);
    return 2;
  }
  let database: DatabaseHandle | null = null;
  try {
    const config = loadConfig(env);
    database = await openDatabase(config);
    await database.migrate();
    const repositories = createOrganisationRepositories(database.db);
    await seedSystemRoles(repositories.roles);
    const user = await createAdministrator(
      { db: database.db, ...repositories },
      { email: args.email, password, name: args.name, department: config.admin.department },
      { onlyFirst: false },
    );
    output.out(
      `administrator ${user.email} created in ${config.admin.department} ` +
        `(database: ${database.driver}, ${database.location}); sign in at the console`,
    );
    return 0;
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      output.err(
        `${error.message}\nWhile the service runs, create the first administrator on the console's setup ` +
          'page instead (the start-up log gives its address and setup code).',
      );
      return 1;
    }
    // ConflictError (the email is taken), ConfigError and the rest: the message says what is wrong.
    output.err(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await database?.close();
  }
}
