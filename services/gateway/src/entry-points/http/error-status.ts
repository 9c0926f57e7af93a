import type { AppError, ErrorKind } from '../../domain/app-error';

/** How HTTP answers each kind of domain refusal (the contract's Responses table). */
const HTTP_STATUS: Record<ErrorKind, number> = {
  unreadable: 400,
  unauthenticated: 401,
  insufficient_credits: 402,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  invalid: 422,
  conversion_failed: 422,
  too_many_requests: 429,
  at_capacity: 503,
};

export function httpStatusOf(err: AppError): number {
  return HTTP_STATUS[err.kind];
}
