import { closeConversionWorkers, convertIsolated, type ConvertDocumentOptions } from '../packages/conversion/src';
import { benchCases } from '../packages/conversion/bench/documents';
import { pdf as makePdf } from '../packages/conversion/bench/native';

/** Timed runs per measurement (median kept), each side interleaved with the other. */
const REPEATS = Number(process.env.BENCH_STRUCTURE_REPEATS ?? 5);
/** Cases of packages/conversion/bench/documents.ts measured (OCR and speech left out: their cost is the engine's). */
const CASES = (process.env.BENCH_STRUCTURE_CASES ?? 'pdf 200 pages,docx,xlsx,pptx,epub,html').split(',');
const LIMITS = { timeoutMs: 600_000, maxMemoryMb: 2048 };
const STRUCTURE: Partial<ConvertDocumentOptions> = { includePages: true, chunkMaxTokens: 512 };

/**
 * E1–E4's cost (issue 19, "Speed"), as ratios in the same run: a conversion with pages and chunks
 * (512 tokens) against the same conversion without them, per document (target ≤ 1.10×); and
 * page_range=1-2 of a 100-page PDF against the whole file (target ≤ 0.1×). Interleaved, warm pool.
 */
export async function runStructureBench(): Promise<string> {
  const rows = ['| document | plain ms | pages+chunks ms | ratio |', '|---|---|---|---|'];
  try {
    const cases = benchCases.filter((c) => CASES.some((name) => c.label.includes(name)));
    for (const c of cases) {
      const input = await c.make();
      const [plain, structured] = await interleaved(
        () => convertIsolated(input, c.ext, { enhanced: false }, LIMITS),
        () => convertIsolated(input, c.ext, { enhanced: false, ...STRUCTURE }, LIMITS),
      );
      rows.push(`| ${c.label} | ${plain.toFixed(0)} | ${structured.toFixed(0)} | ${(structured / plain).toFixed(2)}× |`);
      process.stderr.write(`structure: ${c.label} done\n`);
    }
    const hundred = await makePdf(100);
    const [whole, two] = await interleaved(
      () => convertIsolated(hundred, 'pdf', { enhanced: false }, LIMITS),
      () => convertIsolated(hundred, 'pdf', { enhanced: false, pageRange: [[1, 2]] }, LIMITS),
    );
    return (
      `Pages and chunks (chunk_max_tokens=512) against the same conversion without them (median of ${REPEATS}, interleaved; target ≤ 1.10×):\n\n${rows.join('\n')}\n\n` +
      `page_range=1-2 of a 100-page PDF against the whole file: ${two.toFixed(0)} ms / ${whole.toFixed(0)} ms = ${(two / whole).toFixed(3)}× (target ≤ 0.1×)\n`
    );
  } finally {
    await closeConversionWorkers();
  }
}

/** Medians of two runs taken turn about, after one warm-up of each. */
async function interleaved(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  await a();
  await b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    for (const [fn, out] of [
      [a, ta],
      [b, tb],
    ] as const) {
      const started = performance.now();
      await fn();
      out.push(performance.now() - started);
    }
  }
  return [median(ta), median(tb)];
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}
