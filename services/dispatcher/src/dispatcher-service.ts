import { Counter } from 'prom-client';
import {
  type Config,
  createLogger,
  createMetricsRegistry,
  type Logger,
  startHealthServer,
  stopInOrder,
} from '@markwright/config';
import { connectDb, type Db } from '@markwright/db';
import { Broker, parseSecretKey, topologyNames } from '@markwright/contracts';
import { deliverAttempt, type DeliverDeps } from './domain/deliver';
import { redeliverOverdue } from './domain/redeliver-overdue';
import { createSender } from './data-access/sender';
import { RetryScheduler } from './data-access/retry-scheduler';
import { consumeWebhookAttempts } from './entry-points/webhook-consumer';
import { startDeliverySweeper } from './entry-points/delivery-sweeper';
import { createWebhookMetrics } from './webhook-metrics';

export const USER_AGENT = 'Markwright-Webhooks/0.1.0';

export interface DispatcherService {
  db: Db;
  /** The port of /livez, /readyz and /metrics when HEALTH_PORT is set (0 picks a free one). */
  healthPort?: number;
  stop(): Promise<void>;
}

/** Webhook delivery: the queue consumer and the overdue sweeper, both calling the deliver use case. */
export async function startDispatcher(
  config: Config,
  logger: Logger = createLogger('dispatcher'),
): Promise<DispatcherService> {
  const db = await connectDb(config.DATABASE_URL, Math.min(config.WEBHOOK_CONCURRENCY, 20) + 2, (err) =>
    logger.warn({ err: err.message }, 'PostgreSQL connection lost; the pool reconnects'),
  );
  const broker = await Broker.connect(config.AMQP_URL);
  const names = topologyNames(config.QUEUE_PREFIX);
  const registry = createMetricsRegistry('dispatcher');
  const attempts = new Counter({
    name: 'markwright_webhook_messages_total',
    help: 'Webhook messages handled',
    labelNames: ['queue'],
    registers: [registry],
  });
  const retries = await RetryScheduler.create(broker, names);
  const deps: DeliverDeps = {
    db,
    logger,
    send: createSender({
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS || config.ALLOW_PRIVATE_NETWORKS,
      userAgent: USER_AGENT,
      extraCaFile: process.env.NODE_EXTRA_CA_CERTS,
    }),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS,
    observeAttempt: createWebhookMetrics(registry),
    webhookSecretKey: parseSecretKey(config.WEBHOOK_SECRET_KEY),
    scheduleRetry: (conversionId, series, attempt, delayMs) => retries.schedule(conversionId, series, attempt, delayMs),
  };
  const consumer = await consumeWebhookAttempts(
    broker,
    names,
    logger,
    { concurrency: config.WEBHOOK_CONCURRENCY, retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS },
    async (queue, conversionId, attempt, series) => {
      attempts.inc({ queue });
      await deliverAttempt(deps, conversionId, attempt, series);
    },
  );
  const health =
    config.HEALTH_PORT !== undefined
      ? await startHealthServer(
          config.HEALTH_PORT,
          async () => (await db.$queryRaw`SELECT 1`, broker.isConnected()),
          registry,
        )
      : undefined;
  const sweeper = startDeliverySweeper(
    () => redeliverOverdue(deps, config.PENDING_REPUBLISH_AFTER_MS),
    config.SWEEP_INTERVAL_MS,
    logger,
  );
  logger.info({ concurrency: config.WEBHOOK_CONCURRENCY }, 'dispatcher consuming');
  return {
    db,
    healthPort: health?.port,
    async stop() {
      await stopInOrder([
        () => sweeper.stop(),
        () => consumer.stop(),
        () => retries.close(),
        () => broker.close(),
        () => health?.close(),
        () => db.$disconnect(),
      ]);
    },
  };
}
