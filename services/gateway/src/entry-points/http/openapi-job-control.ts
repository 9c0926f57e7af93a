import { z } from 'zod';
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import {
  conversionDetailSchema,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyConflictErrorSchema,
  notCancellableErrorSchema,
  notFinishedErrorSchema,
  notFoundErrorSchema,
} from '@markwright/contracts';

type Json = (schema: z.ZodType, description: string, headers?: z.ZodObject) => ResponseConfig;

/** E6: the request header of POST /convert. */
export const idempotencyRequestHeaders = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7e]+$/)
    .optional()
    .meta({
      description:
        'Makes the request safe to retry: within 24 h the same key with the same file bytes, file name and form ' +
        'fields returns the first answer again (same status and body) with Idempotent-Replayed: true and charges ' +
        'nothing more. 1–255 printable ASCII characters, per workspace.',
    }),
});

/** E6: marks an answer given again for an Idempotency-Key. */
export const replayedHeader = {
  [IDEMPOTENT_REPLAYED_HEADER]: z
    .literal('true')
    .optional()
    .meta({ description: 'Present when this is the first answer of the same Idempotency-Key, given again' }),
};

/** E6: POST /convert's 409. */
export function idempotencyConflictResponse(json: Json): ResponseConfig {
  return json(
    idempotencyConflictErrorSchema,
    'The first request with this Idempotency-Key is still running (a sync conversion); nothing is charged',
    z.object({ 'Retry-After': z.int().min(0).meta({ description: 'Seconds to wait before retrying' }) }),
  );
}

/** E7 cancel and E8 delete. */
export function registerJobControlPaths(
  registry: OpenAPIRegistry,
  json: Json,
  common: { 401: ResponseConfig; 429: ResponseConfig },
  rateLimitHeaders: z.ZodObject,
): void {
  const params = z.object({ id: z.uuid().meta({ description: 'Identifier of the conversion' }) });
  const notFound = json(notFoundErrorSchema, 'Unknown id, malformed id, or a conversion of another workspace');
  registry.registerPath({
    method: 'post',
    path: '/conversions/{id}/cancel',
    operationId: 'cancelConversion',
    summary: 'Cancel a conversion',
    description:
      'A pending or processing conversion becomes failed with error "Cancelled by request.", its credits are ' +
      'refunded once, its running work stops within 2 s, and its webhook is sent as for any failure.',
    request: { params },
    responses: {
      200: json(conversionDetailSchema, 'The cancelled conversion (status failed)', rateLimitHeaders),
      401: common[401],
      404: notFound,
      409: json(notCancellableErrorSchema, 'The conversion is already completed or failed'),
      429: common[429],
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/conversions/{id}',
    operationId: 'deleteConversion',
    summary: 'Delete a finished conversion',
    description:
      'Deletes a completed or failed conversion with its markdown, metadata and upload; it is then unknown (404) ' +
      'and left out of the list. The credit ledger keeps its rows.',
    request: { params },
    responses: {
      204: { description: 'Deleted' },
      401: common[401],
      404: notFound,
      409: json(notFinishedErrorSchema, 'The conversion is pending or processing (cancel it first)'),
      429: common[429],
    },
  });
}
