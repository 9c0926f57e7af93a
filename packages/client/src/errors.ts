import type { ConversionStatus } from './types';

/**
 * An error answer of the API. `status` is the HTTP status, `code` the body's `error` field
 * (undefined for 401, 413, 429 and validation errors, which carry only a message), `body` the
 * parsed JSON as received.
 */
export class MarkwrightError extends Error {
  override name = 'MarkwrightError';
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;

  constructor(status: number, body: unknown, fallbackMessage = `HTTP ${status}`) {
    const fields = asRecord(body);
    super(typeof fields.message === 'string' ? fields.message : fallbackMessage);
    this.status = status;
    this.code = typeof fields.error === 'string' ? fields.error : undefined;
    this.body = body;
  }
}

/** 401: the token is missing, malformed, revoked or unknown. */
export class AuthenticationError extends MarkwrightError {
  override name = 'AuthenticationError';
}

/** 402 insufficient_credits: the workspace balance is below the cost of the conversion. */
export class InsufficientCreditsError extends MarkwrightError {
  override name = 'InsufficientCreditsError';
  readonly creditsRequired: number;
  readonly creditsAvailable: number;

  constructor(status: number, body: unknown) {
    super(status, body);
    const fields = asRecord(body);
    this.creditsRequired = Number(fields.credits_required);
    this.creditsAvailable = Number(fields.credits_available);
  }
}

/** 404 not_found: the conversion does not exist or belongs to another workspace. */
export class NotFoundError extends MarkwrightError {
  override name = 'NotFoundError';
}

/** 413: the upload is over the server-level cap (checked before any validation). */
export class PayloadTooLargeError extends MarkwrightError {
  override name = 'PayloadTooLargeError';
}

/** 422 with `errors`: a parameter failed validation; `errors` maps each field to its messages. */
export class ValidationError extends MarkwrightError {
  override name = 'ValidationError';
  readonly errors: Record<string, string[]>;

  constructor(status: number, body: unknown) {
    super(status, body);
    const errors = asRecord(asRecord(body).errors);
    this.errors = Object.fromEntries(
      Object.entries(errors).map(([field, messages]) => [field, Array.isArray(messages) ? messages.map(String) : []]),
    );
  }
}

/** 422 conversion_failed: a synchronous conversion failed (its credits were refunded). */
export class ConversionFailedError extends MarkwrightError {
  override name = 'ConversionFailedError';
}

/**
 * An error answer that says when to try again: `retryAfterSeconds` is its Retry-After header
 * (undefined when absent). The one shape of RateLimitError, ConflictError and AtCapacityError.
 */
export class RetryAfterError extends MarkwrightError {
  override name = 'RetryAfterError';
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: unknown, retryAfterSeconds: number | undefined) {
    super(status, body);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** 429: the workspace's per-minute budget is spent; `retryAfterSeconds` is the Retry-After header. */
export class RateLimitError extends RetryAfterError {
  override name = 'RateLimitError';
}

/**
 * 409: the request conflicts with the conversion's state. `code` says which: idempotency_conflict
 * (the first request of this Idempotency-Key still runs; wait `retryAfterSeconds`),
 * not_cancellable (already finished) or not_finished (delete a pending or processing one).
 */
export class ConflictError extends RetryAfterError {
  override name = 'ConflictError';
}

/** 503 at_capacity: the service's jobs queue is full; nothing was charged. Retry after `retryAfterSeconds`. */
export class AtCapacityError extends RetryAfterError {
  override name = 'AtCapacityError';
}

/** The service could not be reached (DNS, refused connection, reset): no HTTP answer at all. */
export class MarkwrightConnectionError extends Error {
  override name = 'MarkwrightConnectionError';
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`Could not reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** waitForConversion's deadline passed while the conversion was still pending or processing. */
export class ConversionTimeoutError extends Error {
  override name = 'ConversionTimeoutError';
  constructor(
    readonly conversionId: string,
    readonly lastStatus: ConversionStatus,
    readonly timeoutMs: number,
  ) {
    super(`Conversion ${conversionId} was still ${lastStatus} after ${timeoutMs} ms`);
  }
}

/** The typed error for one error answer of the API. */
export function errorFromResponse(
  status: number,
  body: unknown,
  retryAfterSeconds: number | undefined,
): MarkwrightError {
  const code = asRecord(body).error;
  switch (status) {
    case 401:
      return new AuthenticationError(status, body);
    case 402:
      return code === 'insufficient_credits'
        ? new InsufficientCreditsError(status, body)
        : new MarkwrightError(status, body);
    case 404:
      return new NotFoundError(status, body);
    case 409:
      return new ConflictError(status, body, retryAfterSeconds);
    case 413:
      return new PayloadTooLargeError(status, body);
    case 422:
      if (code === 'conversion_failed') return new ConversionFailedError(status, body);
      return 'errors' in asRecord(body) ? new ValidationError(status, body) : new MarkwrightError(status, body);
    case 429:
      return new RateLimitError(status, body, retryAfterSeconds);
    case 503:
      return code === 'at_capacity'
        ? new AtCapacityError(status, body, retryAfterSeconds)
        : new MarkwrightError(status, body);
    default:
      return new MarkwrightError(status, body);
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
