import { AppError } from './app-error';
import type { JobControlDeps } from './job-control';
import { isConversionId } from './read-conversions';
import { deleteConversionsFinishedBefore, deleteFinishedConversion } from '../data-access/job-control-repository';
import { deleteExpiredIdempotencyKeys } from '../data-access/idempotency-repository';
import { idempotencyExpiredBefore } from './idempotency';

/**
 * DELETE /conversions/{id} (E8): a finished conversion of the workspace and everything of its
 * document go (markdown, metadata, upload, webhook attempts, idempotency key); the ledger stays.
 * Unknown or another workspace's: 404. Pending or processing: 409 not_finished.
 */
export async function deleteConversion(deps: JobControlDeps, workspaceId: string, id: string): Promise<void> {
  if (!isConversionId(id)) throw AppError.notFound();
  const outcome = await deleteFinishedConversion(deps.db, workspaceId, id.toLowerCase());
  if (outcome === 'not_found') throw AppError.notFound();
  if (outcome === 'not_finished') throw AppError.notFinished();
  deps.jobControl.deleted('request', 1);
  deps.logger.info({ conversionId: id.toLowerCase() }, 'conversion deleted');
}

/** Rows one retention statement deletes: one short transaction each, however much has expired. */
export const RETENTION_BATCH = 100;
/** Batches per sweep, so one sweep stays bounded; the next sweep continues. */
export const RETENTION_MAX_BATCHES = 10;

/**
 * RESULT_RETENTION_HOURS (E8): deletes conversions finished longer ago than that, in bounded
 * batches, as DELETE does; and idempotency keys past their 24 h window. `retentionHours`
 * undefined keeps results. Returns how many conversions were deleted.
 */
export async function sweepExpiredResults(
  deps: JobControlDeps,
  retentionHours: number | undefined,
  now = Date.now(),
): Promise<number> {
  let deleted = 0;
  if (retentionHours !== undefined) {
    const finishedBefore = new Date(now - retentionHours * 3_600_000);
    for (let batch = 0; batch < RETENTION_MAX_BATCHES; batch++) {
      const count = await deleteConversionsFinishedBefore(deps.db, finishedBefore, RETENTION_BATCH);
      deleted += count;
      if (count < RETENTION_BATCH) break;
    }
    if (deleted > 0) {
      deps.jobControl.deleted('retention', deleted);
      deps.logger.info({ deleted, retentionHours }, 'expired conversions deleted');
    }
  }
  for (let batch = 0; batch < RETENTION_MAX_BATCHES; batch++) {
    if ((await deleteExpiredIdempotencyKeys(deps.db, idempotencyExpiredBefore(now), RETENTION_BATCH)) < RETENTION_BATCH)
      break;
  }
  return deleted;
}
