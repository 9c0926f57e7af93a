import { z } from 'zod';

/** Error bodies of the job-control extensions (E6 idempotency, E7 cancel, E8 delete). */
const codedError = (code: string, id: string, description: string) =>
  z.object({ error: z.literal(code), message: z.string() }).meta({ id, description });

export const idempotencyConflictErrorSchema = codedError(
  'idempotency_conflict',
  'IdempotencyConflictError',
  'The first request with this Idempotency-Key is still running; retry after Retry-After seconds',
);
export const notCancellableErrorSchema = codedError(
  'not_cancellable',
  'NotCancellableError',
  'The conversion is already completed or failed',
);
export const notFinishedErrorSchema = codedError(
  'not_finished',
  'NotFinishedError',
  'The conversion is still pending or processing (cancel it first)',
);

/** The header that names a POST /convert for idempotent retries, and the one marking a replayed answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** The error of a conversion cancelled by POST /conversions/{id}/cancel (E7). */
export const CANCELLED_BY_REQUEST = 'Cancelled by request.';

/**
 * Routing key of the cancel broadcast on the events exchange: every converter binds its own
 * exclusive queue to it and aborts the named conversion if it is running one (E7).
 */
export const CANCEL_ROUTING_KEY = 'conversion.cancel';
export const conversionCancelSchema = z.object({ conversionId: z.string().uuid() });
export type ConversionCancel = z.infer<typeof conversionCancelSchema>;
