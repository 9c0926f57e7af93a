import { z } from 'zod';

const bool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), 'must be true or false')
  .transform((v) => ['true', '1', 'yes'].includes(v));

const msList = z
  .string()
  .trim()
  .refine((v) => /^\d+(\s*,\s*\d+)*$/.test(v), 'must be a comma-separated list of milliseconds')
  .transform((v) => v.split(',').map((n) => Number(n.trim())));

const positiveInt = z.coerce.number().int().positive();
const port = z.coerce.number().int().min(0).max(65535);

/** Used when WEBHOOK_SECRET_KEY is unset, so a checkout runs as is; never for production. */
export const DEVELOPMENT_WEBHOOK_SECRET_KEY = '6d61726b7772696768742d646576656c6f706d656e742d6b65792d3030303030';

/** Every environment variable Markwright reads, with its default (decisions.md, "Configuration"). */
export const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .url()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgresql:// URL')
    .default('postgresql://postgres@127.0.0.1:5432/markwright'),
  AMQP_URL: z
    .string()
    .url()
    .refine((v) => /^amqps?:\/\//.test(v), 'must be an amqp:// URL')
    .default('amqp://guest:guest@127.0.0.1:5672'),
  REDIS_URL: z
    .string()
    .url()
    .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// URL')
    .optional(),
  PORT: port.default(8080),
  HEALTH_PORT: port.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prefix of every queue and exchange name, so several deployments (or test runs) share one broker. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9_.-]*$/i, 'may hold letters, digits, dot, dash and underscore only')
    .default('markwright'),
  SYNC_TIMEOUT_MS: positiveInt.default(120_000),
  /**
   * How long the gateway keeps an idle keep-alive connection. Node's 5 s is shorter than the idle
   * time of most client pools and load balancers, which then send a request on a connection the
   * gateway is closing and get ECONNRESET (a POST is not retried): above theirs (60 s is common).
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(65_000),
  WEBHOOK_RETRY_DELAYS_MS: msList.default('60000,300000'),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(30_000),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool.default('false'),
  /** Lifts the address guard for file_url downloads and webhooks alike (tests, private deployments). */
  ALLOW_PRIVATE_NETWORKS: bool.default('false'),
  /** Deadline of a whole file_url download (E5). */
  FETCH_TIMEOUT_MS: positiveInt.default(30_000),
  WEBHOOK_CONCURRENCY: positiveInt.default(32),
  CONVERTER_CONCURRENCY: positiveInt.default(2),
  /**
   * Jobs a converter takes from the queue at once (the broker's prefetch): their I/O overlaps
   * while at most CONVERTER_CONCURRENCY convert; unset, 32 per conversion slot.
   */
  CONVERTER_PREFETCH: positiveInt.optional(),
  /** Upload bytes a converter holds in memory at once, across the jobs it has taken. */
  CONVERTER_MAX_BYTES_IN_FLIGHT_MB: positiveInt.default(256),
  /**
   * A PDF of more pages than this is split into page ranges of this many pages, converted by any
   * free converter and merged in page order (issue 22).
   */
  SPLIT_PAGES: positiveInt.default(64),
  /**
   * A starting converter converts a one-page PDF on each slot before it reports ready, so the
   * first real PDF does not pay for loading the reader in every worker thread (issue 22).
   */
  CONVERTER_WARM_UP: bool.default('true'),
  CONVERSION_TIMEOUT_MS: positiveInt.default(110_000),
  CONVERSION_MAX_MEMORY_MB: positiveInt.default(1536),
  /** A pending conversion not picked up for this long is published again. */
  PENDING_REPUBLISH_AFTER_MS: positiveInt.default(30_000),
  SWEEP_INTERVAL_MS: positiveInt.default(10_000),
  /** Finished conversions older than this many hours are deleted in the background (E8); unset keeps them. */
  RESULT_RETENTION_HOURS: positiveInt.optional(),
  /** Redeliveries of one job before it goes to the dead-letter queue and the conversion fails. */
  JOB_DELIVERY_LIMIT: positiveInt.default(3),
  /**
   * AES-256-GCM key for webhook secrets at rest: 64 hex characters or base64 of 32 bytes. The
   * default is a development key, announced at start-up; production sets its own.
   */
  WEBHOOK_SECRET_KEY: z
    .string()
    .trim()
    .refine(
      (v) => /^[0-9a-f]{64}$/i.test(v) || Buffer.from(v, 'base64').length === 32,
      'must be 32 bytes, as 64 hex characters or base64',
    )
    .default(DEVELOPMENT_WEBHOOK_SECRET_KEY),
  /** POST /convert answers 503 at_capacity while the jobs queue holds at least this many ready jobs (E11). */
  MAX_QUEUED_JOBS: positiveInt.default(10_000),
  /** Uploads of one workspace this gateway receives at once; past it, POST /convert answers 429. */
  UPLOADS_PER_WORKSPACE: positiveInt.default(4),
  /** Where uploads are streamed while they arrive (unset: the system's temporary directory). */
  UPLOAD_TMP_DIR: z.string().min(1).optional(),
  /** The public address of the API up to /api/v1 (e.g. https://api.example.com/api/v1), for the links of list pages. */
  PUBLIC_BASE_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL')
    .optional(),
  /** Multiplies every per-minute rate limit (load tests, trusted internal deployments). */
  RATE_LIMIT_MULTIPLIER: positiveInt.default(1),
  ENHANCED_AI_BASE_URL: z.string().url().optional(),
  ENHANCED_AI_MODEL: z.string().min(1).optional(),
  ENHANCED_AI_API_KEY: z.string().min(1).optional(),
  ENHANCED_AI_TIMEOUT_MS: positiveInt.default(60_000),
  /** Enhanced mode sends audio to this OpenAI-compatible base URL (…/v1) for /audio/transcriptions. */
  TRANSCRIPTION_BASE_URL: z.string().url().optional(),
  TRANSCRIPTION_MODEL: z.string().min(1).default('whisper-1'),
  TRANSCRIPTION_API_KEY: z.string().min(1).optional(),
  TRANSCRIPTION_TIMEOUT_MS: positiveInt.default(120_000),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `${i.path.join('.')}: ${i.message} (got ${JSON.stringify(present[String(i.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}
