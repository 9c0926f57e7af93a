/** The one error type of the domain: a stable code, an HTTP status and the contract's body. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
    this.name = 'AppError';
  }

  static unauthenticated(): AppError {
    return new AppError(401, { message: 'Unauthenticated.' });
  }

  static notFound(): AppError {
    return new AppError(404, { error: 'not_found', message: 'Conversion not found.' });
  }

  static routeNotFound(): AppError {
    return new AppError(404, { error: 'not_found', message: 'The requested resource was not found.' });
  }

  static payloadTooLarge(capBytes: number): AppError {
    return new AppError(413, {
      message: `The uploaded file exceeds the server limit of ${Math.round(capBytes / (1024 * 1024))} MB.`,
    });
  }

  static validation(errors: Record<string, string[]>): AppError {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    return new AppError(422, { message: first, errors });
  }

  static insufficientCredits(required: number, available: number): AppError {
    return new AppError(402, {
      error: 'insufficient_credits',
      message: `This conversion costs ${required} credit${required === 1 ? '' : 's'} but the workspace has ${available}.`,
      credits_required: required,
      credits_available: available,
    });
  }

  static conversionFailed(reason: string): AppError {
    return new AppError(422, { error: 'conversion_failed', message: reason });
  }

  /** A body the multipart parser cannot read: a 422 on file, within the contract's Responses table. */
  static malformedForm(): AppError {
    return AppError.validation({ file: ['The request body is not valid multipart/form-data.'] });
  }

  static badRequest(): AppError {
    return new AppError(400, { error: 'bad_request', message: 'The request could not be read.' });
  }

  /** The workspace already has its concurrent uploads in flight (UPLOADS_PER_WORKSPACE): the rate limit's 429 shape. */
  static uploadsBusy(): AppError {
    return new AppError(429, {
      message: 'Too many uploads in progress for this workspace. Please wait for one to finish before retrying.',
    });
  }

  static tooManyRequests(): AppError {
    return new AppError(429, { message: 'Too many requests. Please wait before retrying.' });
  }
}
