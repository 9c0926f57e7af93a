import { z } from 'zod';
import { CONVERSION_STATUSES } from '@markwright/contracts';
import { validationError } from './validation-errors';

export { CONVERSION_STATUSES };
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

/** A query value written as a plain integer becomes a number; anything else stays and fails as "must be an integer". */
const integerText = (value: unknown): unknown =>
  typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : value;

const perPageRange = `The per page field must be between 1 and ${PER_PAGE_MAX}.`;

/** Query of GET /conversions: status one of the four states, per_page 1..100 (default 20), page >= 1. */
export const listQuerySchema = z.object({
  status: z
    .enum(CONVERSION_STATUSES, { error: 'The selected status is invalid.' })
    .meta({ description: 'Only conversions in this status' })
    .optional(),
  per_page: z
    .preprocess(
      integerText,
      z
        .int({ error: 'The per page field must be an integer.' })
        .min(1, { message: perPageRange })
        .max(PER_PAGE_MAX, { message: perPageRange }),
    )
    .meta({ description: 'Page size' })
    .default(PER_PAGE_DEFAULT),
  page: z
    .preprocess(
      integerText,
      z.int({ error: 'The page field must be an integer.' }).min(1, { message: 'The page field must be at least 1.' }),
    )
    .meta({ description: 'Page number, from 1; a page past the end has empty data' })
    .default(1),
});

export interface ListRequest {
  status?: string;
  page: number;
  perPage: number;
}

export function validateListRequest(query: Record<string, unknown>): ListRequest {
  const parsed = listQuerySchema.safeParse(query);
  if (!parsed.success) throw validationError(parsed.error);
  return { status: parsed.data.status, page: parsed.data.page, perPage: parsed.data.per_page };
}
