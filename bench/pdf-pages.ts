import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { closeConversionWorkers, convertIsolated } from '../packages/conversion/src';
import { pdfReader } from '../packages/conversion/src/readers/pdf';
import { pdf as makePdf } from '../packages/conversion/bench/native';

const run = promisify(execFile);
const PAGE_COUNTS = [1, 10, 100];
/** Files per batch, as `pnpm convert` gets them: one process, one file after another. */
const FILES = Number(process.env.BENCH_PDF_FILES ?? 16);
/** Warm in-process conversions per page count, interleaved with pdftotext (and the compared tree). */
const REPEATS = Number(process.env.BENCH_PDF_REPEATS ?? 12);
/** Another checkout (e.g. main before a change) whose PDF reader is measured in the same run, interleaved. */
const COMPARE_ROOT = process.env.PDF_COMPARE_ROOT;

/**
 * PDF per-page cost against pdftotext on the same files in the same run, at 1, 10 and 100 pages:
 * in a batch (one process, FILES conversions through the worker pool after one warm-up), and warm
 * in-process (the reader alone, median of REPEATS, each run beside a pdftotext run).
 */
export async function runPdfPagesBench(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-pdf-'));
  const batch = ['| pages | Markwright ms/page | pdftotext ms/page | ratio |', '|---|---|---|---|'];
  const compare = COMPARE_ROOT ? await loadReader(COMPARE_ROOT) : undefined;
  const warm = compare
    ? ['| pages | compared ms/page | this tree ms/page | pdftotext ms/page | ratio compared | ratio this tree |']
    : ['| pages | Markwright ms/page | pdftotext ms/page | ratio |'];
  warm.push(warm[0]!.replace(/[^|]+/g, '---'));
  try {
    for (const pages of PAGE_COUNTS) {
      const input = await makePdf(pages);
      const file = path.join(dir, `${pages}.pdf`);
      fs.writeFileSync(file, input);
      await convertIsolated(input, 'pdf', { enhanced: false }, { timeoutMs: 600_000, maxMemoryMb: 2048 });
      // Interleaved file by file, so a change in the machine's load falls on both sides.
      let oursMs = 0;
      let baselineMs = 0;
      for (let i = 0; i < FILES; i++) {
        let started = performance.now();
        await convertIsolated(input, 'pdf', { enhanced: false }, { timeoutMs: 600_000, maxMemoryMb: 2048 });
        oursMs += performance.now() - started;
        started = performance.now();
        execFileSync('pdftotext', [file, '-'], { maxBuffer: 64 * 1024 * 1024 });
        baselineMs += performance.now() - started;
      }
      const ours = oursMs / FILES / pages;
      const baseline = baselineMs / FILES / pages;
      batch.push(`| ${pages} | ${ours.toFixed(2)} | ${baseline.toFixed(2)} | ${(ours / baseline).toFixed(2)}× |`);
      warm.push(await warmRow(pages, input, file, compare));
      process.stderr.write(`pdf ${pages} pages: done\n`);
    }
  } finally {
    await closeConversionWorkers();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return (
    `PDF batch per page against pdftotext (same files, same run, ${FILES} files each, interleaved):\n\n${batch.join('\n')}\n\n` +
    `PDF reader warm in one process, per page (median of ${REPEATS}, interleaved with pdftotext${compare ? ` and ${COMPARE_ROOT}` : ''}):\n\n${warm.join('\n')}\n`
  );
}

/** Reads one PDF in this thread, without writing it: the reader alone. */
type ReadPdf = (input: Buffer, options: { enhanced: boolean }) => Promise<unknown>;

/** The PDF reader of another tree: readers/pdf (read) since the pandoc layout, converters/pdf (convert) before it. */
async function loadReader(root: string): Promise<ReadPdf> {
  const now = path.join(root, 'packages/conversion/src/readers/pdf/index.ts');
  if (fs.existsSync(now)) {
    const mod = (await import(now)) as { pdfReader: { read: ReadPdf } };
    return (input, options) => mod.pdfReader.read(input, options);
  }
  const before = path.join(root, 'packages/conversion/src/converters/pdf/index.ts');
  const mod = (await import(before)) as { pdfConverter: { convert: ReadPdf } };
  return (input, options) => mod.pdfConverter.convert(input, options);
}

async function warmRow(pages: number, input: Buffer, file: string, compare?: ReadPdf): Promise<string> {
  const ours: ReadPdf = (input, options) => pdfReader.read(input, options);
  const readers = compare ? [compare, ours] : [ours];
  const times = readers.map((): number[] => []);
  const baseline: number[] = [];
  for (const reader of readers) await reader(input, { enhanced: false });
  for (let i = 0; i < REPEATS; i++) {
    for (const [k, reader] of readers.entries()) {
      const started = performance.now();
      await reader(input, { enhanced: false });
      times[k]!.push(performance.now() - started);
    }
    const started = performance.now();
    await run('pdftotext', [file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    baseline.push(performance.now() - started);
  }
  const base = median(baseline) / pages;
  const perPage = times.map((t) => median(t) / pages);
  return `| ${pages} | ${perPage.map((t) => t.toFixed(2)).join(' | ')} | ${base.toFixed(2)} | ${perPage.map((t) => `${(t / base).toFixed(2)}×`).join(' | ')} |`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
