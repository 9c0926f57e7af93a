import { WEBHOOK_MAX_ATTEMPTS } from '@markwright/contracts';
import { findOverdueDeliveries } from '../data-access/overdue-deliveries';
import { deliverAttempt, type DeliverDeps, staleAttemptAfterMs } from './deliver';

/**
 * The backstop, from the rows: attempts whose broker message was lost are made, and attempts
 * whose outcome was never recorded are made again (a duplicate is possible, a false
 * "not delivered" is not).
 */
export async function redeliverOverdue(deps: DeliverDeps, graceMs: number): Promise<number> {
  const overdue = await findOverdueDeliveries(deps.db, {
    retryDelaysMs: deps.retryDelaysMs,
    graceMs,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    staleAfterMs: staleAttemptAfterMs(deps.timeoutMs),
  });
  for (const { conversionId, nextAttempt, series } of overdue) {
    deps.logger.warn({ conversionId, series, attempt: nextAttempt }, 'overdue webhook attempt made by the sweeper');
    await deliverAttempt(deps, conversionId, nextAttempt, series);
  }
  return overdue.length;
}
