import { z } from 'zod';
import { chunkSchema, documentSchema, pageSchema } from './structure';

/**
 * The public API's response bodies (conversion-api.md), as zod schemas. The gateway's OpenAPI
 * document is generated from them (`.meta({ id })` names a component), its tests hold served
 * bodies against that document, and a client can import the inferred types. Only zod here.
 */

export const CONVERSION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const conversionStatusSchema = z.enum(CONVERSION_STATUSES).meta({
  id: 'ConversionStatus',
  description:
    'pending: queued; processing: started_at is set; completed: markdown is available; failed: error is set and the credits were refunded.',
});
export type ConversionStatus = z.infer<typeof conversionStatusSchema>;

const timestamp = (description: string) =>
  z.iso.datetime({ offset: true }).meta({ description: `${description} (ISO 8601 with UTC offset)` });
const credits = (description: string) => z.int().min(0).meta({ description });
const conversionId = z.uuid().meta({ description: 'Identifier of the conversion (UUID v7)' });

export const documentMetadataSchema = z
  .object({
    title: z.string().meta({ description: 'Empty when the document records none' }),
    author: z.string().meta({ description: 'Empty when the document records none' }),
    page_count: z.int().min(0),
  })
  .meta({ id: 'DocumentMetadata', description: 'Present only when include_metadata was true' });
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

export const tokenOptimizationSchema = z
  .object({
    original_tokens: z.int().min(0),
    optimized_tokens: z.int().min(0),
    reduction_percent: z.number(),
  })
  .meta({ id: 'TokenOptimization', description: 'Present only when optimize_tokens was true' });
export type TokenOptimization = z.infer<typeof tokenOptimizationSchema>;

/** E1, E3, E4: after the contract's keys, each only when its form field asked for it. */
const structureFields = {
  pages: z
    .array(pageSchema)
    .optional()
    .meta({ description: 'Only with include_pages=true (E1): one entry per page, slide, sheet or section, in order' }),
  chunks: z
    .array(chunkSchema)
    .optional()
    .meta({ description: 'Only with chunk_max_tokens (E3): the Markdown in token-bounded pieces, in order' }),
  document: documentSchema.optional(),
};

export const syncConversionResultSchema = z
  .object({
    success: z.literal(true),
    markdown: z.string().meta({ description: 'The converted text' }),
    credits_used: credits('Credits charged for this request'),
    credits_remaining: credits('Workspace balance after the charge'),
    metadata: documentMetadataSchema.optional(),
    token_optimization: tokenOptimizationSchema.optional(),
    ...structureFields,
  })
  .meta({ id: 'SyncConversionResult', description: 'Answer 200 of POST /convert without webhook_url' });
export type SyncConversionResult = z.infer<typeof syncConversionResultSchema>;

export const queuedConversionSchema = z
  .object({
    id: conversionId,
    status: z.literal('pending'),
    message: z.string().meta({ description: 'Says the conversion is queued and the result goes to the webhook URL' }),
    status_url: z
      .string()
      .regex(/^\/api\/v1\/conversions\/[0-9a-f-]{36}$/)
      .meta({ description: 'Relative path of the conversion, to poll' }),
    credits_used: credits('Credits charged'),
    credits_remaining: credits('Balance after the charge'),
  })
  .meta({ id: 'QueuedConversion', description: 'Answer 202 of POST /convert with webhook_url' });
export type QueuedConversion = z.infer<typeof queuedConversionSchema>;

const detailBase = {
  id: conversionId,
  original_filename: z.string().meta({ description: 'Name of the uploaded file' }),
  created_at: timestamp('Creation time'),
  webhook_delivered: z.boolean().meta({ description: 'Whether the webhook delivery succeeded' }),
  can_retry_webhook: z.boolean().meta({ description: 'Whether a webhook attempt is still to come' }),
};

export const conversionDetailSchema = z
  .discriminatedUnion('status', [
    z.object({ ...detailBase, status: z.literal('pending') }).meta({ id: 'PendingConversion' }),
    z
      .object({ ...detailBase, status: z.literal('processing'), started_at: timestamp('Processing start time') })
      .meta({ id: 'ProcessingConversion' }),
    z
      .object({
        ...detailBase,
        status: z.literal('completed'),
        markdown: z.string().meta({ description: 'The converted text' }),
        metadata: documentMetadataSchema.optional(),
        completed_at: timestamp('Finish time'),
        ...structureFields,
      })
      .meta({ id: 'CompletedConversion' }),
    z
      .object({
        ...detailBase,
        status: z.literal('failed'),
        error: z.string().meta({ description: 'Human-readable failure reason' }),
        completed_at: timestamp('Finish time'),
      })
      .meta({ id: 'FailedConversion' }),
  ])
  .meta({ id: 'ConversionDetail', description: 'One conversion; its fields depend on its status' });
export type ConversionDetail = z.infer<typeof conversionDetailSchema>;

export const conversionListItemSchema = z
  .object({
    id: conversionId,
    status: conversionStatusSchema,
    original_filename: z.string(),
    extension: z.string().meta({ description: 'File extension of the upload, lower case' }),
    file_size_bytes: z.int().min(0),
    use_enhanced_ai: z.boolean(),
    created_at: timestamp('Creation time'),
    started_at: timestamp('Processing start time').nullable(),
    completed_at: timestamp('Finish time').nullable(),
  })
  .meta({ id: 'ConversionListItem', description: 'A conversion in a list: never markdown or metadata' });
export type ConversionListItem = z.infer<typeof conversionListItemSchema>;

export const pageLinkSchema = z
  .object({ url: z.string().nullable(), label: z.string(), active: z.boolean() })
  .meta({ id: 'PageLink' });

export const conversionPageSchema = z
  .object({
    current_page: z.int().min(1),
    data: z.array(conversionListItemSchema),
    first_page_url: z.string(),
    from: z.int().min(1).nullable().meta({ description: 'Index of the first item; null past the last page' }),
    last_page: z.int().min(1),
    last_page_url: z.string(),
    links: z.array(pageLinkSchema).meta({ description: 'Previous, one entry per page (windowed), next' }),
    next_page_url: z.string().nullable(),
    path: z.string().meta({ description: 'Address of the list endpoint' }),
    per_page: z.int().min(1),
    prev_page_url: z.string().nullable(),
    to: z.int().min(1).nullable().meta({ description: 'Index of the last item; null past the last page' }),
    total: z.int().min(0).meta({ description: 'Number of conversions matching the filter' }),
  })
  .meta({ id: 'ConversionPage', description: 'A page of conversions, newest first' });
export type ConversionPage = z.infer<typeof conversionPageSchema>;

export const messageOnlyErrorSchema = z
  .object({ message: z.string() })
  .meta({ id: 'MessageError', description: 'Errors without a code (401, 413, 429) carry only message' });
export type MessageError = z.infer<typeof messageOnlyErrorSchema>;

const codedError = (code: string, id: string, description: string) =>
  z.object({ error: z.literal(code), message: z.string() }).meta({ id, description });

export const insufficientCreditsErrorSchema = z
  .object({
    error: z.literal('insufficient_credits'),
    message: z.string(),
    credits_required: z.int().min(0),
    credits_available: z.int(),
  })
  .meta({ id: 'InsufficientCreditsError', description: 'The workspace balance is below the cost of the conversion' });
export type InsufficientCreditsError = z.infer<typeof insufficientCreditsErrorSchema>;

export const notFoundErrorSchema = codedError(
  'not_found',
  'NotFoundError',
  'Unknown id, an id of another workspace, or an unknown path',
);
export const conversionFailedErrorSchema = codedError(
  'conversion_failed',
  'ConversionFailedError',
  'A sync conversion failed (corrupt, unsupported or unreadable file); its credits were refunded. message is the reason',
);

export const validationErrorSchema = z
  .object({
    message: z.string().meta({ description: 'The first validation message' }),
    errors: z.record(z.string(), z.array(z.string())).meta({ description: 'Messages per field, fields in form order' }),
  })
  .meta({ id: 'ValidationError', description: 'A request parameter failed validation' });
export type ValidationError = z.infer<typeof validationErrorSchema>;

export const webhookPayloadSchema = z
  .discriminatedUnion('status', [
    z
      .object({
        id: conversionId,
        status: z.literal('completed'),
        created_at: timestamp('Creation time'),
        markdown: z.string(),
        completed_at: timestamp('Finish time'),
        metadata: documentMetadataSchema.optional(),
        ...structureFields,
      })
      .meta({ id: 'CompletedWebhookPayload' }),
    z
      .object({
        id: conversionId,
        status: z.literal('failed'),
        created_at: timestamp('Creation time'),
        error: z.string().meta({ description: 'Failure reason' }),
        completed_at: timestamp('Finish time'),
      })
      .meta({ id: 'FailedWebhookPayload' }),
  ])
  .meta({ id: 'WebhookPayload', description: 'Compact JSON, keys in this order' });
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
