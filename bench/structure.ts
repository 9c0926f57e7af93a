import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeConversionWorkers, convertIsolated, type ConvertDocumentOptions } from '../packages/conversion/src';
import { benchCases } from '../packages/conversion/bench/documents';
import { pdf as makePdf } from '../packages/conversion/bench/native';

/** Measurements per side (median kept), each side interleaved with the other; a measurement is 1-20 runs in a row. */
const REPEATS = Number(process.env.BENCH_STRUCTURE_REPEATS ?? 7);
/**
 * Untimed runs of each side on every worker before timing. One was too few: V8 compiles a path's
 * functions after several runs of it (a 1- or 10-page PDF runs each function a few times per
 * conversion), and until then each run also pays the compiler's threads. The timed runs then fell
 * while that side was still being compiled: after one warm-up run, pages+chunks of the 1- and 10-page
 * PDFs read 1.5x plain at 7 repeats (the lead's quiet run), while warm they cost 1.01x (instructions,
 * in-process): docs/performance.md, helper structpdf.
 */
const WARM_RUNS = Number(process.env.BENCH_STRUCTURE_WARM_RUNS ?? 8);
/** Cases of packages/conversion/bench/documents.ts measured (OCR and speech left out: their cost is the engine's). */
const CASES = (process.env.BENCH_STRUCTURE_CASES ?? 'pdf 200 pages,docx,xlsx,pptx,epub,html').split(',');
/**
 * A folder made by ../shared/perf's generator (`node ../shared/perf/lib/gen-docs.mjs DIR`): its
 * documents are measured instead of the cases above, those issue 19's target names.
 */
const PERF_DOCS = process.env.BENCH_STRUCTURE_PERF_DOCS;
/** The perf harness's documents measured, by the names its manifest gives them. */
const PERF_NAMES = ['pdf-1p', 'pdf-10p', 'pdf-100p', 'docx-10p', 'docx-100p', 'xlsx-10k', 'html-1mb'];
/** Skip the page_range line (BENCH_STRUCTURE_RANGE=false) or measure only it (=only). */
const RANGE = process.env.BENCH_STRUCTURE_RANGE ?? 'true';
/** As the converter service runs its pool (kept workers, whose tools go through a spawner). */
const LIMITS = { timeoutMs: 600_000, maxMemoryMb: 2048, keepIdleWorkers: true };
const STRUCTURE: Partial<ConvertDocumentOptions> = { includePages: true, chunkMaxTokens: 512 };
/** Workers the pool runs at most (isolated-convert.ts): each is warmed with the tokenizer before timing. */
const POOL_WORKERS = Math.max(2, os.availableParallelism());

/**
 * E1–E4's cost (issue 19, "Speed"), as ratios in the same run: a conversion with pages and chunks
 * (512 tokens) against the same conversion without them, per document (target ≤ 1.10×); and
 * page_range=1-2 of a 100-page PDF against the whole file (target ≤ 0.1×). In CPU time, which the
 * machine's load disturbs far less than wall time: this process's (the pool's worker threads are
 * in it) and its children's (pdftohtml, the workers' tool spawners). Runs interleaved (ABAB, BABA),
 * medians, on a warm pool: every worker has read the document WARM_RUNS times with each side and
 * loaded the tokenizer before timing starts
 * (a fresh worker pays the tokenizer's load once, ~0.45 s CPU: docs/performance.md).
 */
export async function runStructureBench(): Promise<string> {
  const rows = [
    '| document | plain CPU ms | pages+chunks CPU ms | ratio (CPU) | plain wall ms | pages+chunks wall ms |',
    '|---|---|---|---|---|---|',
  ];
  try {
    const cases =
      RANGE === 'only'
        ? []
        : PERF_DOCS
          ? perfCases(PERF_DOCS)
          : benchCases.filter((c) => CASES.some((name) => c.label.includes(name)));
    for (const c of cases) {
      const input = await c.make();
      const plain = (): Promise<unknown> => convertIsolated(input, c.ext, { enhanced: false }, LIMITS);
      const structured = (): Promise<unknown> =>
        convertIsolated(input, c.ext, { enhanced: false, ...STRUCTURE }, LIMITS);
      await warmEveryWorker(WARM_RUNS, plain, structured);
      const [a, b] = await interleaved(plain, structured);
      rows.push(
        `| ${c.label} | ${a.cpu.toFixed(0)} | ${b.cpu.toFixed(0)} | ${(b.cpu / a.cpu).toFixed(2)}× | ${a.wall.toFixed(0)} | ${b.wall.toFixed(0)} |`,
      );
      process.stderr.write(`structure: ${c.label} done\n`);
    }
    if (RANGE === 'false')
      return `Pages and chunks (chunk_max_tokens=512) against the same conversion without them: CPU time (own: median of ${REPEATS} measurements of ${MEASURED_CPU_MS}+ ms of runs in a row; children: mean), interleaved, pool warmed with ${WARM_RUNS} runs of each side; target ≤ 1.10×:\n\n${rows.join('\n')}\n`;
    const hundred = PERF_DOCS ? fs.readFileSync(path.join(PERF_DOCS, 'pdf-100p.pdf')) : await makePdf(100);
    const whole = (): Promise<unknown> => convertIsolated(hundred, 'pdf', { enhanced: false }, LIMITS);
    const two = (): Promise<unknown> =>
      convertIsolated(hundred, 'pdf', { enhanced: false, pageRange: [[1, 2]] }, LIMITS);
    await warmEveryWorker(WARM_RUNS, whole, two);
    const [w, t] = await interleaved(whole, two);
    return (
      `Pages and chunks (chunk_max_tokens=512) against the same conversion without them: CPU time (this process with its worker threads: median of ${REPEATS} measurements of ${MEASURED_CPU_MS}+ ms of runs in a row; plus its children: mean), interleaved, pool warmed with ${WARM_RUNS} runs of each side; target ≤ 1.10×:\n\n${rows.join('\n')}\n\n` +
      `page_range=1-2 of a 100-page PDF against the whole file: ${t.cpu.toFixed(0)} ms / ${w.cpu.toFixed(0)} ms CPU = ${(t.cpu / w.cpu).toFixed(3)}× (target ≤ 0.1×)\n`
    );
  } finally {
    await closeConversionWorkers();
  }
}

/** The perf harness's documents in `dir`, named as its manifest names them. */
function perfCases(dir: string): Array<{ label: string; ext: string; make: () => Promise<Buffer> }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string }
  >;
  return PERF_NAMES.filter((name) => manifest[name]).map((name) => {
    const file = manifest[name]!.file;
    return { label: `perf ${name}`, ext: path.extname(file).slice(1), make: async () => fs.readFileSync(file) };
  });
}

/** `runs` runs of each side on every worker of the pool at once (the pool gives concurrent tasks to different workers). */
async function warmEveryWorker(runs: number, ...sides: Array<() => Promise<unknown>>): Promise<void> {
  for (let i = 0; i < runs; i++)
    for (const side of sides) await Promise.all(Array.from({ length: POOL_WORKERS }, () => side()));
}

interface Cost {
  /** This process's CPU ms. */
  cpu: number;
  /** Its children's CPU ms (those waited for and those running, with theirs), in 10 ms ticks. */
  children: number;
  wall: number;
}

/** Medians of two sides' costs, run turn about (ABAB, then BABA). */
async function interleaved(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[{ cpu: number; wall: number }, { cpu: number; wall: number }]> {
  const ta: Cost[] = [];
  const tb: Cost[] = [];
  const runs = await runsPerMeasurement(a);
  for (let i = 0; i < REPEATS; i++) {
    const order =
      i % 2 === 0
        ? ([
            [a, ta],
            [b, tb],
          ] as const)
        : ([
            [b, tb],
            [a, ta],
          ] as const);
    for (const [fn, out] of order) out.push(await costOf(fn, runs));
  }
  return [medianCost(ta), medianCost(tb)];
}

/** CPU ms a measurement spans at least: children are counted in 10 ms ticks, each process's apart. */
const MEASURED_CPU_MS = 150;
const MAX_RUNS_PER_MEASUREMENT = 20;

/**
 * Runs per measurement, so that one spans MEASURED_CPU_MS or more: a 1-page PDF's 8 ms pdftohtml
 * read as 0 or 10 ms, and the spawner's and the process's ticks each added such an error, which a
 * mean of 7 did not smooth out. Decided from one run of `side` (the cheaper side, plain).
 */
async function runsPerMeasurement(side: () => Promise<unknown>): Promise<number> {
  const { cpu, children } = await costOf(side, 1);
  return Math.min(MAX_RUNS_PER_MEASUREMENT, Math.max(1, Math.ceil(MEASURED_CPU_MS / Math.max(1, cpu + children))));
}

/** What one run of `fn` costs, averaged over `runs` runs in a row. */
async function costOf(fn: () => Promise<unknown>, runs: number): Promise<Cost> {
  // The children are read outside this process's own window: scanning /proc costs CPU too.
  const children = childrenCpuMs();
  const own = ownCpuMs();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const wall = performance.now() - started;
  const ownAfter = ownCpuMs();
  return { cpu: (ownAfter - own) / runs, children: (childrenCpuMs() - children) / runs, wall: wall / runs };
}

/** CPU ms of this process (every thread). */
function ownCpuMs(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000;
}

/**
 * CPU ms of this process's children: those waited for (pdftohtml run by the converter's first
 * read, pdftoppm) and those still running, with what they waited for: a worker's tool spawner
 * (readers/pdf/tool-runner.ts) lives as long as its worker, and runs pdftohtml itself.
 */
function childrenCpuMs(): number {
  const [ended] = statTimes('self');
  let ticks = ended;
  const self = process.pid;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === self) continue;
    const [, times, parent] = statTimes(entry);
    if (parent === self) ticks += times;
  }
  return ticks * (1000 / CLOCK_TICKS);
}

/**
 * From /proc/PID/stat, in clock ticks: the children waited for (cutime + cstime), the process's own
 * and its children's together (utime + stime + cutime + cstime), and its parent's pid. Fields after
 * the command's ')': ppid is the 2nd, utime..cstime the 12th to 15th. [0, 0, 0] for a process gone.
 */
function statTimes(pid: string): [number, number, number] {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return [0, 0, 0];
  }
  const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const waited = Number(f[13]) + Number(f[14]);
  return [waited, Number(f[11]) + Number(f[12]) + waited, Number(f[1])];
}

/** sysconf(_SC_CLK_TCK) on Linux. */
const CLOCK_TICKS = 100;

/**
 * The median of the process's own CPU plus the mean of its children's: the kernel reports
 * children's CPU in whole 10 ms ticks, so a 7 ms pdftohtml reads as 0 or 10 in each run and a
 * median of those is off by up to a tick (it made page_range's 2 pages read 0.15x or 0.09x from
 * one run to the next); the mean over the runs is not.
 */
function medianCost(costs: Cost[]): { cpu: number; wall: number } {
  return {
    cpu: median(costs.map((c) => c.cpu)) + mean(costs.map((c) => c.children)),
    wall: median(costs.map((c) => c.wall)),
  };
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}
