import { failConversion } from '@markwright/db';
import { CANCELLED_BY_REQUEST, type ConversionDetail } from '@markwright/contracts';
import { AppError } from './app-error';
import type { JobControlDeps } from './job-control';
import { getConversion, isConversionId } from './read-conversions';
import { findConversionState } from '../data-access/job-control-repository';

/**
 * POST /conversions/{id}/cancel (E7): a pending or processing conversion fails with "Cancelled
 * by request." and is refunded → the converter running it aborts its worker → its webhook goes
 * out as for any failure → the detail. The failing statement is conditional on the status and
 * the refund row is unique per conversion, so a cancel racing the conversion's own end either
 * wins (one refund) or finds it finished (409), never both.
 */
export async function cancelConversion(
  deps: JobControlDeps,
  workspaceId: string,
  id: string,
): Promise<ConversionDetail> {
  const conversionId = id.toLowerCase();
  const state = isConversionId(id) ? await findConversionState(deps.db, workspaceId, conversionId) : null;
  if (!state) throw AppError.notFound();
  const failed = await failConversion(deps.db, conversionId, CANCELLED_BY_REQUEST);
  if (!failed) {
    const now = await findConversionState(deps.db, workspaceId, conversionId);
    throw now ? AppError.notCancellable(now.status) : AppError.notFound();
  }
  deps.jobControl.cancelled();
  deps.credits.refunded(failed.refunded);
  deps.logger.info({ conversionId, refunded: failed.refunded }, 'conversion cancelled');
  try {
    await deps.cancellations.announceCancelled(conversionId, state.mode, CANCELLED_BY_REQUEST);
  } catch (err) {
    // The row is failed and refunded; a converter still running it only has its late result dropped.
    deps.logger.warn({ conversionId, err: (err as Error).message }, 'cancel announcement not published');
  }
  return getConversion(deps.db, workspaceId, conversionId);
}
