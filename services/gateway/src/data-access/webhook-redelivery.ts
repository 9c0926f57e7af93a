import type { Db } from '@markwright/db';
import {
  assertWebhookAttemptsQueue,
  type Broker,
  type ChannelWrapper,
  encode,
  publishPersistent,
  type TopologyNames,
  webhookAttemptSchema,
} from '@markwright/contracts';

/**
 * Starts the next webhook series of a finished async conversion of this workspace (E10): its
 * number and start time are recorded first, so the dispatcher's sweeper makes the first attempt
 * even if the message below is lost. Null when the row is not (or no longer) eligible.
 */
export async function startWebhookSeries(db: Db, workspaceId: string, conversionId: string): Promise<number | null> {
  const rows = await db.$queryRaw<{ series: number }[]>`
    UPDATE conversions SET webhook_series = webhook_series + 1, webhook_series_started_at = now()
    WHERE id = ${conversionId}::uuid AND workspace_id = ${workspaceId}::uuid
      AND status IN ('completed', 'failed') AND webhook_url IS NOT NULL
    RETURNING webhook_series AS series`;
  return rows[0]?.series ?? null;
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
