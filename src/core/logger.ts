import pino, { type Logger } from 'pino';
import { serializeError } from './errors/serialize-error.js';

/** Errors are logged without the parameters of a failed query (which may hold a password hash). */
export const LOG_SERIALIZERS = { err: serializeError, error: serializeError };

export interface LoggerOptions {
  /**
   * Human-readable, coloured lines through pino-pretty (in a worker thread)
   * instead of one JSON object a line. main.ts asks for it only outside
   * production and when stdout is a terminal, so files, pipes and log
   * collectors always get JSON.
   */
  pretty?: boolean;
  /**
   * Where JSON lines go: a file descriptor or path (default 1, stdout). Written
   * asynchronously (buffered while a write is in flight), so logging a request
   * never blocks the event loop on the pipe; main.ts flushes it on shutdown.
   */
  destination?: number | string;
}

/**
 * The process logger (pino, shared with fastify). Credentials are redacted
 * wherever they might appear in a logged object.
 */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const destination = options.pretty
    ? undefined
    : pino.destination({ dest: options.destination ?? 1, sync: false });
  const settings: PinoSettings = {
    level,
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
    serializers: LOG_SERIALIZERS,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.token',
        '*.accessToken',
        '*.secret',
      ],
      censor: '[REDACTED]',
    },
  };
  return destination ? pino(settings, destination) : pino(settings);
}

type PinoSettings = pino.LoggerOptions<never, false>;

/**
 * The slice of a pino logger that drivers and background loops use; Fastify's
 * logger fits it. They log what would otherwise be lost: handler errors, poll
 * failures.
 */
export interface DriverLogger {
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

/** Used when no logger is given: failures still reach stderr, routine warnings stay quiet. */
export const fallbackLogger: DriverLogger = {
  warn: () => undefined,
  error: (object, message) => console.error(message ?? 'driver error', object),
};

/** The asynchronous destination's state that a flush has to wait on (sonic-boom). */
interface AsyncDestination {
  fd: number;
  /** True while a write is with the file system; 'drain' follows once everything is out. */
  _writing?: boolean;
  once(event: 'ready' | 'drain', listener: () => void): unknown;
  flushSync(): void;
}

/**
 * Writes out what the asynchronous destination still holds, and resolves
 * once it is on the file descriptor; call before the process exits (pino's
 * own flush answers at once without waiting for a write in flight).
 */
export async function flushLogger(logger: Logger): Promise<void> {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | Partial<AsyncDestination>
    | undefined;
  if (typeof stream?.flushSync !== 'function' || typeof stream.once !== 'function') {
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    return;
  }
  const destination = stream as AsyncDestination;
  if (destination.fd < 0) await new Promise<void>((resolve) => destination.once('ready', resolve));
  if (destination._writing) await new Promise<void>((resolve) => destination.once('drain', resolve));
  destination.flushSync();
}
