import type { FinishedResult, QueuedConversion, SyncConversionResult } from '@markwright/contracts';
import type { DocumentMetadata, TokenOptimization } from '@markwright/contracts';

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

/** The 200 of a completed sync conversion, from its result and the flags it was asked with. */
export function syncAnswer(
  result: Pick<FinishedResult, 'markdown' | 'metadata' | 'tokenOptimization'>,
  flags: { includeMetadata: boolean; optimizeTokens: boolean },
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
  return { kind: 'converted', body };
}
