import { z } from 'zod';
import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import type { WebhookRedeliveryAccepted } from '@markwright/contracts';
import { AppError } from './app-error';
import { startWebhookSeries, type WebhookAttemptPublisher } from '../data-access/webhook-redelivery';

export interface RedeliverDeps {
  db: Db;
  publisher: Pick<WebhookAttemptPublisher, 'publishFirstAttempt'>;
  logger: Logger;
  /** Reports each accepted redelivery (metrics), so the domain stays free of prom-client. */
  onRedelivered: () => void;
}

/**
 * POST /conversions/{id}/webhook/redeliver (E10): find the caller's conversion → it must have a
 * webhook and be finished → record a new series (durable: the dispatcher's sweeper finds it) →
 * publish its first attempt now → 202. The same event, so the same webhook-id.
 */
export async function redeliverWebhook(
  deps: RedeliverDeps,
  workspaceId: string,
  id: string,
): Promise<WebhookRedeliveryAccepted> {
  if (!z.uuid().safeParse(id).success) throw AppError.notFound();
  const conversionId = id.toLowerCase();
  const started = await startWebhookSeries(deps.db, workspaceId, conversionId);
  if (started === 'not_found') throw AppError.notFound();
  if (started === 'no_webhook') throw AppError.noWebhook();
  if (started === 'not_finished') throw AppError.webhookNotFinished();
  const { series } = started;
  deps.onRedelivered();
  try {
    await deps.publisher.publishFirstAttempt(conversionId, series);
  } catch (err) {
    deps.logger.warn(
      { conversionId, series, err: (err as Error).message },
      'redelivery publish failed; the sweeper sends it',
    );
  }
  deps.logger.info({ conversionId, series }, 'webhook redelivery requested');
  return {
    id: conversionId,
    message: 'The webhook is being sent again: up to 3 attempts; webhook_delivered shows the outcome.',
    status_url: `/api/v1/conversions/${conversionId}`,
  };
}
