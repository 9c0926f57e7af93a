import type { Logger } from '@markwright/config';
import {
  assertWebhookTopology,
  type Broker,
  conversionFinishedSchema,
  decode,
  QueueConsumer,
  type TopologyNames,
  webhookAttemptSchema,
} from '@markwright/contracts';

export type AttemptHandler = (
  queue: 'events' | 'retries',
  conversionId: string,
  attempt: number,
  series: number,
) => Promise<void>;

/**
 * The dispatcher's queue entry point: finished async conversions (attempt 1) and scheduled
 * retries and redeliveries, with prefetch WEBHOOK_CONCURRENCY so a slow receiver never holds up the others. A
 * message is acked only after its attempt is recorded and its retry (if any) is confirmed.
 */
export async function consumeWebhookAttempts(
  broker: Broker,
  names: TopologyNames,
  logger: Logger,
  options: { concurrency: number; retryDelaysMs: number[] },
  handle: AttemptHandler,
): Promise<{ stop(): Promise<void> }> {
  const consumer = new QueueConsumer(logger);
  const channel = await broker.channel(async (ch) => {
    await assertWebhookTopology(ch, names, options.retryDelaysMs);
    await ch.prefetch(options.concurrency);
    await consumer.consume(
      ch,
      names.webhookEventsQueue,
      (body) => decode(conversionFinishedSchema, body),
      (event) => handle('events', event.conversionId, 1, 1),
    );
    await consumer.consume(
      ch,
      names.webhookQueue,
      (body) => decode(webhookAttemptSchema, body),
      (job) => handle('retries', job.conversionId, job.attempt, job.series),
    );
  });
  return {
    async stop() {
      await channel.cancelAll();
      await consumer.drain();
      await channel.close();
    },
  };
}
