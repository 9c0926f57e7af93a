import crypto from 'node:crypto';
import { Client } from 'pg';
import { type Config, createLogger, loadConfig } from '@markwright/config';
import { migrate } from '@markwright/db';

/**
 * Isolation for one test file: its own PostgreSQL database (migrated) and its own queue prefix
 * on the real broker, so files running in parallel never see each other's rows or messages.
 */
export interface TestEnv {
  config: Config;
  databaseName: string;
  prefix: string;
  cleanup(): Promise<void>;
}

/** The servers tests use: the TEST_* variable, else the one the services read, else its default. */
function serverUrl(testVariable: string, variable: string, fallback: string): string {
  return process.env[testVariable] || process.env[variable] || fallback;
}

/** The `postgres` database of the server DATABASE_URL names: test databases are created from it. */
function adminUrl(): string {
  const url = new URL(
    serverUrl('TEST_DATABASE_ADMIN_URL', 'DATABASE_URL', 'postgresql://postgres@127.0.0.1:5432/postgres'),
  );
  if (!process.env.TEST_DATABASE_ADMIN_URL) url.pathname = '/postgres';
  return url.toString();
}

const ADMIN_URL = adminUrl();
export const TEST_AMQP_URL = serverUrl('TEST_AMQP_URL', 'AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672');
export const TEST_REDIS_URL = serverUrl('TEST_REDIS_URL', 'REDIS_URL', 'redis://127.0.0.1:6379');

export async function createTestEnv(overrides: Record<string, string> = {}): Promise<TestEnv> {
  const id = crypto.randomBytes(5).toString('hex');
  const databaseName = `mw_test_${id}`;
  const prefix = `mwtest.${id}`;
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${databaseName}`;
  const config = loadConfig({
    DATABASE_URL: dbUrl.toString(),
    AMQP_URL: TEST_AMQP_URL,
    QUEUE_PREFIX: prefix,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SWEEP_INTERVAL_MS: '500',
    // Tests start many converters: none loads the PDF reader before a test asks for it.
    CONVERTER_WARM_UP: 'false',
    ...overrides,
  });
  await migrate(config.DATABASE_URL);
  return {
    config,
    databaseName,
    prefix,
    cleanup: () => dropTestResources(databaseName, prefix, config.AMQP_URL),
  };
}

/** Drops a test's database and its queues and exchanges (by prefix), on the servers the tests use. */
export async function dropTestResources(databaseName: string, prefix: string, amqpUrl = TEST_AMQP_URL): Promise<void> {
  await deleteQueues(amqpUrl, prefix);
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** A database URL for `databaseName` on the server the tests use (created by whoever migrates it). */
export function testDatabaseUrl(databaseName: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

/** Deletes the queues and exchanges a test file declared (names all start with its prefix). */
async function deleteQueues(amqpUrl: string, prefix: string): Promise<void> {
  const amqplib = await import('amqplib');
  const conn = await amqplib.connect(amqpUrl);
  try {
    const delays = String(process.env.TEST_WEBHOOK_DELAYS ?? '1000,1500').split(',');
    const names = [
      'conversion.jobs',
      'conversion.jobs.dead',
      'webhook.events',
      'webhook.attempts',
      ...delays.map((d) => `webhook.retry.${d}ms`),
    ];
    for (const name of names) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteQueue(`${prefix}.${name}`).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
    for (const exchange of ['dead-letter', 'conversion.events', 'webhook.retry']) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteExchange(`${prefix}.${exchange}`).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await conn.close();
  }
}

export const silentLogger = createLogger('test', 'silent');

/** Polls `probe` until it returns a value (not undefined) or the deadline passes. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
export * from './metrics';
export { createTestDb, insertConversion, type TestDb } from './conversion-rows';
export { startTranscriptionServer, type TranscriptionAnswer } from './transcription-server';
