/** Where a command writes: its lines for the user, and its problems. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

/** A command line the command cannot take: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
