import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createDb } from '@markwright/db';
import { createWorkspace } from '../services/gateway/src/domain/workspaces';

/**
 * `tsx bench/sync-profile.ts`: the built services started as `pnpm start` starts them (node
 * dist/main.js, default settings, Redis rate limits on), on a database, a RabbitMQ vhost and
 * ports of their own, then sync 1 KB `.txt` conversions at each of `PROFILE_CONNECTIONS`
 * (default 16,64), `PROFILE_REQUESTS` requests each (default 3000) spread over
 * `PROFILE_WORKSPACES` business workspaces (default 64, as ../shared/perf does). Prints, per
 * level, the CPU time per answered request of each process (/proc, all threads) and PostgreSQL
 * commits per request, with the load average. Not a test and not a throughput figure: on a
 * shared machine CPU per request is what moves least.
 *
 *   PROFILE_NODE_OPTIONS  flags for the gateway and converter, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 *   PROFILE_PORT          the gateway's port (default 18480; the converter and dispatcher take +1, +2)
 *   PROFILE_NAME          database and vhost name (default markwright_syncprofile)
 *   PROFILE_ROOT          another built checkout whose services are measured instead (e.g. main, for a before/after)
 *   PROFILE_ECHO=1        also runs the bare Express + multer echo (bench/echo-server.ts) before each level, with the
 *                         same body and connections for PROFILE_ECHO_SECONDS (default 5), and prints the req/s and
 *                         p99 ratios of that pair
 *   PROFILE_ROUNDS        runs each level this many times, alternating with the echo (default 1)
 *   PROFILE_TAIL=N        after each level's run, N runs shaped as ../shared/perf's (PROFILE_TAIL_AMOUNT requests,
 *                         default 916, each connection's first answer and the drain left out), each printed with its
 *                         p50/p99 from per-response times, the longest gap between two answers (a stall of the
 *                         whole path) and when the slowest 1% finished
 *   PROFILE_LOG_DIR       the services' stdout (their log lines, and e.g. --trace-gc) goes to files there
 *   PROFILE_STALLS=1      the gateway and the converter load bench/sync-stall-probe.cjs; after each run, per process,
 *                         its GC pauses by kind and its event-loop blocks (a 2 ms timer over 10 ms late) during the
 *                         run: count per 1,000 answered requests, total and longest (deterministic where latency is not)
 *
 * The broker's CPU per request is printed too, read from its beam.smp process: RabbitMQ is
 * shared with whatever else runs on the machine, so that column is an upper bound.
 */
const ROOT = process.env.PROFILE_ROOT ? path.resolve(process.env.PROFILE_ROOT) : path.join(__dirname, '..');
const NAME = process.env.PROFILE_NAME ?? 'markwright_syncprofile';
const PORT = Number(process.env.PROFILE_PORT ?? 18480);
const LEVELS = (process.env.PROFILE_CONNECTIONS ?? '16,64').split(',').map(Number);
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 3000);
const WORKSPACES = Number(process.env.PROFILE_WORKSPACES ?? 64);
const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE_URL = `postgresql://postgres@127.0.0.1:5432/${NAME}`;
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);
const BOUNDARY = 'markwrightprofileboundary';
const ECHO = process.env.PROFILE_ECHO === '1';
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 1);
const ECHO_SECONDS = Number(process.env.PROFILE_ECHO_SECONDS ?? 5);
const TAIL_RUNS = Number(process.env.PROFILE_TAIL ?? 0);
const TAIL_AMOUNT = Number(process.env.PROFILE_TAIL_AMOUNT ?? 916);
const LOG_DIR = process.env.PROFILE_LOG_DIR;
const STALLS = process.env.PROFILE_STALLS === '1';
const PROBE_DIR = STALLS ? mkdtempSync(path.join(tmpdir(), 'sync-stalls-')) : undefined;
/** An event-loop block worth counting: a request held this long is in the tail at 64 connections. */
const BLOCK_MS = 10;

/** GC pauses and event-loop blocks of one process between two wall-clock times, per 1,000 answered requests. */
function stallsOf(name: string, pid: number, from: number, to: number, answered: number): string {
  let lines: string[];
  try {
    lines = readFileSync(path.join(PROBE_DIR!, `${name}-${pid}.probe`), 'utf8').split('\n');
  } catch {
    return `${name}: no probe file`;
  }
  const by = new Map<string, number[]>();
  for (const line of lines) {
    const [what, kind, at, ms] = line.split(' ');
    const t = Number(what === 'lag' ? kind : at);
    const length = Number(what === 'lag' ? at : ms);
    if (!(t >= from && t <= to)) continue;
    if (what === 'lag' && length <= BLOCK_MS) continue;
    const key = what === 'lag' ? `blocks>${BLOCK_MS}ms` : kind!;
    by.set(key, [...(by.get(key) ?? []), length]);
  }
  const per = 1000 / Math.max(answered, 1);
  const parts = [...by].map(
    ([k, v]) =>
      `${k} ${v.length} (${(v.length * per).toFixed(1)}/1k, ${v.reduce((s, x) => s + x, 0).toFixed(0)} ms, max ${Math.max(...v).toFixed(1)})`,
  );
  return `${name}: ${parts.join(', ') || 'none'}`;
}

function brokerPid(): number | undefined {
  try {
    return Number(execFileSync('pgrep', ['-o', 'beam.smp']).toString().trim()) || undefined;
  } catch {
    return undefined;
  }
}

async function startEcho(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'echo-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', () => reject(new Error('echo server exited')));
  });
  return { url: `http://127.0.0.1:${port}/api/v1`, child };
}

function cpuMs(pid: number, only?: 'system'): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = only === 'system' ? Number(fields[12]) : Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / TICKS;
  } catch {
    return 0;
  }
}

/**
 * Wake-ups of a process (all threads): voluntary context switches (it slept waiting for I/O or a
 * lock) and read/write system calls. Each is a hop where a request may wait for a core, so per
 * request they say how often the path is exposed to scheduling, whatever the load.
 */
function wakeUps(pid: number): { switches: number; syscalls: number } {
  let switches = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      switches += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    }
  } catch {
    /* gone */
  }
  let syscalls = 0;
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    syscalls = Number(/^syscr: (\d+)/m.exec(io)?.[1] ?? 0) + Number(/^syscw: (\d+)/m.exec(io)?.[1] ?? 0);
  } catch {
    /* not readable */
  }
  return { switches, syscalls };
}

const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function psql(sql: string, url = ADMIN_URL): string {
  return execFileSync('psql', ['-qAt', url, '-c', sql]).toString().trim();
}

function rabbit(...args: string[]): void {
  execFileSync('rabbitmqctl', ['-q', ...args], { stdio: 'ignore', timeout: 30_000 });
}

async function waitOk(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer 200`);
}

function body(): Buffer {
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1024);
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${text}\r\n--${BOUNDARY}--\r\n`,
  );
}

/**
 * `amount` POSTs over `connections` (or, with `amount` 0, as many as `ECHO_SECONDS` allow: the echo
 * answers thousands a second, so a fixed count would end before its per-second figures settle),
 * each connection with its own workspace's token in turn.
 */
async function cannon(url: string, connections: number, amount: number, tokens: string[]) {
  let next = 0;
  const result = await autocannon({
    url: `${url}/convert`,
    connections,
    ...(amount > 0 ? { amount } : { duration: ECHO_SECONDS }),
    method: 'POST',
    body: body(),
    timeout: 60,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    setupClient: (client) => {
      const token = tokens[next++ % tokens.length]!;
      client.setHeaders({
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        authorization: `Bearer ${token}`,
      });
    },
  });
  return result;
}

const pct = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

/**
 * One run shaped as ../shared/perf's gateway runs: `amount` requests, per-response times, each
 * connection's first answer (its TCP connect) and the drain (answers after the first connection
 * used its share) left out. Also the longest gap between two answers, and when (ms from the start)
 * the slowest 1% finished: bunched together they are a stall of the whole path, spread out a queue.
 */
async function tailRun(url: string, connections: number, amount: number, tokens: string[]): Promise<string> {
  let next = 0;
  const t0 = performance.now();
  const seen = new Map<unknown, number>();
  const quota = Math.floor(amount / connections);
  let drained = false;
  const answers: { at: number; ms: number }[] = [];
  let last = t0;
  let gap = 0;
  let gapAt = 0;
  let finish!: (err: Error | null) => void;
  const ended = new Promise<void>((resolve, reject) => (finish = (err) => (err ? reject(err) : resolve())));
  const instance = autocannon(
    {
      url: `${url}/convert`,
      connections,
      amount,
      method: 'POST',
      body: body(),
      timeout: 60,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]!}` },
          }),
        },
      ],
    },
    (err) => finish(err ?? null),
  );
  instance.on('response', (client: unknown, status: number, _bytes: number, responseTime: number) => {
    const t = performance.now();
    const k = (seen.get(client) ?? 0) + 1;
    seen.set(client, k);
    if (drained || status < 200 || status >= 300) return;
    if (k > 1) {
      answers.push({ at: t - t0, ms: responseTime });
      if (t - last > gap) [gap, gapAt] = [t - last, last - t0];
    }
    last = t;
    if (k >= quota) drained = true;
  });
  await ended;
  const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
  const p99 = pct(sorted, 99);
  const slow = answers.filter((a) => a.ms >= p99).map((a) => Math.round(a.at));
  return (
    `p50 ${pct(sorted, 50).toFixed(1)} p99 ${p99.toFixed(1)} max ${sorted.at(-1)?.toFixed(1)} ms over ${sorted.length}; ` +
    `longest gap ${gap.toFixed(1)} ms at ${Math.round(gapAt)}; slowest 1% ended at ${slow.join(' ')} ms`
  );
}

function stallLines(children: Record<string, ChildProcess>, from: number, to: number, answered: number): string {
  if (!STALLS) return '';
  const of = (name: string) => stallsOf(name, children[name]!.pid!, from, to, answered);
  return `     stalls: ${of('gateway')}; ${of('converter')}\n`;
}

async function main(): Promise<void> {
  psql(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  psql(`CREATE DATABASE ${NAME}`);
  try {
    rabbit('delete_vhost', NAME);
  } catch {
    /* not there */
  }
  rabbit('add_vhost', NAME);
  rabbit('set_permissions', '-p', NAME, 'guest', '.*', '.*', '.*');
  const env = {
    ...process.env,
    DATABASE_URL,
    AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${NAME}`,
    PORT: String(PORT),
    SYNC_TIMEOUT_MS: '60000',
  };
  execFileSync(process.execPath, [path.join(ROOT, 'packages/db/dist/migrate.js')], { env, stdio: 'ignore' });
  const flags = (process.env.PROFILE_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const children: Record<string, ChildProcess> = {};
  for (const [i, name] of ['gateway', 'converter', 'dispatcher'].entries()) {
    const file = path.join(ROOT, 'services', name, 'dist', 'main.js');
    const probe = STALLS ? ['--require', path.join(__dirname, 'sync-stall-probe.cjs')] : [];
    const own = name === 'dispatcher' ? [] : [...probe, ...flags];
    const out = LOG_DIR ? openSync(path.join(LOG_DIR, `${name}.log`), 'w') : 'ignore';
    children[name] = spawn(process.execPath, [...own, file], {
      env: { ...env, ...(i ? { HEALTH_PORT: String(PORT + i) } : {}), ...(PROBE_DIR ? { PROBE_DIR } : {}) },
      stdio: ['ignore', out, 'inherit'],
    });
  }
  const db = createDb(DATABASE_URL, 2);
  const echo = ECHO ? await startEcho() : undefined;
  if (echo) children.echo = echo.child;
  try {
    await waitOk(`http://127.0.0.1:${PORT}/readyz`);
    await waitOk(`http://127.0.0.1:${PORT + 1}/readyz`);
    const tokens: string[] = [];
    for (let i = 0; i < WORKSPACES; i++) {
      const ws = await createWorkspace(db, { name: `profile-${i}`, plan: 'business', credits: 1_000_000 });
      tokens.push(ws.token);
    }
    const url = `http://127.0.0.1:${PORT}/api/v1`;
    await cannon(url, 8, 200, tokens);
    if (echo) await cannon(echo.url, 8, 200, tokens);
    const broker = brokerPid();
    const backends = () =>
      psql(`SELECT pid FROM pg_stat_activity WHERE datname = '${NAME}'`).split('\n').filter(Boolean).map(Number);
    const commits = () => Number(psql(`SELECT xact_commit FROM pg_stat_database WHERE datname = '${NAME}'`));
    for (const c of LEVELS.flatMap((level) => Array<number>(ROUNDS).fill(level))) {
      const groups: Record<string, () => number[]> = {
        gateway: () => [children.gateway!.pid!],
        converter: () => [children.converter!.pid!],
        dispatcher: () => [children.dispatcher!.pid!],
        postgres: backends,
        ...(broker ? { rabbitmq: () => [broker] } : {}),
      };
      let echoLine = '';
      let echoResult: autocannon.Result | undefined;
      if (echo) {
        const e0 = cpuMs(echo.child.pid!);
        echoResult = await cannon(echo.url, c, 0, tokens);
        const perEcho = (cpuMs(echo.child.pid!) - e0) / Math.max(echoResult['2xx'], 1);
        echoLine =
          `     echo: ${echoResult.requests.average.toFixed(0)} req/s, p50 ${echoResult.latency.p50} ms, ` +
          `p99 ${echoResult.latency.p99} ms, CPU ms/request ${perEcho.toFixed(2)}\n`;
      }
      const before = Object.fromEntries(
        Object.entries(groups).map(([k, f]) => [k, f().reduce((s, p) => s + cpuMs(p), 0)]),
      );
      const systemBefore = Object.fromEntries(
        Object.entries(groups).map(([k, f]) => [k, f().reduce((s, p) => s + cpuMs(p, 'system'), 0)]),
      );
      const wakeBefore = Object.fromEntries(
        (['gateway', 'converter'] as const).map((k) => [k, wakeUps(children[k]!.pid!)]),
      );
      const commitsBefore = commits();
      const load0 = loadavg();
      const started = Date.now();
      const r = await cannon(url, c, REQUESTS, tokens);
      const ended = Date.now();
      const ok = r['2xx'];
      const per = Object.entries(groups)
        .map(([k, f]) => `${k} ${((f().reduce((s, p) => s + cpuMs(p), 0) - before[k]!) / Math.max(ok, 1)).toFixed(2)}`)
        .join(', ');
      // Kernel time (syscalls, wake-ups) is part of the above; shown apart, it tells waking from working.
      const system = Object.entries(groups)
        .map(([k, f]) => {
          const ms = f().reduce((s, p) => s + cpuMs(p, 'system'), 0) - systemBefore[k]!;
          return `${k} ${(ms / Math.max(ok, 1)).toFixed(2)}`;
        })
        .join(', ');
      const wakes = (['gateway', 'converter'] as const)
        .map((k) => {
          const now = wakeUps(children[k]!.pid!);
          const n = Math.max(ok, 1);
          return `${k} ${((now.switches - wakeBefore[k]!.switches) / n).toFixed(2)} switches, ${((now.syscalls - wakeBefore[k]!.syscalls) / n).toFixed(2)} syscalls`;
        })
        .join('; ');
      // The counting statement itself commits once.
      const perCommit = ((commits() - commitsBefore - 1) / Math.max(ok, 1)).toFixed(2);
      process.stdout.write(
        `c${c}: ${ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors; ${r.requests.average.toFixed(0)} req/s, ` +
          `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms (load ${load0} → ${loadavg()})\n` +
          `     CPU ms/request: ${per}; PostgreSQL commits/request ${perCommit}\n` +
          `     of it in the kernel: ${system}\n` +
          `     wake-ups per request: ${wakes}\n` +
          echoLine +
          (echoResult
            ? `     ratio to the echo: req/s ${(r.requests.average / echoResult.requests.average).toFixed(3)}, ` +
              `p99 ${(r.latency.p99 / echoResult.latency.p99).toFixed(1)}x\n`
            : '') +
          stallLines(children, started, ended, ok),
      );
      for (let t = 0; t < TAIL_RUNS; t++) {
        const from = Date.now();
        const line = await tailRun(url, c, TAIL_AMOUNT, tokens);
        process.stdout.write(
          `     tail run ${t + 1}: ${line}\n${stallLines(children, from, Date.now(), TAIL_AMOUNT - c)}`,
        );
        if (echo) process.stdout.write(`       echo: ${await tailRun(echo.url, c, TAIL_AMOUNT, tokens)}\n`);
      }
    }
  } finally {
    await db.$disconnect();
    for (const child of Object.values(children)) child.kill('SIGTERM');
    await Promise.all(
      Object.values(children).map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))),
    );
    try {
      rabbit('delete_vhost', NAME);
    } catch {
      /* best effort */
    }
    psql(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
