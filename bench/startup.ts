import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestEnv } from '@markwright/test-support';

/**
 * `pnpm bench startup`: what the compiled build changes, before (TypeScript run by tsx from
 * sources) and after (plain node on the build) in the same run: `convert` of a 1 KB .txt end to
 * end, the time from start to all three services answering /readyz, and each service's idle RSS.
 */
const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
/** Each stack is started this many times, alternating sources and build; medians are reported. */
const STACK_RUNS = Number(process.env.BENCH_STARTUP_STACK_RUNS ?? 3);
const SERVICES = ['gateway', 'converter', 'dispatcher'] as const;
const READY_DEADLINE_MS = 180_000;
/** Idle means: ready, then left alone this long before RSS is read. */
const SETTLE_MS = 3_000;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function timed(command: string, args: string[]): number {
  const started = performance.now();
  execFileSync(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return performance.now() - started;
}

async function convertFigures(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-startup-'));
  const file = path.join(dir, 'note.txt');
  fs.writeFileSync(file, 'Markwright turns documents into Markdown. '.repeat(24).slice(0, 1024));
  const ways: { label: string; command: string; args: string[] }[] = [
    {
      label: '`pnpm convert` before (pnpm + tsx from sources)',
      command: 'pnpm',
      args: ['--silent', 'exec', 'tsx', 'packages/conversion/src/cli/convert.ts', file],
    },
    {
      label: 'tsx from sources, no pnpm',
      command: path.join(BIN, 'tsx'),
      args: ['packages/conversion/src/cli/convert.ts', file],
    },
    { label: '`pnpm convert` after (pnpm + markwright)', command: 'pnpm', args: ['--silent', 'convert', file] },
    {
      label: '`markwright convert` (node on the build)',
      command: path.join(BIN, 'markwright'),
      args: ['convert', file],
    },
  ];
  timed(path.join(BIN, 'markwright'), ['convert', file]); // builds if stale, outside the timings
  const times = ways.map(() => [] as number[]);
  for (let run = 0; run < RUNS; run++) {
    ways.forEach((way, i) => times[i]!.push(timed(way.command, way.args)));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const baseline = median(times[0]!);
  return ways.map(
    (way, i) =>
      `| ${way.label} | ${(median(times[i]!) / 1000).toFixed(2)} | ${(median(times[i]!) / baseline).toFixed(2)}× |`,
  );
}

interface StackRun {
  readyMs: number;
  rssMb: Record<(typeof SERVICES)[number], number>;
}

/** Resident memory of a process and all its descendants (tsx runs the service in a child node). */
function treeRssMb(rootPid: number): number {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  let total = 0;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    for (const [p, parent, rss] of table) {
      if (p === pid) total += rss;
      if (parent === pid) queue.push(p);
    }
  }
  return total / 1024;
}

/** The pid of the process whose command line runs the given built service, under `root`. */
function builtServicePid(name: string): number {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).trim().split('\n');
  const line = table.find((l) => l.includes(path.join(ROOT, 'services', name, 'dist', 'main.js')));
  if (!line) throw new Error(`${name} is not running`);
  return Number(line.trim().split(/\s+/)[0]);
}

async function allReady(ports: number[]): Promise<boolean> {
  const answers = await Promise.all(
    ports.map((port) =>
      fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      ),
    ),
  );
  return answers.every(Boolean);
}

function stop(child: ChildProcess): Promise<void> {
  const running = () => child.exitCode === null && child.signalCode === null;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone already
    }
  };
  return new Promise((resolve) => {
    if (!running()) return resolve();
    const killer = setTimeout(() => signalGroup('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    signalGroup('SIGTERM');
  });
}

async function runStack(mode: 'source' | 'build', basePort: number): Promise<StackRun> {
  // Its own database and queue prefix, dropped afterwards; both modes find the schema migrated.
  const testEnv = await createTestEnv();
  const env = {
    ...process.env,
    PORT: String(basePort),
    QUEUE_PREFIX: testEnv.prefix,
    DATABASE_URL: testEnv.config.DATABASE_URL,
    LOG_LEVEL: 'warn',
  };
  const ports = SERVICES.map((_, i) => basePort + i);
  const started = performance.now();
  const children: ChildProcess[] = [];
  const pids = {} as Record<(typeof SERVICES)[number], number>;
  if (mode === 'source') {
    // What `pnpm start` did before the build: migrations, then each service through tsx.
    execFileSync('pnpm', ['--silent', 'exec', 'tsx', 'packages/db/src/cli/migrate.ts'], {
      cwd: ROOT,
      env,
      stdio: 'ignore',
    });
    SERVICES.forEach((name, i) => {
      const child = spawn(path.join(BIN, 'tsx'), [`services/${name}/src/entry-points/main.ts`], {
        cwd: ROOT,
        env: { ...env, HEALTH_PORT: String(ports[i]) },
        stdio: 'ignore',
        detached: true,
      });
      children.push(child);
      pids[name] = child.pid!;
    });
  } else {
    children.push(spawn('pnpm', ['start'], { cwd: ROOT, env, stdio: 'ignore', detached: true }));
  }
  const deadline = Date.now() + READY_DEADLINE_MS;
  while (!(await allReady(ports))) {
    if (Date.now() > deadline) throw new Error(`the ${mode} stack was not ready in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const readyMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const rssMb = {} as StackRun['rssMb'];
  for (const name of SERVICES) rssMb[name] = treeRssMb(mode === 'source' ? pids[name] : builtServicePid(name));
  await Promise.all(children.map(stop));
  await testEnv.cleanup();
  return { readyMs, rssMb };
}

export async function runStartupBench(): Promise<string> {
  const convertRows = await convertFigures();
  execFileSync('node', ['scripts/build.js', '--if-stale'], { cwd: ROOT, stdio: 'ignore' });
  const sourceRuns: StackRun[] = [];
  const builtRuns: StackRun[] = [];
  for (let run = 0; run < STACK_RUNS; run++) {
    sourceRuns.push(await runStack('source', 18700));
    builtRuns.push(await runStack('build', 18710));
  }
  const medianRun = (runs: StackRun[]): StackRun => ({
    readyMs: median(runs.map((r) => r.readyMs)),
    rssMb: Object.fromEntries(
      SERVICES.map((name) => [name, median(runs.map((r) => r.rssMb[name]))]),
    ) as StackRun['rssMb'],
  });
  const source = medianRun(sourceRuns);
  const built = medianRun(builtRuns);
  const rows = [
    `| start to all three /readyz 200 | ${(source.readyMs / 1000).toFixed(2)} s | ${(built.readyMs / 1000).toFixed(2)} s | ${(built.readyMs / source.readyMs).toFixed(2)}× |`,
    ...SERVICES.map(
      (name) =>
        `| idle RSS ${name} | ${source.rssMb[name].toFixed(0)} MB | ${built.rssMb[name].toFixed(0)} MB | ${(built.rssMb[name] / source.rssMb[name]).toFixed(2)}× |`,
    ),
  ];
  return [
    `Startup: 1 KB .txt converted end to end, median of ${RUNS} runs each (ratio to the first line).`,
    '',
    '| way | time s | ÷ before |',
    '|---|---|---|',
    ...convertRows,
    '',
    `Services: tsx from sources (migrate, then three tsx processes) against \`pnpm start\` on the build, median of ${STACK_RUNS} starts each (RSS of the process tree).`,
    '',
    '| figure | tsx from sources | built | built ÷ sources |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
