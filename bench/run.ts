import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadLine, withLoadAverage, type LoadRecord } from './quiet-machine';

/**
 * `pnpm bench`: converts one large generated document per format, each in a fresh process
 * (so peak RSS is that conversion's), and reports time and memory as ratios against a baseline
 * measured in the same run: a plain-text document of the same size through the same path.
 * Other benches (bench/*.ts exporting `run()`) follow. Every section records the load average at
 * its start and end, and is marked as not counting when it ran on a busy machine (quiet-machine.ts).
 */
interface BenchCase {
  label: string;
  ext: string;
  make: () => Promise<Buffer>;
  /** Pages, rows, slides or seconds, to report per-unit figures. */
  units?: { count: number; name: string };
}

interface Measured {
  ms: number;
  peakRssMb: number;
  bytes: number;
  ok: boolean;
  error?: string;
}

const ROOT = path.join(__dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const RUNNER = path.join(__dirname, 'convert-one.ts');
const REPEATS = Number(process.env.BENCH_REPEATS ?? 1);

async function loadCases(filter?: string): Promise<BenchCase[]> {
  const dir = path.join(ROOT, 'packages', 'conversion', 'bench');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.ts')) : [];
  const cases: BenchCase[] = [];
  for (const file of files.sort()) {
    const mod = (await import(path.join(dir, file))) as { benchCases?: BenchCase[] };
    cases.push(...(mod.benchCases ?? []));
  }
  return filter ? cases.filter((c) => c.ext === filter || c.label.includes(filter)) : cases;
}

function measure(file: string, ext: string): Measured {
  const bytes = fs.statSync(file).size;
  let best: Measured | undefined;
  for (let i = 0; i < REPEATS; i++) {
    try {
      const out = execFileSync(TSX, [RUNNER, file, ext], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const m = JSON.parse(out.trim().split('\n').pop()!) as { ms: number; peakRssMb: number };
      if (!best || m.ms < best.ms) best = { ...m, bytes, ok: true };
    } catch (err) {
      const stderr = (err as { stderr?: string }).stderr ?? String(err);
      return { ms: 0, peakRssMb: 0, bytes, ok: false, error: stderr.trim().split('\n').pop() };
    }
  }
  return best!;
}

/** Sections that print one Markdown table each: `pnpm bench <name>` runs one alone. */
const TABLE_SECTIONS: Record<string, () => Promise<() => Promise<string>>> = {
  sync: async () => (await import('./sync')).runSyncBench,
  quality: async () => (await import('./quality')).runQualityBench,
  speech: async () => (await import('../packages/conversion/bench/speech-accuracy')).runSpeechBench,
  'pdf-pages': async () => (await import('./pdf-pages')).runPdfPagesBench,
  'pdf-profile': async () => (await import('./pdf-profile')).runPdfProfileBench,
  'ocr-scripts': async () => (await import('./ocr-scripts')).runOcrScriptsBench,
  'ocr-engines': async () => (await import('../packages/conversion/bench/ocr-engines')).runOcrEnginesBench,
  'heldout-scripts': async () => (await import('./heldout/script-scans')).runHeldOutScriptScans,
  startup: async () => (await import('./startup')).runStartupBench,
  hardening: async () => (await import('./hardening')).runHardeningBench,
  webhooks: async () => (await import('./webhooks')).runWebhookBench,
  scaling: async () => (await import('./scaling')).runScalingBench,
  split: async () => (await import('./split')).runSplitBench,
  'split-memory': async () => (await import('./split-memory')).runSplitMemoryBench,
  'upload-memory': async () => (await import('./upload-memory')).runUploadMemoryBench,
  structure: async () => (await import('./structure')).runStructureBench,
  'long-paragraph': async () => (await import('./long-paragraph')).runLongParagraphBench,
};
/** Sections a full run leaves out: the speech variants take about half an hour on this machine. */
const ONLY_WHEN_NAMED = ['speech'];
/** Sections that are not conversion cases. */
const SECTIONS = ['native', ...Object.keys(TABLE_SECTIONS)];

async function main(): Promise<void> {
  const filter = process.argv[2];
  const sections: Record<string, unknown> = {};
  const cases = filter && SECTIONS.includes(filter) ? [] : await loadCases(filter);
  const loads: Record<string, LoadRecord> = {};
  const { result: rows, load: conversionLoad } = await withLoadAverage(() => measureCases(cases));
  loads.conversion = conversionLoad;
  const report = `Baseline: a plain-text file of the same size converted the same way (fresh process, worker thread).\n\n${loadLine(conversionLoad)}\n\n${rows.join('\n')}\n`;
  fs.mkdirSync(path.join(__dirname, 'out'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'out', 'conversion.md'), report);
  if (cases.length) {
    process.stdout.write(report);
    sections.conversion = report;
  }
  if (!filter || filter === 'native') {
    const { runNativeBench } = await import('../packages/conversion/bench/native');
    const { result: native, load } = await withLoadAverage(runNativeBench);
    loads.native = load;
    sections.native = native.rows;
    sections.nativeTable = `${loadLine(load)}\n\n${native.markdown}`;
    process.stdout.write(`\n${sections.nativeTable as string}`);
  }
  for (const [name, load] of Object.entries(TABLE_SECTIONS)) {
    if (filter ? filter !== name : ONLY_WHEN_NAMED.includes(name)) continue;
    const section = await load();
    const measured = await withLoadAverage(section);
    loads[name] = measured.load;
    const table = `${loadLine(measured.load)}\n\n${measured.result}`;
    fs.writeFileSync(path.join(__dirname, 'out', `${name}.md`), table);
    sections[name] = table;
    process.stdout.write(`\n${table}`);
  }
  sections.loadAverage = loads;
  writeResults(sections);
}

/** Each conversion case beside its plain-text baseline of the same size: one table row each. */
async function measureCases(cases: BenchCase[]): Promise<string[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-'));
  const rows: string[] = [];
  rows.push('| case | size MB | time s | per unit | peak RSS MB | time ÷ baseline | RSS ÷ baseline |');
  rows.push('|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const input = await c.make();
    const file = path.join(tmp, `${c.label.replace(/\W+/g, '_')}.${c.ext}`);
    fs.writeFileSync(file, input);
    const baselineFile = path.join(tmp, `${path.basename(file)}.baseline.txt`);
    fs.writeFileSync(baselineFile, plainTextOfSize(input.length));
    const baseline = measure(baselineFile, 'txt');
    const m = measure(file, c.ext);
    const perUnit = c.units && m.ok ? `${((m.ms / c.units.count) * 1).toFixed(1)} ms/${c.units.name}` : '';
    rows.push(
      m.ok
        ? `| ${c.label} | ${(m.bytes / 1e6).toFixed(2)} | ${(m.ms / 1000).toFixed(2)} | ${perUnit} | ${m.peakRssMb.toFixed(0)} | ${(m.ms / baseline.ms).toFixed(1)}× | ${(m.peakRssMb / baseline.peakRssMb).toFixed(2)}× |`
        : `| ${c.label} | ${(m.bytes / 1e6).toFixed(2)} | failed: ${m.error} | | | | |`,
    );
    process.stderr.write(`${c.label}: done\n`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  return rows;
}

/**
 * bench/results/<date>.json (figures and tables) and <date>.md (the tables), one pair per day. A run
 * of some sections replaces those sections and keeps the day's others, so `pnpm bench scaling`
 * after a full run doesn't throw the full run's figures away.
 */
function writeResults(measured: Record<string, unknown>): void {
  const date = new Date().toISOString().slice(0, 10);
  const dir = path.join(__dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const jsonFile = path.join(dir, `${date}.json`);
  const earlier = fs.existsSync(jsonFile)
    ? (JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as Record<string, unknown>)
    : {};
  delete earlier.date;
  delete earlier.machine;
  const sections = { ...earlier, ...measured };
  // Each section's load reading stays beside that section's figures.
  sections.loadAverage = { ...(earlier.loadAverage as object | undefined), ...(measured.loadAverage as object) };
  const machine = {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  };
  fs.writeFileSync(jsonFile, `${JSON.stringify({ date, machine, ...sections }, null, 2)}\n`);
  const tables = Object.values(sections).filter((v): v is string => typeof v === 'string');
  fs.writeFileSync(
    path.join(dir, `${date}.md`),
    `# Bench ${date}\n\n${JSON.stringify(machine)}\n\n${tables.join('\n')}`,
  );
}

function plainTextOfSize(bytes: number): string {
  const line = 'The quick brown fox jumps over the lazy dog, again and again.\n';
  return line.repeat(Math.max(1, Math.ceil(bytes / line.length))).slice(0, bytes);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
