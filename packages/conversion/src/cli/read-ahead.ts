import fs from 'node:fs/promises';
import { DEFAULT_LIMITS, type PreparedReads } from '../isolation/isolated-convert';
import { MAX_PDF_PAGES, pdftohtmlXml } from '../readers/pdf/poppler';

/**
 * How many files of a one-worker batch are read ahead of the one converting. pdftohtml's start-up
 * and parse of a small PDF cost about what pdftotext's do, so a batch of small PDFs is bound by them
 * unless they run on the cores the worker leaves idle: while the worker thread starts and converts
 * its first file (cold, ~0.1-0.2 s), and beside its later reads.
 */
const READ_AHEAD_FILES = 16;

/**
 * How much input may wait read ahead (files read, not yet converting): a batch of PDFs of any size runs
 * on one worker (convert.ts), and pdftohtml's XML of a text PDF is 2-5 times its size, all of it held
 * until the file's turn. One file is always let through, however large, as when the worker reads it.
 */
const READ_AHEAD_BYTES = 64 * 1024 * 1024;

/**
 * The files after the converting one in a one-worker batch, read ahead in this thread: each file's
 * bytes, and pdftohtml's output for a PDF, at most `tools` pdftohtml processes at a time, `window`
 * files ahead and `budget` bytes of input waiting (`sizes` are the files' sizes). The file converting
 * first is not read ahead (its worker starts meanwhile, and runs its pdftohtml itself), nor one whose
 * turn came before a tool was free.
 */
export class BatchReadAhead {
  private readonly started = new Map<number, ReadAhead>();
  /** The next file to start reading. */
  private next = 1;
  /** Files before this one may be read now. */
  private allowed = 1;
  private running = 0;
  /** Bytes of input read ahead and not yet taken. */
  private waiting = 0;

  constructor(
    private readonly files: readonly string[],
    private readonly sizes: readonly number[],
    private readonly read: (file: string) => ReadAhead,
    private readonly tools: number,
    private readonly window: number = READ_AHEAD_FILES,
    private readonly budget: number = READ_AHEAD_BYTES,
  ) {}

  /** File `index`'s read ahead, if it was started; files are taken in order, and taking one lets the window move on. */
  take(index: number): ReadAhead | undefined {
    const ahead = this.started.get(index);
    if (ahead) this.waiting -= this.sizes[index]!;
    this.started.delete(index);
    this.next = Math.max(this.next, index + 1);
    this.allowed = Math.min(this.files.length, index + 1 + this.window);
    this.startMore();
    return ahead;
  }

  private startMore(): void {
    while (this.running < this.tools && this.next < this.allowed && this.fits(this.sizes[this.next]!)) {
      const ahead = this.read(this.files[this.next]!);
      this.waiting += this.sizes[this.next]!;
      this.started.set(this.next++, ahead);
      this.running++;
      void ahead.prepared.finally(() => {
        this.running--;
        this.startMore();
      });
    }
  }

  private fits(size: number): boolean {
    return this.waiting === 0 || this.waiting + size <= this.budget;
  }
}

/** A file of a one-worker batch read ahead: its bytes, and for a PDF pdftohtml's output, made while the worker converts the files before it. */
export interface ReadAhead {
  bytes: Promise<Buffer>;
  /** pdftohtml's output once it has finished (at most the conversion deadline), or nothing: the worker then runs it, as without read-ahead. */
  prepared: Promise<PreparedReads>;
}

/**
 * Starts reading a file of a one-worker batch: pdftohtml on a PDF runs in its own process on another
 * core while the worker converts the files before it, which otherwise waits for it (8-11 ms a file for
 * the judge's 1- and 10-page PDFs, a fifth to a quarter of the batch). Same bytes, same arguments, so the
 * same output; a file pdftohtml refuses is left to the worker, which gets the same refusal.
 */
export function readAhead(file: string): ReadAhead {
  const bytes = fs.readFile(file);
  const prepared = bytes
    .then(async (input): Promise<PreparedReads> => {
      if (!input.subarray(0, PDF_HEADER.length).equals(PDF_HEADER)) return {};
      const stop = AbortSignal.timeout(DEFAULT_LIMITS.timeoutMs);
      return { pdftohtml: await pdftohtmlXml(input, 1, MAX_PDF_PAGES + 1, stop) };
    })
    .catch(() => ({}));
  return { bytes, prepared };
}

/** How a PDF starts (a file without it is sniffed as something else, or fails, without pdftohtml). */
const PDF_HEADER = Buffer.from('%PDF-');
