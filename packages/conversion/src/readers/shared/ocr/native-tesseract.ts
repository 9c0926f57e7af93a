import { spawn, spawnSync } from 'node:child_process';
import type { Box } from './boxes';

/**
 * Debian's `tesseract` run as a child process per page: the image goes in on stdin as a PGM, TSV
 * (or the script detector's report) comes out on stdout. A child per page is isolated the way a
 * conversion should be: it has a deadline, it can be killed (a timeout or a cancel), and a crash
 * costs one page. One thread per child (OMP_THREAD_LIMIT=1): the converters already run one
 * conversion per core, and Tesseract's OpenMP threads only fight them for it.
 */

/** A page is read in at most this long; then its process is killed. */
export const NATIVE_PAGE_TIMEOUT_MS = 120_000;
/** Stdout of one page (TSV of a dense page is a few hundred KB) above which the child is stopped. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
/** The confidence Tesseract's TSV gives rows that hold no word. */
const NO_CONFIDENCE = -1;

/** A recognised word, as Tesseract's TSV and tesseract.js both describe it. */
export interface ReadWord {
  text: string;
  confidence: number;
  bbox: Box;
}
export interface ReadLine {
  bbox: Box;
  words: ReadWord[];
}
export interface ReadBlock {
  bbox: Box;
  paragraphs: Array<{ lines: ReadLine[] }>;
}
/** One reading of a page: its blocks, paragraphs, lines and words, and the mean word confidence (0–100). */
export interface PageReading {
  blocks: ReadBlock[];
  confidence: number;
}

/** What the script detector (`--psm 0`) reports: the page's script and how far it is turned. */
export interface ScriptReport {
  script: string;
  scriptConfidence: number;
  /** Clockwise degrees the text is turned (0, 90, 180, 270): rotate counter-clockwise by this to read it. */
  orientation: number;
  orientationConfidence: number;
}

export interface NativeCall {
  /** The folder of traineddata files (Tesseract's --tessdata-dir). */
  tessdata: string;
  /** The resolution the image is said to have (a PGM states none; the script detector needs one). */
  dpi?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

let binary: boolean | undefined;
/** Whether a `tesseract` program is on PATH (checked once per process). */
export function isNativeTesseractInstalled(): boolean {
  if (binary === undefined) {
    const probe = spawnSync('tesseract', ['--version'], { stdio: 'ignore', timeout: 10_000 });
    binary = probe.status === 0;
  }
  return binary;
}

/** A grey image as a binary PGM: Tesseract's image library reads it without decompressing. */
export function pgm(pixels: Buffer, width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii'), pixels]);
}

/** Reads a page (a PGM) in `language` with page segmentation mode `psm`; blocks as Tesseract's TSV lists them. */
export async function readNative(image: Buffer, language: string, psm: number, call: NativeCall): Promise<PageReading> {
  const tsv = await runTesseract(image, ['-l', language, '--psm', String(psm), '--oem', '1', 'tsv'], call);
  return parseTsv(tsv);
}

/** The script detector's report on a page (a PGM), or undefined when it found too few characters. */
export async function detectNative(image: Buffer, call: NativeCall): Promise<ScriptReport | undefined> {
  const out = await runTesseract(image, ['--psm', '0', '-c', 'min_characters_to_try=10'], call).catch(() => '');
  return parseScriptReport(out);
}

/** Tesseract's `--psm 0` report as fields; undefined when it has no script line. */
export function parseScriptReport(out: string): ScriptReport | undefined {
  const field = (name: string): string | undefined => new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(out)?.[1]?.trim();
  const script = field('Script');
  if (!script) return undefined;
  return {
    script,
    scriptConfidence: Number(field('Script confidence') ?? 0),
    orientation: Number(field('Orientation in degrees') ?? 0),
    orientationConfidence: Number(field('Orientation confidence') ?? 0),
  };
}

/**
 * Tesseract's TSV (level, page, block, paragraph, line, word, left, top, width, height, conf, text)
 * as blocks of paragraphs of lines of words.
 */
export function parseTsv(tsv: string): PageReading {
  const blocks: ReadBlock[] = [];
  let block: ReadBlock | undefined;
  let paragraph: { lines: ReadLine[] } | undefined;
  let line: ReadLine | undefined;
  let sum = 0;
  let count = 0;
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || !/^\d+$/.test(cells[0]!)) continue;
    const [left, top, width, height] = cells.slice(6, 10).map(Number) as [number, number, number, number];
    const bbox = { x0: left, y0: top, x1: left + width, y1: top + height };
    switch (cells[0]) {
      case '2':
        block = { bbox, paragraphs: [] };
        blocks.push(block);
        break;
      case '3':
        paragraph = { lines: [] };
        block?.paragraphs.push(paragraph);
        break;
      case '4':
        line = { bbox, words: [] };
        paragraph?.lines.push(line);
        break;
      case '5': {
        const confidence = Number(cells[10]);
        const text = cells.slice(11).join('\t').trim();
        if (!line || !text || confidence <= NO_CONFIDENCE) break;
        line.words.push({ text, confidence, bbox });
        sum += confidence;
        count++;
        break;
      }
    }
  }
  return { blocks, confidence: count ? sum / count : 0 };
}

/** Runs `tesseract stdin stdout …` on the image; its stdout, or an error when it fails, times out or is cancelled. */
function runTesseract(image: Buffer, args: string[], call: NativeCall): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'tesseract',
      ['stdin', 'stdout', '--tessdata-dir', call.tessdata, ...(call.dpi ? ['--dpi', String(call.dpi)] : []), ...args],
      {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
        timeout: call.timeoutMs ?? NATIVE_PAGE_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        signal: call.signal,
      },
    );
    const out: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(
          new Error(
            `tesseract ${signal ? `was stopped (${signal})` : `exited with ${code}`}: ${stderr.trim().slice(0, 300)}`,
          ),
        );
    });
    // A child that dies early closes stdin: the write error is the exit's, reported above.
    child.stdin.on('error', () => undefined);
    child.stdin.end(image);
  });
}
