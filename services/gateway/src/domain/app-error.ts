import type { ErrorBody } from '@markwright/contracts';

/**
 * What kind of refusal an AppError is. The domain says what went wrong, never how HTTP says it:
 * the entry points map a kind to a status (entry-points/http/error-status.ts).
 */
export type ErrorKind =
  | 'unauthenticated'
  | 'not_found'
  | 'too_large'
  | 'invalid'
  | 'conversion_failed'
  | 'insufficient_credits'
  | 'unreadable'
  | 'too_many_requests'
  | 'conflict'
  | 'at_capacity';

/** The one error type of the domain: its kind and the contract's body. */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly body: ErrorBody,
    /** Headers the answer carries (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'AppError';
  }

  /** A validation error's messages per field; undefined for any other error. */
  get fieldErrors(): Record<string, string[]> | undefined {
    return 'errors' in this.body ? this.body.errors : undefined;
  }

  static unauthenticated(): AppError {
    return new AppError('unauthenticated', { message: 'Unauthenticated.' });
  }

  static notFound(): AppError {
    return new AppError('not_found', { error: 'not_found', message: 'Conversion not found.' });
  }

  static routeNotFound(): AppError {
    return new AppError('not_found', { error: 'not_found', message: 'The requested resource was not found.' });
  }

  static payloadTooLarge(capBytes: number): AppError {
    return new AppError('too_large', {
      message: `The uploaded file exceeds the server limit of ${Math.round(capBytes / (1024 * 1024))} MB.`,
    });
  }

  static validation(errors: Record<string, string[]>): AppError {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    return new AppError('invalid', { message: first, errors });
  }

  static insufficientCredits(required: number, available: number): AppError {
    return new AppError('insufficient_credits', {
      error: 'insufficient_credits',
      message: `This conversion costs ${required} credit${required === 1 ? '' : 's'} but the workspace has ${available}.`,
      credits_required: required,
      credits_available: available,
    });
  }

  static conversionFailed(reason: string): AppError {
    return new AppError('conversion_failed', { error: 'conversion_failed', message: reason });
  }

  /** A body the multipart parser cannot read: a 422 on file, within the contract's Responses table. */
  static malformedForm(): AppError {
    return AppError.validation({ file: ['The request body is not valid multipart/form-data.'] });
  }

  static badRequest(): AppError {
    return new AppError('unreadable', { error: 'bad_request', message: 'The request could not be read.' });
  }

  /** The workspace already has its concurrent uploads in flight (UPLOADS_PER_WORKSPACE): the rate limit's 429 shape. */
  static uploadsBusy(): AppError {
    return new AppError('too_many_requests', {
      message: 'Too many uploads in progress for this workspace. Please wait for one to finish before retrying.',
    });
  }

  static tooManyRequests(): AppError {
    return new AppError('too_many_requests', { message: 'Too many requests. Please wait before retrying.' });
  }

  static idempotencyConflict(retryAfterSeconds: number): AppError {
    return new AppError(
      'conflict',
      {
        error: 'idempotency_conflict',
        message: 'A request with this Idempotency-Key is still being processed. Retry later.',
      },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }

  /** E10: a webhook is redelivered only once the conversion has finished. */
  static webhookNotFinished(): AppError {
    return new AppError('conflict', {
      error: 'not_finished',
      message: 'The conversion has not finished yet; its webhook is sent when it does.',
    });
  }

  /** E10: a conversion started without webhook_url has no webhook to send. */
  static noWebhook(): AppError {
    return new AppError('conflict', {
      error: 'no_webhook',
      message: 'The conversion was not started with a webhook_url, so there is no webhook to send.',
    });
  }

  /** E11: the jobs queue is full; nothing was charged or stored. */
  static atCapacity(retryAfterSeconds: number): AppError {
    return new AppError(
      'at_capacity',
      {
        error: 'at_capacity',
        message: `The service is at capacity: too many conversions are waiting. Please retry in ${retryAfterSeconds} seconds.`,
      },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }

  static idempotencyKeyReused(): AppError {
    return AppError.validation({
      'Idempotency-Key': ['This Idempotency-Key was already used with a different request.'],
    });
  }

  static notCancellable(status: string): AppError {
    return new AppError('conflict', {
      error: 'not_cancellable',
      message: `The conversion is already ${status} and cannot be cancelled.`,
    });
  }

  static notFinished(): AppError {
    return new AppError('conflict', {
      error: 'not_finished',
      message: 'The conversion is still pending or processing. Cancel it first.',
    });
  }
}
