import { AppError } from './app-error';

export const CONVERSION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

export interface ListRequest {
  status?: string;
  page: number;
  perPage: number;
}

/** Query of GET /conversions: status one of the four states, per_page 1..100 (default 20), page >= 1. */
export function validateListRequest(query: Record<string, unknown>): ListRequest {
  const errors: Record<string, string[]> = {};
  const status = query.status;
  if (
    status !== undefined &&
    !(typeof status === 'string' && (CONVERSION_STATUSES as readonly string[]).includes(status))
  ) {
    errors.status = ['The selected status is invalid.'];
  }
  const perPage = integerParam(query.per_page, PER_PAGE_DEFAULT);
  if (perPage === null) errors.per_page = ['The per page field must be an integer.'];
  else if (perPage < 1 || perPage > PER_PAGE_MAX) {
    errors.per_page = [`The per page field must be between 1 and ${PER_PAGE_MAX}.`];
  }
  const page = integerParam(query.page, 1);
  if (page === null) errors.page = ['The page field must be an integer.'];
  else if (page < 1) errors.page = ['The page field must be at least 1.'];
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  return { status: status as string | undefined, page: page!, perPage: perPage! };
}

function integerParam(value: unknown, fallback: number): number | null {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value.trim())) return null;
  return Number(value.trim());
}
