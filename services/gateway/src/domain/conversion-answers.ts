import type { FinishedResult, QueuedConversion, SyncConversionResult } from '@markwright/contracts';
import type { Chunk, DocumentData, DocumentMetadata, Page, TokenOptimization } from '@markwright/contracts';

/**
 * What POST /convert gives back when it does not fail: the result of a sync conversion or the
 * acknowledgement of a queued one, and whether it is the first answer of an Idempotency-Key
 * given again. The entry point picks the status (200, 202) and headers; a failure is an AppError.
 */
export type Answer = { replayed?: boolean } & (
  { kind: 'converted'; body: SyncConversionResult } | { kind: 'queued'; body: QueuedConversion }
);

/** The credits a conversion cost and the balance right after its charge. */
export interface ChargeFacts {
  creditsUsed: number;
  creditsRemaining: number;
}

/** The 202 of an async conversion; the same body when an Idempotency-Key replays it. */
export function queuedAnswer(conversionId: string, charge: ChargeFacts): Answer {
  return {
    kind: 'queued',
    body: {
      id: conversionId,
      status: 'pending',
      message: 'The conversion is queued. The result will be sent to the webhook URL when it is ready.',
      status_url: `/api/v1/conversions/${conversionId}`,
      credits_used: charge.creditsUsed,
      credits_remaining: charge.creditsRemaining,
    },
  };
}

/** E1, E3, E4 as stored beside the markdown (null when not asked for or not produced). */
export interface StoredStructure {
  pages?: unknown;
  chunks?: unknown;
  document?: unknown;
}

/** Which of E1, E3, E4 a conversion asked for. */
export interface StructureFlags {
  includePages: boolean;
  chunkMaxTokens: number | null;
  includeDocument: boolean;
}

/** Whether the conversion asked for any of pages, chunks or document. */
export const asksForStructure = (flags: StructureFlags): boolean =>
  flags.includePages || flags.chunkMaxTokens !== null || flags.includeDocument;

/**
 * pages, chunks and document as the conversion asked for them, in that order, to go after the
 * contract's keys of a body (sync 200, detail, webhook); absent unless asked.
 */
export function structureFields(result: StoredStructure, flags: StructureFlags): StructureFields {
  const fields: StructureFields = {};
  if (flags.includePages && Array.isArray(result.pages)) fields.pages = result.pages as Page[];
  if (flags.chunkMaxTokens !== null && Array.isArray(result.chunks)) fields.chunks = result.chunks as Chunk[];
  if (flags.includeDocument && result.document) fields.document = result.document as DocumentData;
  return fields;
}

export interface StructureFields {
  pages?: Page[];
  chunks?: Chunk[];
  document?: DocumentData;
}

/** The 200 of a completed sync conversion, from its result and the flags it was asked with. */
export function syncAnswer(
  result: Pick<FinishedResult, 'markdown' | 'metadata' | 'tokenOptimization'> & StoredStructure,
  flags: { includeMetadata: boolean; optimizeTokens: boolean } & StructureFlags,
  charge: ChargeFacts,
): Answer {
  const body: SyncConversionResult = {
    success: true,
    markdown: result.markdown ?? '',
    credits_used: charge.creditsUsed,
    credits_remaining: charge.creditsRemaining,
  };
  if (flags.includeMetadata) body.metadata = result.metadata as DocumentMetadata;
  if (flags.optimizeTokens && result.tokenOptimization) {
    body.token_optimization = result.tokenOptimization as TokenOptimization;
  }
  return { kind: 'converted', body: { ...body, ...structureFields(result, flags) } };
}
