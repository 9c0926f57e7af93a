import {
  closeConversionWorkers,
  convertIsolated,
  type IsolationLimits,
  type WorkerHardening,
} from '../packages/conversion/src';
import { docx, html, pdf, xlsx } from '../packages/conversion/bench/native';
import { makeSamples } from '../packages/conversion/test/samples';

const ROUNDS = Number(process.env.BENCH_HARDENING_ROUNDS ?? 9);
/** Small documents of every format but media (dominated by OCR/ASR): per-call overhead. */
const SMALL_FORMATS = [
  'txt',
  'md',
  'csv',
  'json',
  'xml',
  'html',
  'rtf',
  'docx',
  'doc',
  'xlsx',
  'xls',
  'ods',
  'pptx',
  'ppt',
  'odt',
  'odp',
  'epub',
  'pdf',
];
/** Baseline first; 'frozen' is what workers ran before the guard (PDFs in a pool without it). */
const MODES: Array<{ hardening: WorkerHardening; label: string }> = [
  { hardening: 'none', label: 'none (baseline)' },
  { hardening: 'frozen', label: '--frozen-intrinsics (before; PDF unfrozen)' },
  { hardening: 'delete-proto', label: 'no `__proto__` accessor only' },
  { hardening: 'guard', label: 'guard: no `__proto__` + built-ins check (now)' },
];

function limitsFor(hardening: WorkerHardening, input: Buffer): IsolationLimits {
  // pdf.js cannot load under frozen intrinsics: PDFs ran in a separate plain pool then.
  const pdfUnderFrozen = hardening === 'frozen' && input.subarray(0, 1024).includes('%PDF-');
  return { timeoutMs: 300_000, maxMemoryMb: 1536, hardening: pdfUnderFrozen ? 'none' : hardening };
}

async function timed(input: Buffer, ext: string, hardening: WorkerHardening): Promise<number> {
  const started = performance.now();
  await convertIsolated(input, ext, { enhanced: false }, limitsFor(hardening, input));
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * What protecting conversion workers from prototype pollution costs: real-sized documents and a
 * round of small ones through the worker pool, for each hardening against none, in one run.
 * Every mode keeps its own warm pool; rounds interleave the modes, each round starting with the
 * next one, so load from elsewhere on the machine hits all alike; medians of ROUNDS after a warm-up.
 */
export async function runHardeningBench(): Promise<string> {
  const small = await makeSamples();
  const large: Array<{ label: string; ext: string; input: Buffer }> = [
    { label: 'XLSX 10k rows', ext: 'xlsx', input: xlsx(10_000) },
    { label: 'HTML 500 KB', ext: 'html', input: html(500 * 1024) },
    { label: 'DOCX 50 pages', ext: 'docx', input: await docx(50) },
    { label: 'PDF 20 pages', ext: 'pdf', input: await pdf(20) },
  ];
  const times = new Map<string, number[]>();
  const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  await closeConversionWorkers();
  for (let round = 0; round <= ROUNDS; round++) {
    // Each round starts with another mode, so no mode always follows the same one.
    for (const { hardening } of MODES.map((_, i) => MODES[(i + round) % MODES.length]!)) {
      for (const doc of large) {
        const ms = await timed(doc.input, doc.ext, hardening);
        if (round > 0) record(`${hardening}:${doc.label}`, ms);
      }
      let smallMs = 0;
      for (const ext of SMALL_FORMATS) smallMs += await timed(small[ext]!, ext, hardening);
      if (round > 0) record(`${hardening}:small`, smallMs);
    }
  }
  await closeConversionWorkers();
  const columns = [...large.map((d) => d.label), `${SMALL_FORMATS.length} small documents`];
  const keys = [...large.map((d) => d.label), 'small'];
  // On a shared machine the fastest round is the least disturbed one: both are given.
  const cell = (hardening: WorkerHardening, key: string): string => {
    const mine = times.get(`${hardening}:${key}`)!;
    const base = times.get(`none:${key}`)!;
    const ms = median(mine);
    const best = Math.min(...mine) / Math.min(...base);
    return `${Math.round(ms)} ms (${(ms / median(base)).toFixed(2)}×, best ${best.toFixed(2)}×)`;
  };
  return [
    `Worker hardening: median of ${ROUNDS} interleaved rounds after a warm-up, one conversion at a time; time (÷ none's median; fastest ÷ none's fastest).`,
    '',
    `| workers | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...MODES.map(({ hardening, label }) => `| ${label} | ${keys.map((k) => cell(hardening, k)).join(' | ')} |`),
    '',
  ].join('\n');
}
