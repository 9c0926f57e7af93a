import { type Db, FINISHED_STATUSES, namedStatement } from '@markwright/db';
import {
  assertWebhookAttemptsQueue,
  type Broker,
  type ChannelWrapper,
  encode,
  publishPersistent,
  type TopologyNames,
  webhookAttemptSchema,
} from '@markwright/contracts';

const startSeries = namedStatement<
  { conversionId: string; workspaceId: string; finished: readonly string[] },
  { status: string | null; hasWebhook: boolean | null; series: number | null }
>(
  'mw_start_webhook_series',
  // Locks the row first, so a conversion finishing or deleted meanwhile is judged on its final state.
  `WITH target AS (
     SELECT id, status, webhook_url IS NOT NULL AS has_webhook FROM conversions
     WHERE id = :conversionId::uuid AND workspace_id = :workspaceId::uuid FOR UPDATE
   ), started AS (
     UPDATE conversions c SET webhook_series = c.webhook_series + 1, webhook_series_started_at = now()
     FROM target t WHERE c.id = t.id AND t.has_webhook AND t.status = ANY (:finished::text[])
     RETURNING c.webhook_series AS series
   )
   SELECT (SELECT status FROM target) AS status, (SELECT has_webhook FROM target) AS "hasWebhook",
          (SELECT series FROM started) AS series`,
  ['conversionId', 'workspaceId', 'finished'],
);

export type WebhookSeriesStart = { series: number } | 'not_found' | 'no_webhook' | 'not_finished';

/**
 * Starts the next webhook series of a finished conversion of this workspace that has a webhook
 * (E10), in one statement that also says why not: its number and start time are recorded first,
 * so the dispatcher's sweeper makes the first attempt even if the message is lost. Whether the
 * conversion is finished is decided here only (FINISHED_STATUSES), on the locked row.
 */
export async function startWebhookSeries(
  db: Db,
  workspaceId: string,
  conversionId: string,
): Promise<WebhookSeriesStart> {
  const [row] = await startSeries(db, { conversionId, workspaceId, finished: FINISHED_STATUSES });
  if (!row || row.status === null) return 'not_found';
  if (!row.hasWebhook) return 'no_webhook';
  return row.series === null ? 'not_finished' : { series: row.series };
}

/** Publishes attempt 1 of a redelivery onto the dispatcher's attempts queue (confirmed, persistent). */
export class WebhookAttemptPublisher {
  private constructor(
    private readonly channel: ChannelWrapper,
    private readonly names: TopologyNames,
  ) {}

  static async create(broker: Broker, names: TopologyNames): Promise<WebhookAttemptPublisher> {
    return new WebhookAttemptPublisher(await broker.channel((ch) => assertWebhookAttemptsQueue(ch, names)), names);
  }

  async publishFirstAttempt(conversionId: string, series: number): Promise<void> {
    const body = encode(webhookAttemptSchema, { conversionId, series, attempt: 1 });
    await publishPersistent(this.channel, '', this.names.webhookQueue, body);
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
