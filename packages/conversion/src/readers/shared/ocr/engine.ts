import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  ENGLISH,
  isScriptDetectorInstalled,
  isVertical,
  joinsWithoutSpace,
  CONFIDENT_READING,
  isHangulPair,
  languageForScript,
  MIN_SCRIPT_CONFIDENCE,
  SYLLABLE_GAP,
  verticalVariant,
  readsAsLatinText,
  SCRIPT_DETECTOR,
} from './scripts';
import { ConversionError } from '../../../types';
import { median } from './boxes';
import { unreadInkShare } from './ink';
import { joinSideBySide } from './side-by-side';

/** Largest image accepted, in pixels (a decompression bomb fails here, before decoding). */
export const MAX_IMAGE_PIXELS = 60_000_000;
/** Words recognised with less confidence than this are treated as noise. */
const MIN_WORD_CONFIDENCE = 35;
/** A blank gap between two lines taller than this share of the line height separates paragraphs. */
export const PARAGRAPH_GAP = 0.6;
/** OCR works best with text about 30 px high; small images are upscaled towards this width. */
const TARGET_MIN_WIDTH = 1800;
/** The resolution a prepared image is said to have: text upscaled to about 30 px high is 10 pt at 216 dpi. */
const UPSCALED_DPI = 216;
/** zlib level for a PNG made only to be read again at once. */
const FAST_PNG = 1;
/** A page whose layout analysis leaves more than this share of its lines of ink unread is read again as one block. */
const MAX_UNREAD_INK = 0.2;

/** Tesseract's own variable names the folder of system traineddata (Debian's tesseract-ocr-* packages). */
const SYSTEM_TESSDATA = process.env.TESSDATA_PREFIX ?? '/usr/share/tesseract-ocr/5/tessdata';

const engines = new Map<string, Promise<Worker>>();

/**
 * One Tesseract engine per language set and thread, created on first use and reused for every
 * later image. English LSTM data comes from @tesseract.js-data/eng; other scripts and the script
 * detector (osd) from the system's traineddata folder. Nothing is fetched or cached to disk.
 */
function ocrEngine(language: string): Promise<Worker> {
  let engine = engines.get(language);
  if (!engine) {
    engine = createEngine(language);
    engines.set(language, engine);
    engine.catch(() => engines.delete(language));
  }
  return engine;
}

function createEngine(language: string): Promise<Worker> {
  const quiet = { cacheMethod: 'none', logger: () => undefined, errorHandler: () => undefined };
  if (language === ENGLISH) {
    const langPath = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
    return createWorker(ENGLISH, OEM.LSTM_ONLY, { langPath, gzip: true, ...quiet });
  }
  if (language === SCRIPT_DETECTOR) {
    // Orientation and script detection exists only in the legacy engine.
    return createWorker(SCRIPT_DETECTOR, OEM.TESSERACT_ONLY, {
      langPath: SYSTEM_TESSDATA,
      gzip: false,
      legacyCore: true,
      legacyLang: true,
      ...quiet,
    } as Parameters<typeof createWorker>[2]);
  }
  return createWorker(language, OEM.LSTM_ONLY, { langPath: SYSTEM_TESSDATA, gzip: false, ...quiet });
}

/** Closes this thread's engines (end of a CLI run or a test). */
export async function closeOcrEngine(): Promise<void> {
  const current = [...engines.values()];
  engines.clear();
  await Promise.all(current.map(async (engine) => (await engine.catch(() => undefined))?.terminate()));
}

/** A decoded grey image, one byte per pixel: what OCR and ruling-line detection read. */
export interface PreparedImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/** Decodes, orients (EXIF), greys, upscales small text and normalises contrast. */
export async function prepareImage(input: Buffer): Promise<PreparedImage> {
  try {
    const image = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
    const meta = await image.metadata();
    const width = meta.autoOrient?.width ?? meta.width ?? 0;
    const scale = width > 0 && width < TARGET_MIN_WIDTH ? Math.min(4, TARGET_MIN_WIDTH / width) : 1;
    let pipeline = image.flatten({ background: 'white' }).greyscale();
    if (scale > 1.05) pipeline = pipeline.resize({ width: Math.round(width * scale), kernel: 'lanczos3' });
    const { data, info } = await pipeline.normalise().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    return { pixels: data, width: info.width, height: info.height };
  } catch (err) {
    const message = (err as Error).message;
    if (/pixel limit/i.test(message)) {
      throw new ConversionError('too_large', `The image has more than ${MAX_IMAGE_PIXELS / 1_000_000} million pixels.`);
    }
    throw new ConversionError('corrupt_file', `The image could not be decoded: ${message}`);
  }
}

/** A region of a prepared image with a white margin around it, as an image of its own. */
export async function cropImage(
  image: PreparedImage,
  box: { left: number; top: number; width: number; height: number },
  margin: number,
): Promise<PreparedImage> {
  const { data, info } = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 1 } })
    .extract(box)
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: 'white' })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

/**
 * The image as a binary PGM: Tesseract's image library reads it without decompressing, where a PNG
 * would be compressed here and inflated again inside the WebAssembly engine.
 */
function asPgm(image: PreparedImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii'), image.pixels]);
}

/**
 * The image as a PNG that states a resolution, for the script detector: it reads the resolution
 * from the file alone and prints "Invalid resolution 0 dpi" on stderr for a PGM, which has none.
 */
function asPngWithResolution(image: PreparedImage): Promise<Buffer> {
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 1 } })
    .withMetadata({ density: UPSCALED_DPI })
    .png({ compressionLevel: FAST_PNG })
    .toBuffer();
}

export interface OcrResult {
  paragraphs: string[];
  confidence: number;
  /** The prepared image the words' boxes refer to (for ruling lines). */
  image: PreparedImage;
  /** Recognised words with their boxes, for layout analysis. */
  words: OcrWord[];
  /** The Tesseract language the text was read in (eng, jpn, jpn_vert, …). */
  language: string;
}

export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  line: number;
}

/**
 * How the text of an image is laid out: a whole page (Tesseract's page layout analysis finds
 * blocks of any size, a large title, text on dark bands, columns), or one block (a table cell cut out).
 */
export type TextLayout = 'page' | 'block';

/**
 * Recognises a prepared image in the language its script needs: English first (most documents);
 * when that reads poorly, the script detector picks another installed language (vertical CJK
 * included) and the better-read result wins. `language` skips detection (cells of a page already read).
 */
export async function recognise(
  image: PreparedImage,
  language?: string,
  layout: TextLayout = 'page',
): Promise<OcrResult> {
  if (language) return readText(image, language, layout);
  const english = await readText(image, ENGLISH, layout);
  if (readsAsLatinText(english)) return english;
  const other = await detectLanguage(image);
  if (!other) return english;
  let result = await readText(image, other, layout);
  // The detector sees the same upright characters in rows and in columns: a poor reading may be vertical text.
  const vertical = result.confidence < CONFIDENT_READING ? verticalVariant(other, SYSTEM_TESSDATA) : undefined;
  if (vertical) {
    const columns = await readText(image, vertical, layout);
    if (columns.confidence > result.confidence) result = columns;
  }
  return result.confidence > english.confidence ? result : english;
}

/**
 * A page is read with Tesseract's page layout analysis, which keeps a large or light title, text
 * on dark bands and columns that one uniform block loses; when that analysis leaves lines of ink
 * unread (it took a noisy region for a picture), the page is read again as one block and the
 * reading with more words wins. Other scripts, vertical text and cut-out cells are read as one block.
 */
async function readText(image: PreparedImage, language: string, layout: TextLayout): Promise<OcrResult> {
  if (isVertical(language)) return readWith(image, language, PSM.SINGLE_BLOCK_VERT_TEXT);
  // Other scripts keep one block: the layout analysis takes rows of Korean syllables for vertical columns.
  if (layout === 'block' || language !== ENGLISH) return readWith(image, language, PSM.SINGLE_BLOCK);
  const page = await readWith(image, language, PSM.AUTO);
  const lineHeight = median(page.words.map((w) => w.y1 - w.y0));
  if (unreadInkShare(image, page.words, lineHeight) <= MAX_UNREAD_INK) return page;
  const block = await readWith(image, language, PSM.SINGLE_BLOCK);
  return block.words.length > page.words.length ? block : page;
}

/** The installed language for the image's script, or undefined when the detector finds none or it is not installed. */
async function detectLanguage(image: PreparedImage): Promise<string | undefined> {
  if (!isScriptDetectorInstalled(SYSTEM_TESSDATA)) return undefined;
  const detector = await ocrEngine(SCRIPT_DETECTOR);
  const { data } = await detector.detect(await asPngWithResolution(image)).catch(() => ({ data: undefined }));
  if (!data?.script || (data.script_confidence ?? 0) < MIN_SCRIPT_CONFIDENCE) return undefined;
  return languageForScript(data.script, SYSTEM_TESSDATA);
}

/** One pass of one language's engine; paragraphs are rebuilt from Tesseract's blocks and lines, noise dropped. */
async function readWith(image: PreparedImage, language: string, segmentation: PSM): Promise<OcrResult> {
  const worker = await ocrEngine(language);
  await worker.setParameters({ tessedit_pageseg_mode: segmentation });
  // `debug` collects Tesseract's own messages ("Estimating resolution as …" for an image without DPI) instead of printing them.
  const { data } = await worker.recognize(asPgm(image), {}, { blocks: true, text: false, debug: true });
  const blocks = joinSideBySide(data.blocks ?? []);
  const paragraphs: string[] = [];
  const words: OcrWord[] = [];
  let lineNo = 0;
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lineNo++;
        for (const w of line.words) {
          if (w.confidence >= MIN_WORD_CONFIDENCE) words.push({ text: w.text, ...w.bbox, line: lineNo });
        }
      }
    }
  }
  for (const block of blocks) {
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
        const words = joinWords(
          line.words
            .filter((w) => w.confidence >= MIN_WORD_CONFIDENCE || /^[\p{L}\p{N}]{3,}$/u.test(w.text))
            .map((w) => ({ text: w.text.trim(), x0: w.bbox.x0, x1: w.bbox.x1 }))
            .filter((w) => w.text),
          line.bbox.y1 - line.bbox.y0,
        );
        if (!words || !/[\p{L}\p{N}]/u.test(words)) continue;
        text = joinLine(text, words);
      }
      if (text) paragraphs.push(text);
    }
  }
  return { paragraphs, confidence: data.confidence, words, image, language };
}

/** OCR of an image file in any format sharp reads. */
export async function ocrImage(input: Buffer): Promise<OcrResult> {
  return recognise(await prepareImage(input));
}

/** Appends a line to a paragraph, re-joining a word hyphenated across the break; CJK runs on without spaces. */
export function joinLine(paragraph: string, line: string): string {
  if (!paragraph) return line;
  if (/\p{Ll}-$/u.test(paragraph)) return paragraph.slice(0, -1) + line;
  return joinsWithoutSpace(paragraph, line) ? paragraph + line : `${paragraph} ${line}`;
}

/**
 * Words of a line as text. Tesseract cuts Chinese and Japanese into characters and Korean into
 * syllables: CJK runs on, and Hangul words whose boxes nearly touch are one word.
 */
export function joinWords(words: Array<{ text: string; x0: number; x1: number }>, lineHeight: number): string {
  let text = '';
  let previous: { text: string; x1: number } | undefined;
  for (const word of words) {
    const touching = previous !== undefined && word.x0 - previous.x1 < lineHeight * SYLLABLE_GAP;
    const glued =
      previous && (joinsWithoutSpace(previous.text, word.text) || (touching && isHangulPair(previous.text, word.text)));
    text = !previous ? word.text : glued ? text + word.text : `${text} ${word.text}`;
    previous = word;
  }
  return text;
}
