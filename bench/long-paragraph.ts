import { closeConversionWorkers, convertIsolated } from '../packages/conversion/src';

/** Words of the smaller paragraph; the larger has SCALE times as many. */
const WORDS = Number(process.env.BENCH_LONG_PARAGRAPH_WORDS ?? 20_000);
const SCALE = 4;
const REPEATS = Number(process.env.BENCH_LONG_PARAGRAPH_REPEATS ?? 5);

/** One HTML paragraph of `words` words, every third bold and every seventh a link: one inline node per word or so. */
function paragraph(words: number): Buffer {
  const vocabulary = ['river', 'bank', 'survey', 'sample', 'water', 'level', 'flow', 'station', 'gauge'];
  const parts: string[] = [];
  for (let i = 0; i < words; i++) {
    const word = vocabulary[(i * 7 + 3) % vocabulary.length]!;
    parts.push(i % 3 === 0 ? `<b>${word}</b>` : i % 7 === 0 ? `<a href="#w${i}">${word}</a>` : word);
  }
  return Buffer.from(`<html><body><p>${parts.join(' ')}</p></body></html>`);
}

/**
 * How conversion time grows with one paragraph's length: a paragraph SCALE times as long should take
 * about SCALE times as long (linear), not SCALE² (a writer that reads the text it grows at each node
 * did: a 200,000-word styled paragraph took 90 s, mostly the kernel mapping memory for copies).
 * Medians of REPEATS, the two sizes interleaved, after a warm-up of each.
 */
export async function runLongParagraphBench(): Promise<string> {
  const small = paragraph(WORDS);
  const large = paragraph(WORDS * SCALE);
  const limits = { timeoutMs: 600_000, maxMemoryMb: 2048 };
  const time = async (input: Buffer): Promise<number> => {
    const started = performance.now();
    await convertIsolated(input, 'html', { enhanced: false }, limits);
    return performance.now() - started;
  };
  try {
    await time(small);
    await time(large);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      a.push(await time(small));
      b.push(await time(large));
    }
    const median = (v: number[]): number => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)]!;
    const [ms, ml] = [median(a), median(b)];
    return [
      `One HTML paragraph of styled words, ${WORDS} against ${WORDS * SCALE} (median of ${REPEATS}, interleaved): linear growth reads ${SCALE}×, quadratic ${SCALE * SCALE}×.`,
      '',
      '| words | ms | ratio |',
      '|---|---|---|',
      `| ${WORDS} | ${ms.toFixed(0)} | 1 |`,
      `| ${WORDS * SCALE} | ${ml.toFixed(0)} | ${(ml / ms).toFixed(2)}× |`,
      '',
    ].join('\n');
  } finally {
    await closeConversionWorkers();
  }
}
