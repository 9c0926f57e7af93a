import type { z } from 'zod';
import type {
  conversionFailedErrorSchema,
  InsufficientCreditsError,
  MessageError,
  notFoundErrorSchema,
  ValidationError,
} from './api';
import type { idempotencyConflictErrorSchema, notCancellableErrorSchema, notFinishedErrorSchema } from './job-control';
import type { AtCapacityError, WebhookRedeliveryConflict } from './jobs-api';

/**
 * Every error body the API sends, typed from the contract's schemas: what the gateway's AppError
 * carries, so an error body that is not one of these does not compile.
 */
export type ErrorBody =
  | MessageError
  | ValidationError
  | InsufficientCreditsError
  | z.infer<typeof notFoundErrorSchema>
  | z.infer<typeof conversionFailedErrorSchema>
  | z.infer<typeof idempotencyConflictErrorSchema>
  | z.infer<typeof notCancellableErrorSchema>
  | z.infer<typeof notFinishedErrorSchema>
  | WebhookRedeliveryConflict
  | AtCapacityError
  /** An unreadable request line or body that no route reaches (not in the contract's table: a client bug, not an answer it plans for). */
  | { error: 'bad_request'; message: string };
