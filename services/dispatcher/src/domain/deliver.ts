import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import { openWebhookSecret, WEBHOOK_MAX_ATTEMPTS as MAX_ATTEMPTS } from '@markwright/contracts';
import { buildPayload, sign, signStandard } from './payload';
import type { Send } from '../data-access/sender';
import {
  claimAttempt,
  deliveryState,
  findDeliverable,
  IN_PROGRESS,
  recordAttempt,
} from '../data-access/attempt-repository';

export interface DeliverDeps {
  db: Db;
  logger: Logger;
  send: Send;
  timeoutMs: number;
  /** Parks attempt `number` of a series to run after `delayMs` (durably, in the broker). */
  scheduleRetry: (conversionId: string, series: number, number: number, delayMs: number) => Promise<void>;
  retryDelaysMs: number[];
  /** Reports each attempt's outcome (metrics), so the domain stays free of prom-client. */
  observeAttempt: (outcome: AttemptOutcome) => void;
  /** WEBHOOK_SECRET_KEY: secrets are stored encrypted and opened only to sign. */
  webhookSecretKey: Buffer;
}

/** delivered: 2xx; retrying: failed, another attempt is scheduled; gave_up: the last attempt failed. */
export type AttemptOutcome = 'delivered' | 'retrying' | 'gave_up';

/** How long an attempt may stay "in progress" before its outcome counts as lost and it is sent again. */
export function staleAttemptAfterMs(timeoutMs: number): number {
  return timeoutMs + 30_000;
}

/**
 * One webhook attempt of a series (1, or a redelivery's, E10): skip if the series was superseded
 * by a redelivery, delivered, or the attempt already made → claim (the row exists before the
 * POST, so an outcome lost to a crash or a dropped connection is found and the attempt redone)
 * → sign the exact bytes → POST → record (retried over a fresh connection) → schedule the next
 * attempt after a failure, or stop after the third.
 */
export async function deliverAttempt(
  deps: DeliverDeps,
  conversionId: string,
  number: number,
  series = 1,
): Promise<void> {
  const conversion = await findDeliverable(deps.db, conversionId);
  if (!conversion || series !== conversion.webhookSeries) return;
  const state = await deliveryState(deps.db, conversionId, series);
  if (state.delivered || number > MAX_ATTEMPTS) return;
  const attemptId = await claimAttempt(deps.db, conversionId, series, number, staleAttemptAfterMs(deps.timeoutMs));
  if (!attemptId) {
    // A redelivered message whose attempt was made but whose retry was never scheduled: schedule it now.
    const made = state.attempts.find((a) => a.number === number);
    const nextExists = state.attempts.some((a) => a.number === number + 1);
    if (made && made.error !== IN_PROGRESS && !made.succeeded && !nextExists && number < MAX_ATTEMPTS) {
      await deps.scheduleRetry(conversionId, series, number + 1, retryDelay(deps, number));
    }
    return;
  }
  const body = buildPayload(conversion);
  const timestamp = Math.floor(Date.now() / 1000);
  // One event per conversion: its id is the Standard Webhooks message id on every attempt and redelivery.
  const webhookId = conversionId;
  const headers: Record<string, string> = {
    'x-webhook-conversion-id': conversionId,
    'x-webhook-attempt': String(number),
    'x-webhook-timestamp': String(timestamp),
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
  };
  if (conversion.webhookSecret) {
    const secret = openWebhookSecret(conversion.webhookSecret, deps.webhookSecretKey);
    headers['x-webhook-signature'] = sign(body, secret);
    headers['webhook-signature'] = signStandard(webhookId, timestamp, body, secret);
  }
  const result = await deps.send(conversion.webhookUrl, body, headers);
  await recordAttempt(deps.db, attemptId, result, (err) =>
    deps.logger.warn({ conversionId, attempt: number, err: err.message }, 'recording the attempt again'),
  );
  deps.logger.info(
    { conversionId, series, attempt: number, status: result.statusCode, error: result.error, ms: result.durationMs },
    'webhook attempt',
  );
  if (result.succeeded) {
    deps.observeAttempt('delivered');
  } else if (number < MAX_ATTEMPTS) {
    await deps.scheduleRetry(conversionId, series, number + 1, retryDelay(deps, number));
    deps.observeAttempt('retrying');
  } else {
    deps.observeAttempt('gave_up');
  }
}

/** The delay before attempt number + 1 (WEBHOOK_RETRY_DELAYS_MS). */
function retryDelay(deps: DeliverDeps, number: number): number {
  return deps.retryDelaysMs[number - 1] ?? deps.retryDelaysMs[deps.retryDelaysMs.length - 1] ?? 60_000;
}
