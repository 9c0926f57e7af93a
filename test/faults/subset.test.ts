import path from 'node:path';
import { Client } from 'pg';
import { WEBHOOK_MAX_ATTEMPTS } from '@markwright/contracts';
import { createDb, type Db } from '@markwright/db';
import { createTestEnv, silentLogger, type TestEnv } from '@markwright/test-support';
import { startDispatcher, type DispatcherService } from '../../services/dispatcher/src/dispatcher-service';
import { makeCertificate } from '../../services/dispatcher/test/receiver';
import { createWorkspace } from '../../services/gateway/src/domain/workspaces';
import { startGateway, type Gateway } from '../../services/gateway/src/gateway';
import { measure, type Outcome, sendBurst, settled } from './burst';
import { freePort, ServiceProcess } from './infra';
import { type CountingReceiver, startCountingReceiver } from './receiver';

/**
 * The fast fault subset of `pnpm test` (the full suite is `pnpm test:faults`): the two faults that
 * need no private servers, on this file's own database and queue prefix of the shared PostgreSQL
 * and RabbitMQ, which are never stopped. The converter is its own process (kill -9 must hit it
 * alone); the gateway and dispatcher run in-process to spare two busy cores. Each scenario sends a
 * burst of mixed sync and async conversions (texts, corrupt DOCX, NUL bytes) with one fault
 * mid-burst, then holds the suite's promises: every accepted conversion finishes, every async one
 * reached the receiver 1 to 3 times with webhook_delivered agreeing, the ledger reconciles.
 */
const BURST = Number(process.env.FAULTS_SUBSET_BURST ?? 50);
const CONCURRENCY = 6;
const SETTLE_BOUND_MS = 180_000;
const TERMINATIONS = 10;

const cert = makeCertificate();
let env: TestEnv;
let db: Db;
let gateway: Gateway;
let dispatcher: DispatcherService;
let converter: ServiceProcess;
let receiver: CountingReceiver;
const table: Array<
  { scenario: string; sent: number; errors5xx: number; unanswered: number; seconds: number } & Outcome
> = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  env = await createTestEnv({
    HEALTH_PORT: '0',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '1000,2000',
    WEBHOOK_TIMEOUT_MS: '10000',
    PENDING_REPUBLISH_AFTER_MS: '10000',
    SWEEP_INTERVAL_MS: '1000',
  });
  db = createDb(env.config.DATABASE_URL, 2, () => undefined);
  receiver = await startCountingReceiver(cert);
  gateway = await startGateway(env.config, silentLogger);
  dispatcher = await startDispatcher(env.config, silentLogger);
  const healthPort = await freePort();
  const c = env.config;
  converter = new ServiceProcess(
    'converter',
    {
      DATABASE_URL: c.DATABASE_URL,
      AMQP_URL: c.AMQP_URL,
      QUEUE_PREFIX: c.QUEUE_PREFIX,
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'warn',
      PENDING_REPUBLISH_AFTER_MS: '10000',
      SWEEP_INTERVAL_MS: '1000',
    },
    healthPort,
    path.join(path.dirname(cert.certFile), 'converter.log'),
  );
  await converter.start();
}, 180_000);

afterAll(async () => {
  await converter?.stop().catch(() => undefined);
  await dispatcher?.stop().catch(() => undefined);
  await gateway?.stop().catch(() => undefined);
  await receiver?.close();
  await db?.$disconnect().catch(() => undefined);
  await env?.cleanup();
  cert.cleanup();
  if (table.length) process.stdout.write(`\nFault subset:\n${renderTable()}\n`);
}, 120_000);

function renderTable(): string {
  const head = ['scenario', 'sent', 'seconds', '5xx', 'no answer', 'accepted', 'completed', 'failed', 'lost'];
  const more = ['webhooks expected', 'delivered', 'duplicates', 'outside 1-3', 'disagree', 'ledger diff'];
  const row = (r: (typeof table)[number]) =>
    [r.scenario, r.sent, r.seconds, r.errors5xx, r.unanswered, r.accepted, r.completed, r.failed, r.lost]
      .concat([r.webhooksExpected, r.webhooksDelivered, r.duplicates, r.outsideOneToThree, r.disagreements])
      .concat([r.ledgerDifference]);
  return [`| ${[...head, ...more].join(' | ')} |`, ...table.map((r) => `| ${row(r).join(' | ')} |`)].join('\n');
}

/** pg_terminate_backend on every connection to this file's database: what a failover or an administrator does. */
async function terminateConnections(): Promise<void> {
  const admin = new URL(env.config.DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [env.databaseName],
    );
  } finally {
    await client.end();
  }
}

const scenarios: Array<{ name: string; fault: () => Promise<void> }> = [
  {
    name: 'kill -9 converter',
    fault: async () => {
      await converter.kill9();
      await sleep(1000);
      await converter.start();
    },
  },
  {
    name: 'PostgreSQL connections terminated',
    fault: async () => {
      for (let i = 0; i < TERMINATIONS; i++) {
        await terminateConnections();
        await sleep(300);
      }
    },
  },
];

describe('fault subset (the full suite is pnpm test:faults)', () => {
  it.each(scenarios)(
    'When $name happens mid-burst, then every conversion finishes, webhooks agree with the receiver and the ledger reconciles',
    async ({ name, fault }) => {
      const started = Date.now();
      const workspaces = await Promise.all(
        [0, 1].map((i) => createWorkspace(db, { name: `subset-${name}-${i}`, plan: 'business', credits: 10_000 })),
      );
      const ids = workspaces.map((w) => w.workspaceId);
      const burst = await sendBurst({
        gatewayUrl: () => gateway.url,
        tokens: workspaces.map((w) => w.token),
        webhookUrl: receiver.url,
        count: BURST,
        concurrency: CONCURRENCY,
        faultAfter: Math.floor(BURST * 0.4),
        fault,
      });
      await burst.faultDone;
      const deadline = Date.now() + SETTLE_BOUND_MS;
      while (Date.now() < deadline && !(await settled(db, ids, WEBHOOK_MAX_ATTEMPTS).catch(() => false))) {
        await sleep(500);
      }
      // Late duplicates would show up now, not after the figures are taken.
      await sleep(2000);
      const outcome = await measure(db, ids, receiver);
      table.push({
        scenario: name,
        sent: burst.sent.length,
        seconds: Math.round((Date.now() - started) / 1000),
        errors5xx: burst.sent.filter((s) => typeof s.answer === 'number' && s.answer >= 500).length,
        unanswered: burst.sent.filter((s) => s.answer === 'no answer').length,
        ...outcome,
      });
      expect(outcome.accepted).toBeGreaterThanOrEqual(burst.sent.filter((s) => s.answer === 202).length);
      expect({
        lost: outcome.lost,
        outsideOneToThree: outcome.outsideOneToThree,
        disagreements: outcome.disagreements,
        unknownOutcomes: outcome.unknownOutcomes,
        ledgerDifference: outcome.ledgerDifference,
        converterCrashed: converter.unexpectedExits().map((e) => e.code),
      }).toEqual({
        lost: 0,
        outsideOneToThree: 0,
        disagreements: 0,
        unknownOutcomes: 0,
        ledgerDifference: 0,
        converterCrashed: [],
      });
    },
    300_000,
  );
});
