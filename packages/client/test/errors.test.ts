import { errorFromResponse } from '../src/errors';
import { AtCapacityError, ConflictError, MarkwrightError, RateLimitError, RetryAfterError } from '../src';

/** The answers that say when to retry share one shape; each keeps its own class and name. */
describe('Errors that carry Retry-After', () => {
  const cases = [
    { status: 409, body: { error: 'idempotency_conflict', message: 'Still running.' }, type: ConflictError },
    { status: 429, body: { message: 'Too many requests. Please wait before retrying.' }, type: RateLimitError },
    { status: 503, body: { error: 'at_capacity', message: 'At capacity.' }, type: AtCapacityError },
  ] as const;

  it.each(cases)(
    'When the API answers $status, then the error is its own class of the one Retry-After shape',
    ({ status, body, type }) => {
      const err = errorFromResponse(status, body, 7);
      expect(err).toBeInstanceOf(type);
      expect(err).toBeInstanceOf(RetryAfterError);
      expect(err).toBeInstanceOf(MarkwrightError);
      expect({
        name: err.name,
        status: err.status,
        code: err.code,
        message: err.message,
        retryAfterSeconds: (err as RetryAfterError).retryAfterSeconds,
        body: err.body,
      }).toEqual({
        name: type.name,
        status,
        code: 'error' in body ? body.error : undefined,
        message: body.message,
        retryAfterSeconds: 7,
        body,
      });
    },
  );

  it('When an answer has no Retry-After, then retryAfterSeconds is undefined; a 503 without at_capacity is a plain MarkwrightError', () => {
    expect(
      (errorFromResponse(409, { error: 'not_finished', message: 'x' }, undefined) as ConflictError).retryAfterSeconds,
    ).toBeUndefined();
    const other = errorFromResponse(503, { message: 'down' }, 3);
    expect(other).not.toBeInstanceOf(RetryAfterError);
    expect(other.name).toBe('MarkwrightError');
  });
});
