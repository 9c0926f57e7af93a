import path from 'node:path';
import { Broker } from '@markwright/contracts';
import { silentLogger } from '@markwright/test-support';

/**
 * `tsx bench/admission-wait.ts`: how long POST /convert waits in job admission (E11) for the
 * broker's reading of the jobs queue. Runs `createJobAdmission` as the gateway does (a passive
 * check of the jobs queue on a channel of its own) with `ADMISSION_CLIENTS` requests in a closed
 * loop at `ADMISSION_RATE` admissions a second in all, for `ADMISSION_SECONDS`, against a real
 * broker: point `ADMISSION_AMQP_URL` and `ADMISSION_QUEUE` at a stack under load (e.g. the vhost
 * of a running `bench/sync-profile.ts`, whose publishes and deliveries are what the broker's
 * answer waits behind). With `ADMISSION_COMPARE_ROOT` (another checkout's sources) its
 * job-admission.ts runs beside this one, in the same process at the same time, each on its own
 * channel. Prints per implementation the admissions that waited at all and the wait's
 * percentiles.
 */
const URL = process.env.ADMISSION_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/mw_syncpath_ab';
const QUEUE = process.env.ADMISSION_QUEUE ?? 'markwright.conversion.jobs';
const CLIENTS = Number(process.env.ADMISSION_CLIENTS ?? 64);
const RATE = Number(process.env.ADMISSION_RATE ?? 900);
const SECONDS = Number(process.env.ADMISSION_SECONDS ?? 20);
const FILE = 'services/gateway/src/domain/job-admission.ts';

type Admission = { admit(): Promise<{ release(): void }> };
type Make = (deps: {
  readWaitingJobs: () => Promise<number>;
  maxQueuedJobs: number;
  logger: typeof silentLogger;
  onRefused: () => void;
}) => Admission;

async function measure(label: string, make: Make, broker: Broker): Promise<() => string> {
  const channel = await broker.channel(async () => undefined);
  const admission = make({
    readWaitingJobs: async () => (await channel.checkQueue(QUEUE)).messageCount,
    maxQueuedJobs: 1_000_000,
    logger: silentLogger,
    onRefused: () => undefined,
  });
  const waits: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  const pause = (CLIENTS / RATE) * 1000;
  const client = async (): Promise<void> => {
    await new Promise((r) => setTimeout(r, Math.random() * pause));
    while (Date.now() < end) {
      const t = performance.now();
      (await admission.admit()).release();
      waits.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, client));
  return () => {
    void done;
    const sorted = [...waits].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2);
    const waited = sorted.filter((ms) => ms > 1);
    return (
      `${label}: ${sorted.length} admissions, ${waited.length} waited over 1 ms ` +
      `(${waited.reduce((s, ms) => s + ms, 0).toFixed(0)} ms in all); p50 ${at(50)} p99 ${at(99)} p99.9 ${at(99.9)} ` +
      `max ${sorted.at(-1)!.toFixed(1)} ms`
    );
  };
}

async function main(): Promise<void> {
  const broker = await Broker.connect(URL);
  const roots = [['this checkout', path.join(__dirname, '..')]];
  if (process.env.ADMISSION_COMPARE_ROOT) roots.push(['compared', path.resolve(process.env.ADMISSION_COMPARE_ROOT)]);
  const reports: (() => string)[] = [];
  for (const [label, root] of roots) {
    const { createJobAdmission } = (await import(path.join(root!, FILE))) as { createJobAdmission: Make };
    reports.push(await measure(label!, createJobAdmission, broker));
  }
  await new Promise((r) => setTimeout(r, SECONDS * 1000 + 500));
  for (const report of reports) process.stdout.write(`${report()}\n`);
  await broker.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
