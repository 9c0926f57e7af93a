import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { ConversionError } from '../types';

/** Largest image accepted, in pixels (a decompression bomb fails here, before decoding). */
export const MAX_IMAGE_PIXELS = 60_000_000;
/** Words recognised with less confidence than this are treated as noise. */
const MIN_WORD_CONFIDENCE = 35;
/** A blank gap between two lines taller than this share of the line height separates paragraphs. */
export const PARAGRAPH_GAP = 0.6;
/** OCR works best with text about 30 px high; small images are upscaled towards this width. */
const TARGET_MIN_WIDTH = 1800;

let engine: Promise<Worker> | undefined;

/**
 * One Tesseract engine per thread, created on first use and reused for every later image:
 * English LSTM data from @tesseract.js-data/eng on local disk, nothing fetched, nothing cached to disk.
 */
function ocrEngine(): Promise<Worker> {
  engine ??= (async () => {
    const langPath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
    return createWorker('eng', OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      logger: () => undefined,
      errorHandler: () => undefined,
    });
  })();
  return engine;
}

/** Closes this thread's engine (end of a CLI run or a test). */
export async function closeOcrEngine(): Promise<void> {
  const current = engine;
  engine = undefined;
  if (current) await (await current).terminate();
}

/** Decodes, orients (EXIF), greys, upscales small text and normalises contrast. */
export async function prepareImage(input: Buffer): Promise<Buffer> {
  try {
    const image = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
    const meta = await image.metadata();
    const width = meta.autoOrient?.width ?? meta.width ?? 0;
    const scale = width > 0 && width < TARGET_MIN_WIDTH ? Math.min(4, TARGET_MIN_WIDTH / width) : 1;
    let pipeline = image.greyscale();
    if (scale > 1.05) pipeline = pipeline.resize({ width: Math.round(width * scale), kernel: 'lanczos3' });
    return await pipeline.normalise().png().toBuffer();
  } catch (err) {
    const message = (err as Error).message;
    if (/pixel limit/i.test(message)) {
      throw new ConversionError('too_large', `The image has more than ${MAX_IMAGE_PIXELS / 1_000_000} million pixels.`);
    }
    throw new ConversionError('corrupt_file', `The image could not be decoded: ${message}`);
  }
}

export interface OcrResult {
  paragraphs: string[];
  confidence: number;
  /** The prepared image the words' boxes refer to (for ruling lines). */
  image: Buffer;
  /** Recognised words with their boxes, for layout analysis. */
  words: OcrWord[];
}

export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  line: number;
}

/** Recognises a prepared image; paragraphs are rebuilt from Tesseract's blocks and lines, noise dropped. */
export async function recognise(image: Buffer): Promise<OcrResult> {
  const worker = await ocrEngine();
  const { data } = await worker.recognize(image, {}, { blocks: true, text: false });
  const paragraphs: string[] = [];
  const words: OcrWord[] = [];
  let lineNo = 0;
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lineNo++;
        for (const w of line.words) {
          if (w.confidence >= MIN_WORD_CONFIDENCE) words.push({ text: w.text, ...w.bbox, line: lineNo });
        }
      }
    }
  }
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      // Tesseract often keeps paragraphs separated only by a blank line in one paragraph: split at such gaps.
      const lineHeight = median(paragraph.lines.map((l) => l.bbox.y1 - l.bbox.y0));
      let text = '';
      let previousBottom: number | undefined;
      for (const line of paragraph.lines) {
        const gap = previousBottom === undefined ? 0 : line.bbox.y0 - previousBottom;
        previousBottom = line.bbox.y1;
        if (text && gap > lineHeight * PARAGRAPH_GAP) {
          paragraphs.push(text);
          text = '';
        }
        const words = line.words
          .filter((w) => w.confidence >= MIN_WORD_CONFIDENCE || /^[\p{L}\p{N}]{3,}$/u.test(w.text))
          .map((w) => w.text)
          .join(' ')
          .trim();
        if (!words || !/[\p{L}\p{N}]/u.test(words)) continue;
        text = joinLine(text, words);
      }
      if (text) paragraphs.push(text);
    }
  }
  return { paragraphs, confidence: data.confidence, words, image };
}

/** OCR of an image file in any format sharp reads. */
export async function ocrImage(input: Buffer): Promise<OcrResult> {
  return recognise(await prepareImage(input));
}

/** Appends a line to a paragraph, re-joining a word hyphenated across the break. */
export function joinLine(paragraph: string, line: string): string {
  if (!paragraph) return line;
  return /\p{Ll}-$/u.test(paragraph) ? paragraph.slice(0, -1) + line : `${paragraph} ${line}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
