import { z } from 'zod';

/**
 * A sync upload up to this size may ride in its job message (`upload` below): as large as the
 * converter converts plain text in its own thread (the conversion library's IN_THREAD_TEXT_MAX_BYTES).
 */
export const CARRIED_UPLOAD_MAX_BYTES = 4 * 1024;

/** A conversion to run. The database row is the source of truth; the message only names it. */
export const conversionJobSchema = z.object({
  conversionId: z.string().uuid(),
  /**
   * A page range of a long document split across converters (issue 22): convert only these pages
   * and keep their model for the merge. Absent: the whole conversion (the gateway's jobs).
   */
  part: z.object({ firstPage: z.number().int().min(1), lastPage: z.number().int().min(1) }).optional(),
  /**
   * A sync job's small upload with no option that changes the conversion (`carriesUpload`): the
   * converter may convert it without claiming the row first. The row and its upload are stored
   * as for any job, so a republished job (without this) is claimed as usual.
   */
  upload: z
    .object({
      originalFilename: z.string(),
      extension: z.string(),
      /** The bytes in base64. */
      bytes: z.string().max(Math.ceil(CARRIED_UPLOAD_MAX_BYTES / 3) * 4),
    })
    .optional(),
});
export type ConversionJob = z.infer<typeof conversionJobSchema>;
export type CarriedUpload = NonNullable<ConversionJob['upload']>;

export const conversionModeSchema = z.enum(['sync', 'async']);
export type ConversionMode = z.infer<typeof conversionModeSchema>;

/**
 * Markdown up to this many characters rides in a sync conversion's "finished" event, so the
 * waiting request answers without reading the row again; a longer result is read from the row.
 */
export const FINISHED_EVENT_INLINE_MAX_CHARS = 256 * 1024;

/** What a waiting sync request answers with; the row holds the same values. */
export const finishedResultSchema = z.object({
  markdown: z.string().nullable(),
  metadata: z.unknown().nullable(),
  tokenOptimization: z.unknown().nullable(),
  error: z.string().nullable(),
});
export type FinishedResult = z.infer<typeof finishedResultSchema>;

/** Announced once a conversion reached completed or failed (possibly more than once: consumers dedupe). */
export const conversionFinishedSchema = z.object({
  conversionId: z.string().uuid(),
  status: z.enum(['completed', 'failed']),
  mode: conversionModeSchema,
  /** Sync conversions whose markdown fits FINISHED_EVENT_INLINE_MAX_CHARS. */
  result: finishedResultSchema.optional(),
});
export type ConversionFinished = z.infer<typeof conversionFinishedSchema>;

/**
 * A "finished" message on the sync routing key: one event, or several that finished together
 * (a converter announces the sync results it stores in one statement with one message).
 */
export const conversionFinishedEventsSchema = z.union([
  z.array(conversionFinishedSchema).min(1),
  conversionFinishedSchema.transform((event) => [event]),
]);

/** A sync event whose Markdown is longer than this (characters) is announced by a message of its own. */
export const FINISHED_EVENTS_SHARED_MAX_CHARS = 16 * 1024;

/** One webhook attempt to make (first or retry) of a series (1, then one more per redelivery, E10). */
export const webhookAttemptSchema = z.object({
  conversionId: z.string().uuid(),
  attempt: z.number().int().min(1),
  /** Absent in messages published before redelivery existed: the first series. */
  series: z.number().int().min(1).default(1),
});
export type WebhookAttemptMessage = z.infer<typeof webhookAttemptSchema>;

export function encode<T>(schema: z.ZodType<T>, value: T): Buffer {
  return Buffer.from(JSON.stringify(schema.parse(value)));
}

/** Parses a message body; returns undefined for a malformed one (which consumers dead-letter). */
export function decode<T>(schema: z.ZodType<T>, body: Buffer): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
