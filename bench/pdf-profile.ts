import { pdfReader } from '../packages/conversion/src/readers/pdf';
import { openPdf } from '../packages/conversion/src/readers/pdf/pdfjs';
import { pageRules } from '../packages/conversion/src/readers/pdf/rulings';
import { openContentRules } from '../packages/conversion/src/readers/pdf/content-rules';
import { ruledTablePdf } from './ruled-table-pdf';

/** Pages of the judge's kind of PDF (../shared/perf: heading, paragraphs, a stroked table per page). */
const PAGE_COUNTS = [10, 100];
const REPEATS = Number(process.env.BENCH_PDF_REPEATS ?? 6);

/**
 * Where the PDF reader's own CPU goes (issue 22): the whole read against the drawn-rules step alone
 * (the content-stream scanner; pdf.js's operator lists, the old source, beside it), interleaved, in this thread's CPU time
 * (process.cpuUsage: pdftohtml's child is not counted, pdf.js's in-thread worker is). Ratios within
 * one run are what count; the absolute figures follow the machine's load.
 */
export async function runPdfProfileBench(): Promise<string> {
  const rows = [
    '| pages | reader CPU ms | content-stream rules CPU ms | share of the read | pdf.js operator-list rules CPU ms |',
    '|---|---|---|---|---|',
  ];
  for (const pages of PAGE_COUNTS) {
    const input = await ruledTablePdf(pages);
    const read = (): Promise<unknown> => pdfReader.read(input, { enhanced: false });
    const rules = async (): Promise<void> => {
      const doc = await openPdf(input);
      try {
        for (let p = 1; p <= doc.numPages; p++) await pageRules(doc, p);
      } finally {
        await doc.destroy();
      }
    };
    // What the reader does now: the content scanner, pdf.js only for pages it leaves.
    const scanned = async (): Promise<void> => {
      const source = await openContentRules(input);
      for (let p = 1; p <= (source?.pageCount ?? 0); p++)
        if (!source?.pageRules(p)) throw new Error(`page ${p} left to pdf.js`);
    };
    await read();
    await rules();
    await scanned();
    const whole: number[] = [];
    const part: number[] = [];
    const old: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      whole.push(await cpuMs(read));
      part.push(await cpuMs(scanned));
      old.push(await cpuMs(rules));
    }
    const [w, r, o] = [median(whole), median(part), median(old)];
    rows.push(`| ${pages} | ${w.toFixed(0)} | ${r.toFixed(0)} | ${((r / w) * 100).toFixed(0)} % | ${o.toFixed(0)} |`);
  }
  return `PDF reader CPU, whole read vs its drawn-rules step, and pdf.js's operator lists for the same rules (median of ${REPEATS}, interleaved):\n\n${rows.join('\n')}\n`;
}

async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
