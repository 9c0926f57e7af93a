import { Counter } from 'prom-client';
import { type Config, createLogger, createMetricsRegistry, type Logger, startHealthServer } from '@markwright/config';
import { connectDb, type Db } from '@markwright/db';
import {
  assertWebhookTopology,
  Broker,
  type ChannelWrapper,
  type ConfirmChannel,
  type ConsumeMessage,
  settle,
  conversionFinishedSchema,
  decode,
  encode,
  publishPersistent,
  topologyNames,
  webhookAttemptSchema,
} from '@markwright/contracts';
import { deliverAttempt, type DeliverDeps, MAX_ATTEMPTS } from './domain/deliver';
import { findOverdueDeliveries } from './data-access/overdue-deliveries';
import { createSender } from './data-access/sender';
import { createWebhookMetrics } from './webhook-metrics';

export const USER_AGENT = 'Markwright-Webhooks/0.1.0';

export interface DispatcherService {
  db: Db;
  /** The port of /livez, /readyz and /metrics when HEALTH_PORT is set (0 picks a free one). */
  healthPort?: number;
  stop(): Promise<void>;
}

/**
 * Webhook delivery: consumes finished async conversions (attempt 1) and scheduled retries,
 * with prefetch WEBHOOK_CONCURRENCY so a slow receiver never holds up the others. A message is
 * acked only after its attempt is recorded and its retry (if any) is confirmed by the broker.
 */
export async function startDispatcher(
  config: Config,
  logger: Logger = createLogger('dispatcher'),
): Promise<DispatcherService> {
  const db = await connectDb(config.DATABASE_URL, Math.min(config.WEBHOOK_CONCURRENCY, 20) + 2);
  const broker = await Broker.connect(config.AMQP_URL);
  const names = topologyNames(config.QUEUE_PREFIX);
  const registry = createMetricsRegistry('dispatcher');
  const attempts = new Counter({
    name: 'markwright_webhook_messages_total',
    help: 'Webhook messages handled',
    labelNames: ['queue'],
    registers: [registry],
  });
  const inFlight = new Set<Promise<void>>();
  // Set once the channel is up; the handlers below only run after that.
  const live = { channel: undefined as ChannelWrapper | undefined };
  const deps: DeliverDeps = {
    db,
    logger,
    send: createSender({
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      userAgent: USER_AGENT,
      extraCaFile: process.env.NODE_EXTRA_CA_CERTS,
    }),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS,
    observeAttempt: createWebhookMetrics(registry),
    scheduleRetry: (conversionId, attempt, delayMs) =>
      publishPersistent(
        live.channel!,
        '',
        names.webhookRetryQueue(delayMs),
        encode(webhookAttemptSchema, { conversionId, attempt }),
      ),
  };
  const handle = (
    ch: ConfirmChannel,
    queue: string,
    msg: ConsumeMessage,
    parse: (body: Buffer) => { conversionId: string; attempt: number } | undefined,
  ): void => {
    const work = (async () => {
      const job = parse(msg.content);
      if (!job) {
        settle(() => ch.nack(msg, false, false));
        return;
      }
      try {
        attempts.inc({ queue });
        await deliverAttempt(deps, job.conversionId, job.attempt);
        settle(() => ch.ack(msg));
      } catch (err) {
        logger.error(
          { conversionId: job.conversionId, err: (err as Error).message },
          'webhook handling failed; requeued',
        );
        settle(() => ch.nack(msg, false, true));
      }
    })();
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  live.channel = await broker.channel(async (ch) => {
    await assertWebhookTopology(ch, names, config.WEBHOOK_RETRY_DELAYS_MS);
    await ch.prefetch(config.WEBHOOK_CONCURRENCY);
    await ch.consume(names.webhookEventsQueue, (msg) => {
      if (!msg) return;
      handle(ch, 'events', msg, (body) => {
        const event = decode(conversionFinishedSchema, body);
        return event ? { conversionId: event.conversionId, attempt: 1 } : undefined;
      });
    });
    await ch.consume(
      names.webhookQueue,
      (msg) => msg && handle(ch, 'retries', msg, (body) => decode(webhookAttemptSchema, body)),
    );
  });
  const health =
    config.HEALTH_PORT !== undefined
      ? await startHealthServer(
          config.HEALTH_PORT,
          async () => (await db.$queryRaw`SELECT 1`, broker.isConnected()),
          registry,
        )
      : undefined;
  // Backstop: attempts whose message was lost are found from the rows and made directly.
  let sweeping: Promise<void> | undefined;
  const sweep = setInterval(() => {
    sweeping ??= (async () => {
      const overdue = await findOverdueDeliveries(
        db,
        config.WEBHOOK_RETRY_DELAYS_MS,
        config.PENDING_REPUBLISH_AFTER_MS,
        MAX_ATTEMPTS,
      );
      for (const { conversionId, nextAttempt } of overdue) {
        logger.warn({ conversionId, attempt: nextAttempt }, 'overdue webhook attempt made by the sweeper');
        await deliverAttempt(deps, conversionId, nextAttempt);
      }
    })()
      .catch((err: Error) => logger.warn({ err: err.message }, 'webhook sweep failed'))
      .finally(() => (sweeping = undefined));
  }, config.SWEEP_INTERVAL_MS);
  sweep.unref();
  logger.info({ concurrency: config.WEBHOOK_CONCURRENCY }, 'dispatcher consuming');
  return {
    db,
    healthPort: health?.port,
    async stop() {
      clearInterval(sweep);
      await sweeping;
      await live.channel?.cancelAll();
      await Promise.allSettled([...inFlight]);
      await live.channel?.close();
      await broker.close();
      await health?.close();
      await db.$disconnect();
    },
  };
}
