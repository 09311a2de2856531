/** What a child process answers its runner: a value, the error its task threw, or the error it died of. */
export type TaskOutcome<Output> =
  | { ok: true; value: Output }
  | { ok: false; crashed: boolean; error: { name: string; message: string } };

/** An error's name and message, the only parts that cross the process boundary. */
const describe = (error: unknown) => {
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  return { name, message };
};

/**
 * The child side of an isolated runner: call once at the top of an entry
 * module. Waits for the input the runner sends, runs `task` on it and
 * answers its value or the name and message of what it threw (errors do not
 * survive the boundary as classes, so the name is how a caller tells its own
 * errors apart). An error nothing handles (a library throwing from a
 * callback) is reported as a crash of this process, which then ends.
 */
export function serveIsolatedTask<Input, Output>(task: (input: Input) => Promise<Output>): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('serveIsolatedTask runs only in a process started by the isolated runner');
  const answer = (outcome: TaskOutcome<Output>, exitCode: number) =>
    send(outcome, undefined, undefined, () => process.exit(exitCode));
  const crash = (error: unknown) => answer({ ok: false, crashed: true, error: describe(error) }, 1);
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // The runner is gone (the service stopped): nothing would read the answer.
  process.on('disconnect', () => process.exit(0));
  process.once('message', (input: Input) => {
    task(input).then(
      (value) => answer({ ok: true, value }, 0),
      (error: unknown) => answer({ ok: false, crashed: false, error: describe(error) }, 0),
    );
  });
}
