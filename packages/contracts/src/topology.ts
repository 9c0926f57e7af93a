import type { ConfirmChannel } from 'amqplib';

/** Every exchange and queue name, derived from one prefix so deployments and test runs can share a broker. */
export function topologyNames(prefix: string) {
  return {
    jobsQueue: `${prefix}.conversion.jobs`,
    deadLetterExchange: `${prefix}.dead-letter`,
    deadJobsQueue: `${prefix}.conversion.jobs.dead`,
    eventsExchange: `${prefix}.conversion.events`,
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
  await channel.assertExchange(names.eventsExchange, 'topic', { durable: true });
}
