import type { z } from 'zod';
import {
  atCapacityErrorSchema,
  conversionFailedErrorSchema,
  idempotencyConflictErrorSchema,
  insufficientCreditsErrorSchema,
  messageOnlyErrorSchema,
  notCancellableErrorSchema,
  notFinishedErrorSchema,
  notFoundErrorSchema,
  validationErrorSchema,
  webhookRedeliveryConflictSchema,
} from '@markwright/contracts';
import { AppError } from '../src/domain/app-error';
import { httpStatusOf } from '../src/entry-points/http/error-status';

/**
 * Every error the domain raises is a body of the contract (packages/contracts), exactly (no
 * extra field), answered with the contract's status. The type system holds the shape; this holds
 * each factory to its own schema and status.
 */
const cases: Array<[string, AppError, z.ZodObject, number]> = [
  ['unauthenticated', AppError.unauthenticated(), messageOnlyErrorSchema, 401],
  ['not found', AppError.notFound(), notFoundErrorSchema, 404],
  ['route not found', AppError.routeNotFound(), notFoundErrorSchema, 404],
  ['payload too large', AppError.payloadTooLarge(60 * 1024 * 1024), messageOnlyErrorSchema, 413],
  ['validation', AppError.validation({ file: ['The file field is required.'] }), validationErrorSchema, 422],
  ['insufficient credits', AppError.insufficientCredits(3, 1), insufficientCreditsErrorSchema, 402],
  ['conversion failed', AppError.conversionFailed('The file is corrupt.'), conversionFailedErrorSchema, 422],
  ['malformed form', AppError.malformedForm(), validationErrorSchema, 422],
  ['uploads busy', AppError.uploadsBusy(), messageOnlyErrorSchema, 429],
  ['too many requests', AppError.tooManyRequests(), messageOnlyErrorSchema, 429],
  ['idempotency conflict', AppError.idempotencyConflict(2), idempotencyConflictErrorSchema, 409],
  ['webhook not finished', AppError.webhookNotFinished(), webhookRedeliveryConflictSchema, 409],
  ['no webhook', AppError.noWebhook(), webhookRedeliveryConflictSchema, 409],
  ['at capacity', AppError.atCapacity(5), atCapacityErrorSchema, 503],
  ['idempotency key reused', AppError.idempotencyKeyReused(), validationErrorSchema, 422],
  ['not cancellable', AppError.notCancellable('completed'), notCancellableErrorSchema, 409],
  ['not finished', AppError.notFinished(), notFinishedErrorSchema, 409],
];

describe('Error bodies from the contract', () => {
  it.each(cases)(
    'When the domain refuses (%s), then the body is exactly its contract schema and the status its table row',
    (_name, err, schema, status) => {
      expect(schema.strict().safeParse(err.body).success).toBe(true);
      expect(httpStatusOf(err)).toBe(status);
      expect(err.message).toBe(err.body.message);
    },
  );
});
