import pino, { type Logger } from 'pino';

/**
 * The process logger (pino, shared with fastify). Credentials are redacted
 * wherever they might appear in a logged object.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
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
  });
}
