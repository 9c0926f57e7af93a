import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import {
  type Config,
  createLogger,
  DEVELOPMENT_WEBHOOK_SECRET_KEY,
  createMetricsRegistry,
  type Logger,
  stopInOrder,
  unreachable,
} from '@markwright/config';
import { connectDb, type Db } from '@markwright/db';
import { Broker, parseSecretKey, topologyNames } from '@markwright/contracts';
import { createApp } from './entry-points/http/app';
import { JobPublisher } from '@markwright/contracts';
import { FinishedListener } from './entry-points/finished-listener';
import { PendingSweeper } from './entry-points/pending-sweeper';
import { FinishedWaiters } from './domain/finished-waiters';
import { JobsQueueProbe } from './data-access/jobs-queue-probe';
import { createGatewayMetrics } from './gateway-metrics';
import { CancellationPublisher } from './data-access/cancellation-publisher';
import { createJobControlMetrics } from './job-control-metrics';
import { RetentionSweeper } from './entry-points/retention-sweeper';
import { createJobAdmission } from './domain/job-admission';
import { WebhookAttemptPublisher } from './data-access/webhook-redelivery';
import { createUrlDownloader } from './data-access/url-download';
import { UploadSlots } from './domain/upload-slots';

export interface Gateway {
  url: string;
  port: number;
  db: Db;
  sweeper: PendingSweeper;
  retention: RetentionSweeper;
  /** Closes the server (requests in flight get up to `graceMs`, by default the request timeout), then every connection. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

const SYNC_POLL_MS = 2_000;

/** Connects to PostgreSQL, RabbitMQ (and Redis when set) and serves the API. Used by main and by tests. */
export async function startGateway(config: Config, logger: Logger = createLogger('gateway')): Promise<Gateway> {
  if (config.WEBHOOK_SECRET_KEY === DEVELOPMENT_WEBHOOK_SECRET_KEY) {
    logger.warn('WEBHOOK_SECRET_KEY is unset: webhook secrets are encrypted with the development key');
  }
  const db = await connectDb(config.DATABASE_URL);
  // A failed start closes what it opened, so the caller (a test's setup) is not kept alive by it.
  const broker = await Broker.connect(config.AMQP_URL).catch(async (err: unknown) => {
    await db.$disconnect().catch(() => undefined);
    throw err;
  });
  let redis: Redis | undefined;
  if (config.REDIS_URL) {
    redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      await broker.close().catch(() => undefined);
      await db.$disconnect().catch(() => undefined);
      throw unreachable('Redis', config.REDIS_URL, err);
    }
  }
  const names = topologyNames(config.QUEUE_PREFIX);
  const publisher = await JobPublisher.create(broker, names, config.JOB_DELIVERY_LIMIT);
  const waiters = new FinishedWaiters();
  const listener = new FinishedListener(waiters);
  await listener.start(broker, names);
  const registry = createMetricsRegistry('gateway');
  const jobsQueue = await JobsQueueProbe.create(broker, names);
  const webhookAttempts = await WebhookAttemptPublisher.create(broker, names);
  const metrics = createGatewayMetrics(registry, () => jobsQueue.read());
  const cancellations = await CancellationPublisher.create(broker, names);
  const jobControl = createJobControlMetrics(registry);
  const app = createApp({
    db,
    publisher,
    listener: waiters,
    logger,
    syncTimeoutMs: config.SYNC_TIMEOUT_MS,
    syncPollMs: SYNC_POLL_MS,
    webhookSecretKey: parseSecretKey(config.WEBHOOK_SECRET_KEY),
    redis,
    rateLimitPrefix: config.QUEUE_PREFIX,
    rateLimitMultiplier: config.RATE_LIMIT_MULTIPLIER,
    uploads: { slots: new UploadSlots(config.UPLOADS_PER_WORKSPACE), tmpDir: config.UPLOAD_TMP_DIR },
    publicBaseUrl: config.PUBLIC_BASE_URL,
    registry,
    credits: metrics.credits,
    cancellations,
    jobControl,
    rateLimited: metrics.rateLimited,
    admission: createJobAdmission({
      readWaitingJobs: async () => (await jobsQueue.read()).waiting,
      maxQueuedJobs: config.MAX_QUEUED_JOBS,
      logger,
      onRefused: metrics.rejectedAtCapacity,
    }),
    convertInput: {
      download: createUrlDownloader({
        timeoutMs: config.FETCH_TIMEOUT_MS,
        allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
        extraCaFile: process.env.NODE_EXTRA_CA_CERTS,
      }),
    },
    redelivery: { publisher: webhookAttempts, onRedelivered: metrics.webhookRedelivered },
    ready: async () => {
      await db.$queryRaw`SELECT 1`;
      return broker.isConnected();
    },
  });
  const sweeper = new PendingSweeper({ db, publisher, logger, republishAfterMs: config.PENDING_REPUBLISH_AFTER_MS });
  sweeper.start(config.SWEEP_INTERVAL_MS);
  const retention = new RetentionSweeper(
    { db, logger, cancellations, jobControl, credits: metrics.credits },
    config.RESULT_RETENTION_HOURS,
  );
  retention.start(config.SWEEP_INTERVAL_MS);
  const server = http.createServer(app);
  server.requestTimeout = config.SYNC_TIMEOUT_MS + 30_000;
  server.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.listen(config.PORT, '0.0.0.0', resolve));
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'gateway listening');
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    port,
    db,
    sweeper,
    retention,
    async stop({ graceMs = server.requestTimeout } = {}) {
      await closeHttpServer(server, graceMs);
      await stopInOrder([
        () => sweeper.stop(),
        () => retention.stop(),
        () => cancellations.close(),
        () => listener.close(),
        () => jobsQueue.close(),
        () => webhookAttempts.close(),
        () => publisher.close(),
        () => broker.close(),
        () => redis?.quit().catch(() => undefined),
        () => db.$disconnect(),
      ]);
    },
  };
}

/**
 * Stops taking connections, closes the idle ones (and each busy one once its answer is sent) and
 * lets requests in flight finish for up to `graceMs` (the server's request timeout, the longest a
 * request may take), then closes what is left. Without the bound, a client that stalls mid-upload held the stop open for ever: close()
 * also stops the server's own check of request timeouts.
 */
function closeHttpServer(server: http.Server, graceMs: number): Promise<void> {
  // A connection whose request is answered from now on is closed about a second later (Node adds
  // one) instead of idling for HTTP_KEEP_ALIVE_TIMEOUT_MS; 0 would mean never.
  server.keepAliveTimeout = 1;
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
