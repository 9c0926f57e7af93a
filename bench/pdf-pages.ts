import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeConversionWorkers, convertIsolated } from '../packages/conversion/src';
import { pdf as makePdf } from '../packages/conversion/bench/native';

const PAGE_COUNTS = [1, 10, 100];
/** Files per batch, as `pnpm convert` gets them: one process, one file after another. */
const FILES = Number(process.env.BENCH_PDF_FILES ?? 16);

/**
 * PDF per-page cost in a batch (one process, FILES conversions through the worker pool after one
 * warm-up) against pdftotext on the same files in the same run, at 1, 10 and 100 pages.
 */
export async function runPdfPagesBench(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-pdf-'));
  const rows = ['| pages | Markwright ms/page | pdftotext ms/page | ratio |', '|---|---|---|---|'];
  try {
    for (const pages of PAGE_COUNTS) {
      const input = await makePdf(pages);
      const file = path.join(dir, `${pages}.pdf`);
      fs.writeFileSync(file, input);
      await convertIsolated(input, 'pdf', { enhanced: false }, { timeoutMs: 600_000, maxMemoryMb: 2048 });
      let started = performance.now();
      for (let i = 0; i < FILES; i++) {
        await convertIsolated(input, 'pdf', { enhanced: false }, { timeoutMs: 600_000, maxMemoryMb: 2048 });
      }
      const ours = (performance.now() - started) / FILES / pages;
      started = performance.now();
      for (let i = 0; i < FILES; i++) execFileSync('pdftotext', [file, '-'], { maxBuffer: 64 * 1024 * 1024 });
      const baseline = (performance.now() - started) / FILES / pages;
      rows.push(`| ${pages} | ${ours.toFixed(2)} | ${baseline.toFixed(2)} | ${(ours / baseline).toFixed(2)}× |`);
      process.stderr.write(`pdf ${pages} pages: done\n`);
    }
  } finally {
    await closeConversionWorkers();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return `PDF batch per page against pdftotext (same files, same run, ${FILES} files each):\n\n${rows.join('\n')}\n`;
}
