import { z } from 'zod';
import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import type { WebhookRedeliveryAccepted } from '@markwright/contracts';
import { AppError } from './app-error';
import { findConversionForWorkspace } from '../data-access/conversion-repository';
import { startWebhookSeries, type WebhookAttemptPublisher } from '../data-access/webhook-redelivery';

export interface RedeliverDeps {
  db: Db;
  publisher: Pick<WebhookAttemptPublisher, 'publishFirstAttempt'>;
  logger: Logger;
  /** Reports each accepted redelivery (metrics), so the domain stays free of prom-client. */
  onRedelivered: () => void;
}

const FINISHED = new Set(['completed', 'failed']);

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
  const row = await findConversionForWorkspace(deps.db, workspaceId, conversionId);
  if (!row) throw AppError.notFound();
  if (row.webhookUrl === null) throw AppError.noWebhook();
  if (!FINISHED.has(row.status)) throw AppError.webhookNotFinished();
  const series = await startWebhookSeries(deps.db, workspaceId, conversionId);
  // Only a concurrent delete can make the row ineligible between the read and the update.
  if (series === null) throw AppError.notFound();
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
