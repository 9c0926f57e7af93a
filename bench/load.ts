import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { createDb, type Db } from '@markwright/db';
import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { createWorkspace } from '../services/gateway/src/domain/workspaces';

/**
 * `pnpm load`: autocannon on loopback against the real gateway + converter (separate processes,
 * a fresh database and queue prefix), sync 1 KB .txt conversions at 1, 16 and 64 connections and
 * GET reads, beside a bare Express 5 + multer echo server measured in the same run. Then the
 * ledger of the workspace is checked. Not a test: it prints figures and ratios.
 *
 *   LOAD_DURATION_S      seconds per run (default 10)
 *   LOAD_CONNECTIONS     comma list (default 1,16,64)
 *   LOAD_NODE_OPTIONS    extra node flags for the services and the echo server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 *   LOAD_BASE_URL        target a running stack instead (its DATABASE_URL must be in the environment)
 *   LOAD_COMPARE_ROOT    another checkout (e.g. main before a change), started and measured in the same run
 *   LOAD_READS           0 skips the GET runs (e.g. so a --cpu-prof holds the sync path only)
 *
 * Beside each run it prints the CPU time each process spent per request (Linux /proc: all
 * threads, so the converter's worker threads count; PostgreSQL = the backends of the target's
 * database): on a shared machine that figure moves much less than requests per second.
 */
const ROOT = path.join(__dirname, '..');
const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 10);
const CONNECTIONS = (process.env.LOAD_CONNECTIONS ?? '1,16,64').split(',').map(Number);
const WITH_READS = process.env.LOAD_READS !== '0';
const RATE_LIMIT_MULTIPLIER = '100000';
const CREDITS = 100_000_000;
const BOUNDARY = 'markwrightloadboundary';
const SETTLE_TIMEOUT_MS = 120_000;
const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

/** User + system CPU of a process and all its threads so far, in ms (0 once it is gone). */
function cpuMsOf(pid: number | undefined): number {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** CPU per process group (gateway, converter, postgres, echo) over `run`, per answered request. */
async function withCpu(groups: Record<string, () => Promise<number[]>>, run: () => Promise<Figures>): Promise<Figures> {
  const total = async (pids: () => Promise<number[]>) => (await pids()).reduce((sum, pid) => sum + cpuMsOf(pid), 0);
  const before: Record<string, number> = {};
  for (const [name, pids] of Object.entries(groups)) before[name] = await total(pids);
  const figures = await run();
  const perRequest: Record<string, number> = {};
  for (const [name, pids] of Object.entries(groups)) {
    perRequest[name] = ((await total(pids)) - before[name]!) / Math.max(figures.ok, 1);
  }
  return { ...figures, cpuMsPerRequest: perRequest };
}

interface Figures {
  /** CPU milliseconds per answered request, by process. */
  cpuMsPerRequest?: Record<string, number>;
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
}

function multipartTextBody(bytes: number): Buffer {
  const line = 'The quick brown fox jumps over the lazy dog. ';
  const text = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="load.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${text}\r\n--${BOUNDARY}--\r\n`,
  );
}

async function hit(
  url: string,
  connections: number,
  options: { method: 'GET' | 'POST'; body?: Buffer; headers: Record<string, string> },
): Promise<Figures> {
  const result = await autocannon({
    url,
    connections,
    duration: DURATION_S,
    method: options.method,
    body: options.body,
    headers: options.headers,
    timeout: 60,
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

function spawnService(root: string, file: string, env: NodeJS.ProcessEnv): ChildProcess {
  const flags = (process.env.LOAD_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...flags, '--import', 'tsx', file], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function waitReady(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready`);
}

async function startEcho(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawnService(ROOT, path.join(__dirname, 'echo-server.ts'), process.env);
  const port = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', () => reject(new Error('echo server exited')));
  });
  return { url: `http://127.0.0.1:${port}/api/v1`, child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Sum of the ledger = balance; every conversion charged once; one refund per failed one, none otherwise. */
async function checkLedger(db: Db, workspaceId: string): Promise<string[]> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const open = await db.conversion.count({ where: { workspaceId, status: { in: ['pending', 'processing'] } } });
    if (open === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const problems: string[] = [];
  const [{ balance, ledger }] = await db.$queryRaw<[{ balance: number; ledger: number }]>`
    SELECT w.credit_balance AS balance,
           (SELECT coalesce(sum(amount), 0)::int FROM credit_transactions WHERE workspace_id = w.id) AS ledger
    FROM workspaces w WHERE id = ${workspaceId}::uuid`;
  if (balance !== ledger) problems.push(`balance ${balance} != ledger sum ${ledger}`);
  const rows = await db.$queryRaw<{ status: string; charges: number; refunds: number; conversions: number }[]>`
    SELECT c.status,
           count(*) FILTER (WHERE t.type = 'charge')::int AS charges,
           count(*) FILTER (WHERE t.type = 'refund')::int AS refunds,
           count(DISTINCT c.id)::int AS conversions
    FROM conversions c LEFT JOIN credit_transactions t ON t.conversion_id = c.id
    WHERE c.workspace_id = ${workspaceId}::uuid GROUP BY c.status`;
  for (const r of rows) {
    if (r.charges !== r.conversions) problems.push(`${r.status}: ${r.charges} charges for ${r.conversions}`);
    const refunds = r.status === 'failed' ? r.conversions : 0;
    if (r.refunds !== refunds) problems.push(`${r.status}: ${r.refunds} refunds, expected ${refunds}`);
    if (r.status === 'pending' || r.status === 'processing') problems.push(`${r.conversions} still ${r.status}`);
  }
  const summary = rows.map((r) => `${r.status} ${r.conversions}`).join(', ');
  process.stdout.write(`\nLedger: balance ${balance}, ledger sum ${ledger}; ${summary}\n`);
  return problems;
}

function fmt(f: Figures): string {
  const cpu = Object.entries(f.cpuMsPerRequest ?? {})
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ');
  return (
    `${f.reqPerSec.toFixed(1)} req/s | p50 ${f.p50} ms | p99 ${f.p99} ms | errors ${f.errors}` +
    (cpu ? ` | CPU ms/request: ${cpu}` : '')
  );
}

interface Target {
  name: string;
  url: string;
  db: Db;
  workspaceId: string;
  token: string;
  env?: TestEnv;
  /** Process groups whose CPU is counted per request (none for LOAD_BASE_URL). */
  cpu: Record<string, () => Promise<number[]>>;
}

/** The gateway and a converter of the checkout at `root`, on a database and queue prefix of their own. */
async function startTarget(name: string, root: string, children: ChildProcess[]): Promise<Target> {
  const env = await createTestEnv();
  const port = 18_000 + Math.floor(Math.random() * 2000);
  const vars = {
    ...process.env,
    DATABASE_URL: env.config.DATABASE_URL,
    QUEUE_PREFIX: env.prefix,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MULTIPLIER,
  };
  const gateway = spawnService(root, 'services/gateway/src/entry-points/main.ts', vars);
  const converter = spawnService(root, 'services/converter/src/entry-points/main.ts', vars);
  children.push(gateway, converter);
  await waitReady(`http://127.0.0.1:${port}/readyz`);
  const target = await withWorkspace(name, `http://127.0.0.1:${port}/api/v1`, env.config.DATABASE_URL);
  const backends = async () =>
    (
      await target.db.$queryRaw<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
    ).map((r) => r.pid);
  const cpu = {
    gateway: async () => [gateway.pid!],
    converter: async () => [converter.pid!],
    postgres: backends,
  };
  return { ...target, env, cpu };
}

async function withWorkspace(name: string, url: string, databaseUrl: string): Promise<Target> {
  const db = createDb(databaseUrl, 2);
  const ws = await createWorkspace(db, { name: `load-${name}`, plan: 'business', credits: CREDITS });
  return { name, url, db, ...ws, cpu: {} };
}

function postOf(target: Target) {
  return {
    method: 'POST' as const,
    body: multipartTextBody(1024),
    headers: {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      authorization: `Bearer ${target.token}`,
    },
  };
}

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  const targets: Target[] = [];
  try {
    if (process.env.LOAD_BASE_URL) {
      targets.push(await withWorkspace('markwright', process.env.LOAD_BASE_URL, process.env.DATABASE_URL ?? ''));
    } else {
      targets.push(await startTarget('markwright', ROOT, children));
    }
    // LOAD_COMPARE_ROOT: another checkout (e.g. main before a change) measured in the same run.
    if (process.env.LOAD_COMPARE_ROOT) {
      targets.push(await startTarget('compare', process.env.LOAD_COMPARE_ROOT, children));
    }
    const echo = await startEcho();
    children.push(echo.child);
    const echoPost = postOf(targets[0]!);
    // Warm everything (JIT, pools, the converter's worker) before measuring.
    await hit(`${echo.url}/convert`, 4, echoPost);
    for (const t of targets) await hit(`${t.url}/convert`, 4, postOf(t));

    const rows: Record<string, unknown>[] = [];
    process.stdout.write(`\nSync 1 KB .txt, ${DURATION_S} s per run\n`);
    for (const c of CONNECTIONS) {
      const e = await withCpu({ echo: async () => [echo.child.pid!] }, () => hit(`${echo.url}/convert`, c, echoPost));
      process.stdout.write(`  ${String(c).padStart(2)} conn  echo       ${fmt(e)}\n`);
      for (const t of targets) {
        const m = await withCpu(t.cpu, () => hit(`${t.url}/convert`, c, postOf(t)));
        const ratio = m.reqPerSec / e.reqPerSec;
        const p99x = m.p99 / Math.max(e.p99, 1);
        process.stdout.write(
          `          ${t.name.padEnd(10)} ${fmt(m)}\n` +
            `          ${''.padEnd(10)} ratio ${ratio.toFixed(3)} (target ≥ 0.30), p99 ${p99x.toFixed(1)}× (target ≤ 2×)\n`,
        );
        rows.push({ path: 'sync 1KB txt', target: t.name, connections: c, result: m, echo: e, ratio, p99Ratio: p99x });
      }
    }

    if (WITH_READS) process.stdout.write(`\nReads\n`);
    for (const c of WITH_READS ? [1, 16] : []) {
      for (const t of targets) {
        const get = { method: 'GET' as const, headers: { authorization: `Bearer ${t.token}` } };
        const listed = (await (await fetch(`${t.url}/conversions?per_page=1`, get)).json()) as {
          data: { id: string }[];
        };
        const one = listed.data[0]?.id;
        const e = await hit(`${echo.url}/conversions/${one}`, c, get);
        const d = await hit(`${t.url}/conversions/${one}`, c, get);
        const l = await hit(`${t.url}/conversions?per_page=20`, c, get);
        process.stdout.write(
          `  ${String(c).padStart(2)} conn  ${t.name.padEnd(10)} GET /conversions/{id} ${fmt(d)}\n` +
            `          ${''.padEnd(10)} GET /conversions      ${fmt(l)}\n` +
            `          ${''.padEnd(10)} echo GET              ${fmt(e)}\n`,
        );
        rows.push({ path: 'reads', target: t.name, connections: c, detail: d, list: l, echo: e });
      }
    }

    let ledgerOk = true;
    for (const t of targets) {
      process.stdout.write(`\n${t.name}:`);
      const problems = await checkLedger(t.db, t.workspaceId);
      process.stdout.write(problems.length ? `Ledger problems:\n  ${problems.join('\n  ')}\n` : 'Ledger reconciles.\n');
      ledgerOk &&= problems.length === 0;
    }
    process.stdout.write(`\n${JSON.stringify({ date: new Date().toISOString(), rows, ledgerOk })}\n`);
    if (!ledgerOk) process.exitCode = 1;
  } finally {
    for (const child of children.reverse()) await stop(child);
    for (const t of targets) {
      await t.db.$disconnect();
      await t.env?.cleanup();
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
