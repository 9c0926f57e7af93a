import type { ConfirmChannel } from 'amqplib';
import { assertEventsExchange } from './events';

/** Every exchange and queue name, derived from one prefix so deployments and test runs can share a broker. */
export function topologyNames(prefix: string) {
  return {
    jobsQueue: `${prefix}.conversion.jobs`,
    deadLetterExchange: `${prefix}.dead-letter`,
    deadJobsQueue: `${prefix}.conversion.jobs.dead`,
    eventsExchange: `${prefix}.conversion.events`,
    webhookEventsQueue: `${prefix}.webhook.events`,
    webhookQueue: `${prefix}.webhook.attempts`,
    webhookRetryQueue: (delayMs: number) => `${prefix}.webhook.retry.${delayMs}ms`,
  } as const;
}
export type TopologyNames = ReturnType<typeof topologyNames>;

export const ROUTING = {
  deadJob: 'conversion.job.dead',
  finished: (mode: 'sync' | 'async') => `conversion.finished.${mode}`,
} as const;

/**
 * Declares the conversion topology (idempotent): a durable quorum jobs queue whose delivery limit
 * sends a job that keeps crashing its worker to the dead-letter queue, and the events exchange.
 */
export async function assertConversionTopology(
  channel: ConfirmChannel,
  names: TopologyNames,
  deliveryLimit: number,
): Promise<void> {
  await channel.assertExchange(names.deadLetterExchange, 'direct', { durable: true });
  await channel.assertQueue(names.deadJobsQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(names.deadJobsQueue, names.deadLetterExchange, ROUTING.deadJob);
  await channel.assertQueue(names.jobsQueue, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': deliveryLimit,
      'x-dead-letter-exchange': names.deadLetterExchange,
      'x-dead-letter-routing-key': ROUTING.deadJob,
    },
  });
  await assertEventsExchange(channel, names);
}

/** The queue of webhook attempts to make now: retries expire into it and redeliveries (E10) are published to it. */
export async function assertWebhookAttemptsQueue(channel: ConfirmChannel, names: TopologyNames): Promise<void> {
  await channel.assertQueue(names.webhookQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
}

/**
 * Webhook delivery topology: finished async conversions arrive on a durable queue (attempt 1);
 * a retry is a persistent message parked in a per-delay queue whose TTL dead-letters it back
 * to the attempts queue, so pending retries live in the broker and survive any restart.
 */
export async function assertWebhookTopology(
  channel: ConfirmChannel,
  names: TopologyNames,
  delaysMs: number[],
): Promise<void> {
  await assertEventsExchange(channel, names);
  await channel.assertQueue(names.webhookEventsQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(names.webhookEventsQueue, names.eventsExchange, ROUTING.finished('async'));
  await assertWebhookAttemptsQueue(channel, names);
  for (const delay of new Set(delaysMs)) {
    // Quorum queues dead-letter at-least-once, so an expiring retry is never dropped while
    // the attempts queue is unavailable (e.g. during a broker restart).
    await channel.assertQueue(names.webhookRetryQueue(delay), {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
        'x-message-ttl': delay,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': names.webhookQueue,
      },
    });
  }
}
