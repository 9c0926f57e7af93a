import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import { buildPayload, sign } from './payload';
import type { Send } from '../data-access/sender';
import { claimAttempt, deliveryState, recordAttempt } from '../data-access/attempt-repository';

export const MAX_ATTEMPTS = 3;

export interface DeliverDeps {
  db: Db;
  logger: Logger;
  send: Send;
  timeoutMs: number;
  /** Parks attempt `number` to run after `delayMs` (durably, in the broker). */
  scheduleRetry: (conversionId: string, number: number, delayMs: number) => Promise<void>;
  retryDelaysMs: number[];
  /** Reports each attempt's outcome (metrics), so the domain stays free of prom-client. */
  observeAttempt: (outcome: AttemptOutcome) => void;
}

/** delivered: 2xx; retrying: failed, another attempt is scheduled; gave_up: the last attempt failed. */
export type AttemptOutcome = 'delivered' | 'retrying' | 'gave_up';

/**
 * One webhook attempt: skip if delivered or already made → claim → sign the exact bytes → POST
 * → record → schedule the next attempt after a failure, or stop after the third.
 */
export async function deliverAttempt(deps: DeliverDeps, conversionId: string, number: number): Promise<void> {
  const conversion = await deps.db.conversion.findUnique({ where: { id: conversionId } });
  if (!conversion?.webhookUrl || (conversion.status !== 'completed' && conversion.status !== 'failed')) return;
  const state = await deliveryState(deps.db, conversionId);
  if (state.delivered || number > MAX_ATTEMPTS) return;
  const attemptId = await claimAttempt(deps.db, conversionId, number, deps.timeoutMs + 30_000);
  if (!attemptId) {
    // A redelivered message whose attempt was made but whose retry was never scheduled: schedule it now.
    const made = state.attempts.find((a) => a.number === number);
    const nextExists = state.attempts.some((a) => a.number === number + 1);
    if (made && made.error !== 'in progress' && !made.succeeded && !nextExists && number < MAX_ATTEMPTS) {
      await deps.scheduleRetry(conversionId, number + 1, retryDelay(deps, number));
    }
    return;
  }
  const body = buildPayload(conversion);
  const headers: Record<string, string> = {
    'x-webhook-conversion-id': conversionId,
    'x-webhook-attempt': String(number),
    'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)),
  };
  if (conversion.webhookSecret) headers['x-webhook-signature'] = sign(body, conversion.webhookSecret);
  const result = await deps.send(conversion.webhookUrl, body, headers);
  await recordAttempt(deps.db, attemptId, result);
  deps.logger.info(
    { conversionId, attempt: number, status: result.statusCode, error: result.error, ms: result.durationMs },
    'webhook attempt',
  );
  if (result.succeeded) {
    deps.observeAttempt('delivered');
  } else if (number < MAX_ATTEMPTS) {
    await deps.scheduleRetry(conversionId, number + 1, retryDelay(deps, number));
    deps.observeAttempt('retrying');
  } else {
    deps.observeAttempt('gave_up');
  }
}

/** The delay before attempt number + 1 (WEBHOOK_RETRY_DELAYS_MS). */
function retryDelay(deps: DeliverDeps, number: number): number {
  return deps.retryDelaysMs[number - 1] ?? deps.retryDelaysMs[deps.retryDelaysMs.length - 1] ?? 60_000;
}
