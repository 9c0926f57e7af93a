import sharp from 'sharp';
import type { Box } from './boxes';
import type { PreparedImage } from './engine';
import type { PageReading, ReadBlock, ReadLine } from './native-tesseract';

/**
 * Pages that mix scripts (a Korean notice with an English paragraph, a Chinese page under an
 * English caption) are read region by region: the English reading keeps the lines it read with
 * confidence, those lines are painted out, and the script detector looks only at what is left, so
 * a few English lines don't make a page of Hangul "Latin". What is left is then read in its own
 * language (and orientation), and both readings are put together in page order.
 */

/** A line read in English is kept when its words' mean confidence reaches this (0–100)… */
const CONFIDENT_LINE = 80;
/** …and at least this share of its letters and digits are Latin (a line of Hangul read as Latin is noise). */
const MIN_LATIN_SHARE = 0.9;
/** Painted-out lines are widened by this share of their height, so their edges leave no ink to detect. */
const ERASE_MARGIN = 0.25;

/** The lines of a reading that read as confident Latin text, as a reading of their own (empty blocks dropped). */
export function confidentLatinLines(reading: PageReading): PageReading {
  const blocks: ReadBlock[] = [];
  let sum = 0;
  let count = 0;
  for (const block of reading.blocks) {
    const paragraphs = block.paragraphs
      .map((p) => ({ lines: p.lines.filter(isConfidentLatin) }))
      .filter((p) => p.lines.length);
    if (!paragraphs.length) continue;
    for (const line of paragraphs.flatMap((p) => p.lines)) {
      for (const w of line.words) {
        sum += w.confidence;
        count++;
      }
    }
    blocks.push({ bbox: block.bbox, paragraphs });
  }
  return { blocks, confidence: count ? sum / count : 0 };
}

function isConfidentLatin(line: ReadLine): boolean {
  if (!line.words.length) return false;
  const mean = line.words.reduce((n, w) => n + w.confidence, 0) / line.words.length;
  const text = line.words.map((w) => w.text).join('');
  const letters = text.match(/[\p{L}\p{N}]/gu) ?? [];
  const latin = text.match(/[\p{Script=Latin}\p{N}]/gu) ?? [];
  return (
    mean >= CONFIDENT_LINE && /\p{Script=Latin}{2}/u.test(text) && latin.length >= letters.length * MIN_LATIN_SHARE
  );
}

/** The boxes of a reading's lines. */
export function lineBoxes(reading: PageReading): Box[] {
  return reading.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.map((l) => l.bbox)));
}

/** A copy of the image with the boxes (a little widened) painted white. */
export function eraseBoxes(image: PreparedImage, boxes: Box[]): PreparedImage {
  const pixels = Buffer.from(image.pixels);
  for (const box of boxes) {
    const pad = Math.round((box.y1 - box.y0) * ERASE_MARGIN);
    const x0 = Math.max(0, box.x0 - pad);
    const x1 = Math.min(image.width, box.x1 + pad);
    for (let y = Math.max(0, box.y0 - pad); y < Math.min(image.height, box.y1 + pad); y++) {
      pixels.fill(255, y * image.width + x0, y * image.width + x1);
    }
  }
  return { pixels, width: image.width, height: image.height };
}

/** The image turned clockwise by a multiple of 90 degrees. */
export async function rotateImage(image: PreparedImage, clockwise: number): Promise<PreparedImage> {
  const { data, info } = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 1 } })
    .rotate(clockwise)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

/** The image enlarged (or reduced) by a factor. */
export async function scaleImage(image: PreparedImage, factor: number): Promise<PreparedImage> {
  const { data, info } = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 1 } })
    .resize({ width: Math.round(image.width * factor), kernel: 'lanczos3' })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

/**
 * A reading of an image turned clockwise by `clockwise` degrees, with its boxes put back into the
 * coordinates of the original image (`width` × `height`), so the regions of one page stay in one frame.
 */
export function unrotateReading(reading: PageReading, clockwise: number, width: number, height: number): PageReading {
  const back = (b: Box): Box => unrotateBox(b, clockwise, width, height);
  return {
    confidence: reading.confidence,
    blocks: reading.blocks.map((block) => ({
      bbox: back(block.bbox),
      paragraphs: block.paragraphs.map((p) => ({
        lines: p.lines.map((line) => ({
          bbox: back(line.bbox),
          words: line.words.map((w) => ({ ...w, bbox: back(w.bbox) })),
        })),
      })),
    })),
  };
}

/** A box of the image turned clockwise by `clockwise` degrees, in the original `width` × `height` image. */
export function unrotateBox(box: Box, clockwise: number, width: number, height: number): Box {
  const point = (x: number, y: number): [number, number] => {
    switch (((clockwise % 360) + 360) % 360) {
      case 90:
        return [y, height - x];
      case 180:
        return [width - x, height - y];
      case 270:
        return [width - y, x];
      default:
        return [x, y];
    }
  };
  const [ax, ay] = point(box.x0, box.y0);
  const [bx, by] = point(box.x1, box.y1);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

/**
 * Two readings of disjoint regions of one page as one, blocks in reading order (top to bottom by
 * their top edge); the confidence is the mean over both readings' words.
 */
export function mergeReadings(a: PageReading, b: PageReading): PageReading {
  const na = wordCount(a);
  const nb = wordCount(b);
  return {
    blocks: [...a.blocks, ...b.blocks].sort((x, y) => x.bbox.y0 - y.bbox.y0 || x.bbox.x0 - y.bbox.x0),
    confidence: na + nb ? (a.confidence * na + b.confidence * nb) / (na + nb) : 0,
  };
}

/** Number of words in a reading. */
export function wordCount(reading: PageReading): number {
  return reading.blocks.reduce(
    (n, block) => n + block.paragraphs.reduce((m, p) => m + p.lines.reduce((k, l) => k + l.words.length, 0), 0),
    0,
  );
}

/** An English line nothing else was read over is still kept when its mean confidence reaches this. */
const LONE_LINE_CONFIDENCE = 60;
/** Two lines lie over the same ink when their vertical overlap is at least this share of the shorter one. */
const SAME_LINE_OVERLAP = 0.5;

/**
 * The reading of the rest of a page in its script's language, line by line against the English
 * reading of the same page: where English read the same ink with more confidence (the detector
 * took a noisy English line for Cyrillic), the English line stands; English lines nothing else
 * was read over are kept when they read well enough.
 */
export function preferBetterLines(other: PageReading, english: PageReading, kept: PageReading): PageReading {
  const used = new Set<ReadLine>(kept.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines)));
  const englishLines = english.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines)).filter((l) => !used.has(l));
  const blocks: ReadBlock[] = other.blocks.map((block) => ({
    bbox: block.bbox,
    paragraphs: block.paragraphs.map((p) => ({
      lines: p.lines.flatMap((line) => {
        const over = englishLines.filter((e) => !used.has(e) && overlaps(e.bbox, line.bbox));
        if (!over.length || meanConfidence(over) <= meanConfidence([line])) return [line];
        over.forEach((e) => used.add(e));
        return over;
      }),
    })),
  }));
  for (const block of english.blocks) {
    const paragraphs = block.paragraphs
      .map((p) => ({
        lines: p.lines.filter(
          (e) =>
            !used.has(e) &&
            meanConfidence([e]) >= LONE_LINE_CONFIDENCE &&
            !other.blocks.some((b) => b.paragraphs.some((q) => q.lines.some((l) => overlaps(e.bbox, l.bbox)))),
        ),
      }))
      .filter((p) => p.lines.length);
    if (paragraphs.length) blocks.push({ bbox: block.bbox, paragraphs });
  }
  const words = blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
  return {
    blocks: blocks.sort((x, y) => x.bbox.y0 - y.bbox.y0 || x.bbox.x0 - y.bbox.x0),
    confidence: words.length ? words.reduce((n, w) => n + w.confidence, 0) / words.length : 0,
  };
}

function meanConfidence(lines: ReadLine[]): number {
  const words = lines.flatMap((l) => l.words);
  return words.length ? words.reduce((n, w) => n + w.confidence, 0) / words.length : 0;
}

function overlaps(a: Box, b: Box): boolean {
  const vertical = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const shorter = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return shorter > 0 && vertical >= shorter * SAME_LINE_OVERLAP && Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0);
}
