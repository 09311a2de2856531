import type { DriverLogger } from '../logger.js';

/**
 * Runs one subscriber on one message. A throwing (or rejecting) subscriber is
 * logged and skipped, so it never stops delivery to the others.
 */
export function deliver(
  handler: (message: unknown) => void,
  message: unknown,
  channel: string,
  logger: DriverLogger,
): void {
  const report = (error: unknown) => logger.error({ err: error, channel }, 'bus: subscriber failed');
  try {
    // Handlers are typed as returning void, but an async one must not leave a rejection unhandled.
    const returned: unknown = handler(message);
    if (returned instanceof Promise) returned.catch(report);
  } catch (error) {
    report(error);
  }
}
