/**
 * Every error the API answers with is an AppError subclass; the error handler
 * turns it into the envelope `{ error, message, statusCode, details? }` where
 * `error` is the class name.
 */
export abstract class AppError extends Error {
  abstract readonly statusCode: number;

  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  readonly statusCode = 400;
}

export class UnauthorizedError extends AppError {
  readonly statusCode = 401;
  constructor(message = 'Authentication required') {
    super(message);
  }
}

export class ForbiddenError extends AppError {
  readonly statusCode = 403;
  constructor(message = 'You do not have permission to do this') {
    super(message);
  }
}

export class NotFoundError extends AppError {
  readonly statusCode = 404;
}

/** A method the path does not have; `allow` lists the ones it has (the `Allow` header). */
export class MethodNotAllowedError extends AppError {
  readonly statusCode = 405;
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super(message);
  }
}

/** The client did not send its whole request in time (Node's request timeout). */
export class RequestTimeoutError extends AppError {
  readonly statusCode = 408;
}

export class ConflictError extends AppError {
  readonly statusCode = 409;
}

export class PayloadTooLargeError extends AppError {
  readonly statusCode = 413;
}

export class UnsupportedMediaTypeError extends AppError {
  readonly statusCode = 415;
}

export class ValidationError extends AppError {
  readonly statusCode = 422;
  constructor(details: ValidationDetail[], message = 'Request validation failed') {
    super(message, details);
  }
}

/** The request's headers are over Node's size limit. */
export class RequestHeaderFieldsTooLargeError extends AppError {
  readonly statusCode = 431;
}

export class TooManyRequestsError extends AppError {
  readonly statusCode = 429;
}

export class NotImplementedError extends AppError {
  readonly statusCode = 501;
}

export class ServiceUnavailableError extends AppError {
  readonly statusCode = 503;
}

/** One failing field of a request: where it is (`body.email`), and what is wrong. */
export interface ValidationDetail {
  field: string;
  message: string;
}
