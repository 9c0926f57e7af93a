import {
  type Config,
  createLogger,
  createMetricsRegistry,
  type Logger,
  startHealthServer,
  stopInOrder,
} from '@markwright/config';
import { connectDb, type Db } from '@markwright/db';
import { Broker, JobPublisher, topologyNames } from '@markwright/contracts';
import { Counter, Gauge } from 'prom-client';
import { closeConversionWorkers, type IsolationLimits } from '@markwright/conversion';
import { failDeadJob, runConversion, type RunDeps } from './domain/run-conversion';
import { FinishedAnnouncer } from './data-access/finished-announcer';
import { consumeJobs } from './entry-points/job-consumer';
import { createConversionMetrics } from './conversion-metrics';
import { WorkSlots } from './domain/work-slots';
import { warmUpWorkers } from './domain/warm-up';
import { SplitsInHand } from './domain/splits-in-hand';

/** Database connections of a converter beyond its conversions: claims, stores and announcements of the jobs waiting. */
const SPARE_CONNECTIONS = 4;
/**
 * Jobs taken from the queue per conversion slot when CONVERTER_PREFETCH is unset. The jobs waiting
 * for a slot hold only their claim's upload (up to 1 MB each; larger ones wait for the byte
 * budget), and their claims and completions are grouped into shared statements, which fill only
 * when many jobs are in hand: at 64 sync requests a window of 16 left 48 jobs in the broker and
 * grouped 1–2 calls per statement.
 */
export const PREFETCH_PER_SLOT = 32;
/** Split conversions whose upload and range readings a converter holds for its range jobs (splits-in-hand.ts). */
export const SPLITS_IN_HAND = 8;
/**
 * Upload bytes of split conversions a converter holds beside its byte budget: a 2,000-page PDF's
 * upload is ~4 MB, and this keeps `split-memory` (< 512 MB RSS) whatever is uploaded.
 */
export const SPLIT_UPLOADS_IN_HAND_MB = 32;
import { RunningConversions } from './domain/running-conversions';
import { consumeCancels } from './entry-points/cancel-consumer';

export interface ConverterService {
  db: Db;
  /** The port of /livez, /readyz and /metrics when HEALTH_PORT is set (0 picks a free one). */
  healthPort?: number;
  /** Resolves once the warm-up conversions ended (at once without CONVERTER_WARM_UP). */
  warmedUp: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The V8 young generation of a converter's worker threads, MB (the library's default for its
 * 1536 MB heaps is 64). A 200-page range allocates far more than 64 MB, so its medium-lived
 * objects (a page's lines and runs) were promoted and every other pair of ranges paid a full
 * mark-compact, marked on V8's background threads: two ranges at once cost 431-484 ms of CPU the
 * first time after the warm-up against 339-384 with 256 (docs/performance.md, helper splitcpu).
 * V8 grows the space only as survivors need it: the 2,000-page memory bench stays under 512 MB.
 */
export const WORKER_YOUNG_GENERATION_MB = 256;

/** How this converter's conversions run in their worker threads. */
export function conversionLimits(config: Config): IsolationLimits {
  return {
    timeoutMs: config.CONVERSION_TIMEOUT_MS,
    maxMemoryMb: config.CONVERSION_MAX_MEMORY_MB,
    // Warmed at start (warm-up.ts): kept warm however long the queue stays empty.
    keepIdleWorkers: true,
    youngGenerationMb: WORKER_YOUNG_GENERATION_MB,
  };
}

/** A stateless worker: takes jobs, converts, writes results, announces. Run as many as needed. */
export async function startConverter(
  config: Config,
  logger: Logger = createLogger('converter'),
): Promise<ConverterService> {
  const prefetch = config.CONVERTER_PREFETCH ?? config.CONVERTER_CONCURRENCY * PREFETCH_PER_SLOT;
  const db = await connectDb(config.DATABASE_URL, config.CONVERTER_CONCURRENCY + SPARE_CONNECTIONS, (err) =>
    logger.warn({ err: err.message }, 'PostgreSQL connection lost; the pool reconnects'),
  );
  const broker = await Broker.connect(config.AMQP_URL);
  const names = topologyNames(config.QUEUE_PREFIX);
  const announcer = await FinishedAnnouncer.create(broker, names);
  const rangePublisher = await JobPublisher.create(broker, names, config.JOB_DELIVERY_LIMIT);
  const registry = createMetricsRegistry('converter');
  const jobs = new Counter({
    name: 'markwright_conversion_jobs_total',
    help: 'Jobs handled',
    labelNames: ['queue'],
    registers: [registry],
  });
  const warmedWorkers = new Gauge({
    name: 'markwright_converter_warmed_workers',
    help: 'Warm-up conversions (a one-page PDF per slot) that succeeded when the converter started',
    registers: [registry],
  });
  const deps: RunDeps = {
    db,
    logger,
    limits: conversionLimits(config),
    slots: new WorkSlots(config.CONVERTER_CONCURRENCY, config.CONVERTER_MAX_BYTES_IN_FLIGHT_MB * 1024 * 1024),
    announce: (id, known) => announcer.announce(db, id, known),
    observe: createConversionMetrics(registry),
    running: new RunningConversions(),
    split: {
      pages: config.SPLIT_PAGES,
      // Every converter has the same CONVERTER_CONCURRENCY (one configuration), and takes jobs as one consumer.
      slots: async () => Math.max(1, await rangePublisher.consumers()) * config.CONVERTER_CONCURRENCY,
      publish: (id, range) => rangePublisher.publish(id, { part: range }),
      inHand: new SplitsInHand(SPLITS_IN_HAND, SPLIT_UPLOADS_IN_HAND_MB * 1024 * 1024),
    },
    modelEndpoint:
      config.ENHANCED_AI_BASE_URL && config.ENHANCED_AI_MODEL
        ? {
            baseUrl: config.ENHANCED_AI_BASE_URL,
            model: config.ENHANCED_AI_MODEL,
            apiKey: config.ENHANCED_AI_API_KEY,
            timeoutMs: config.ENHANCED_AI_TIMEOUT_MS,
          }
        : undefined,
    transcriptionEndpoint: config.TRANSCRIPTION_BASE_URL
      ? {
          baseUrl: config.TRANSCRIPTION_BASE_URL,
          model: config.TRANSCRIPTION_MODEL,
          apiKey: config.TRANSCRIPTION_API_KEY,
          timeoutMs: config.TRANSCRIPTION_TIMEOUT_MS,
        }
      : undefined,
  };
  const consumer = await consumeJobs(
    broker,
    names,
    logger,
    { prefetch, deliveryLimit: config.JOB_DELIVERY_LIMIT },
    {
      onJob: async (id, part, upload) => {
        jobs.inc({ queue: 'jobs' });
        await runConversion(deps, id, part, upload);
      },
      onDeadJob: async (id) => {
        jobs.inc({ queue: 'dead' });
        await failDeadJob(deps, id);
      },
      onStopping: () => deps.slots.stopWaiting(),
    },
  );
  // Jobs are taken at once (they wait for the workers as any job would); readiness waits for the warm-up.
  let warm = !config.CONVERTER_WARM_UP;
  const warmUp = config.CONVERTER_WARM_UP
    ? warmUpWorkers(config.CONVERTER_CONCURRENCY, deps.limits)
        .then((warmed) => {
          warmedWorkers.set(warmed);
          logger.info({ warmed }, 'conversion workers warmed up');
        })
        .catch(() => undefined)
        .finally(() => {
          warm = true;
        })
    : Promise.resolve();
  const cancels = await consumeCancels(broker, names, logger, (id) => deps.running.cancel(id));
  const health =
    config.HEALTH_PORT !== undefined
      ? await startHealthServer(
          config.HEALTH_PORT,
          async () => {
            await db.$queryRaw`SELECT 1`;
            return warm && broker.isConnected();
          },
          registry,
        )
      : undefined;
  logger.info({ concurrency: config.CONVERTER_CONCURRENCY, prefetch }, 'converter consuming');
  return {
    db,
    healthPort: health?.port,
    warmedUp: warmUp,
    async stop() {
      await stopInOrder([
        () => cancels.stop(),
        () => consumer.stop(),
        () => announcer.close(),
        () => rangePublisher.close(),
        () => closeConversionWorkers(),
        () => broker.close(),
        () => health?.close(),
        () => db.$disconnect(),
      ]);
    },
  };
}
