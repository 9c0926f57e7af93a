import path from 'node:path';
import sharp, { type ResizeOptions } from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import {
  alternativesFor,
  ENGLISH,
  isScriptDetectorInstalled,
  isVertical,
  joinsWithoutSpace,
  MIN_SCRIPT_CONFIDENCE,
  isHangulPair,
  languageForScript,
  SYLLABLE_GAP,
  verticalVariant,
  SCRIPT_DETECTOR,
  SYSTEM_TESSDATA,
} from './scripts';
import { ConversionError } from '../../../types';
import { median, type Box } from './boxes';
import { blackPercentile } from './contrast';
import { BULLET, hasSkippedBullet, withBulletNamed } from './bullets';
import { INK_LEVEL, isSpeckled, ruledGrid, unreadInkShare, withoutHorizontalRules } from './ink';
import { comparableTypeHeight, differentType, lineHeightOf, typeHeightOfWords } from './text-size';
import { joinSideBySide } from './side-by-side';
import { usesNativeEngine } from './engine-choice';
import {
  detectNative,
  pgm,
  readNative,
  type PageReading,
  type ReadLine,
  type ReadWord,
  type ScriptReport,
} from './native-tesseract';
import {
  confidentLatinLines,
  eraseBoxes,
  lineBoxes,
  mergeReadings,
  preferBetterLines,
  rotateImage,
  scaleImage,
  unrotateReading,
  wordCount,
} from './script-regions';

/** Largest image accepted, in pixels (a decompression bomb fails here, before decoding). */
export const MAX_IMAGE_PIXELS = 60_000_000;
/** Words recognised with less confidence than this are treated as noise. */
const MIN_WORD_CONFIDENCE = 35;
/** A blank gap between two lines taller than this share of the line height separates paragraphs. */
export const PARAGRAPH_GAP = 0.6;
/** OCR works best with lines of text about this many pixels high; smaller text is upscaled towards it. */
const TARGET_LINE_PX = 36;
/** An image in which no line of text is found is upscaled towards this width. */
const TARGET_MIN_WIDTH = 1800;
/**
 * Upscaling by at most this factor, and not at all by less than MIN_UPSCALE: Tesseract's time
 * grows with the pixels, and text whose lines are already two thirds of the target (10 pt at
 * 200 dpi) reads as well unscaled (docs/decisions.md, "OCR upscaling").
 */
const MAX_UPSCALE = 4;
const MIN_UPSCALE = 1.5;
/** Nor beyond this many pixels: a large page of small text (a poster, a web capture) is read as it is. */
const MAX_UPSCALED_PIXELS = 40_000_000;
/** Tesseract refuses an image wider or taller than this ("Image too large"): a longer one is scaled down to it. */
export const MAX_OCR_SIDE = 32_767;
/** The resolution a prepared image is said to have: text upscaled to about 30 px high is 10 pt at 216 dpi. */
const UPSCALED_DPI = 216;
/** zlib level for a PNG made only to be read again at once. */
const FAST_PNG = 1;
/** A page whose layout analysis leaves more than this share of its lines of ink unread is read again as one block. */
const MAX_UNREAD_INK = 0.2;

/** The script detector's orientation confidence below which a page is not turned. */
const MIN_ORIENTATION_CONFIDENCE = 1.5;
/** The detector's name for the script English reads. */
const LATIN_SCRIPT = 'Latin';
/** An unsure script detection is asked again on the image enlarged this much… */
const DETECTOR_RETRY_SCALE = 2;
/** …when the image has at most this many pixels (a full page is large enough already). */
const MAX_PIXELS_TO_ENLARGE = 2_000_000;
/** Times a page is turned upright and read again at most (a detector that keeps answering "turned" stops here). */
const MAX_TURNS = 1;
/** The line height assumed for finding unread ink when no line was read. */
const DEFAULT_LINE_HEIGHT = 30;

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
  /** The decoded image's size (after EXIF orientation), before any upscaling: what "image pixels" are to a user. */
  source?: { width: number; height: number };
}

/** Decodes, orients (EXIF), greys, normalises contrast (blackPercentile), upscales small text and shrinks what Tesseract can't take. */
export async function prepareImage(input: Buffer): Promise<PreparedImage> {
  try {
    const image = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
    const grey = await image
      .flatten({ background: 'white' })
      .greyscale()
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { data, info } = await sharp(grey.data, {
      raw: { width: grey.info.width, height: grey.info.height, channels: 1 },
    })
      .normalise({ lower: blackPercentile(grey.data) })
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const scale = Math.min(upscaleFor(data, info.width, info.height), MAX_OCR_SIDE / Math.max(info.width, info.height));
    const source = { width: info.width, height: info.height };
    if (scale >= 1 && scale <= MIN_UPSCALE)
      return despeckled({ pixels: data, width: info.width, height: info.height, source });
    const resized = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .resize(sizeFor(info.width, info.height, scale))
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    return despeckled({ pixels: resized.data, width: resized.info.width, height: resized.info.height, source });
  } catch (err) {
    const message = (err as Error).message;
    if (/pixel limit/i.test(message)) {
      throw new ConversionError('too_large', `The image has more than ${MAX_IMAGE_PIXELS / 1_000_000} million pixels.`);
    }
    throw new ConversionError('corrupt_file', `The image could not be decoded: ${message}`);
  }
}

/**
 * The resize to `scale`: by width, the height following (as always); both sides given when the longer
 * one is at Tesseract's limit, where the height sharp derives could round a pixel past it.
 */
function sizeFor(width: number, height: number, scale: number): ResizeOptions {
  const kernel = 'lanczos3';
  if (Math.max(width, height) * scale < MAX_OCR_SIDE) return { width: Math.round(width * scale), kernel };
  const side = (n: number) => Math.min(MAX_OCR_SIDE, Math.round(n * scale));
  return { width: side(width), height: side(height), fit: 'fill', kernel };
}

/** Window of the median filter that clears a speckled page (text at reading size keeps its strokes). */
const DESPECKLE_WINDOW = 5;

/** The image, median-filtered when it is covered in specks (see isSpeckled). */
async function despeckled(image: PreparedImage): Promise<PreparedImage> {
  if (!isSpeckled(image)) return image;
  const { data, info } = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 1 } })
    .median(DESPECKLE_WINDOW)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, source: image.source };
}

/**
 * How much to enlarge an image so its text is about TARGET_LINE_PX high: decided on the height of
 * its lines of ink (text set large needs nothing, and enlarging it costs accuracy in CJK), on its
 * width when no line of ink is found.
 */
function upscaleFor(pixels: Buffer, width: number, height: number): number {
  const line = lineHeightOf(pixels, width, height);
  const wanted = line ? TARGET_LINE_PX / line : width > 0 && width < TARGET_MIN_WIDTH ? TARGET_MIN_WIDTH / width : 1;
  return Math.max(1, Math.min(MAX_UPSCALE, wanted, Math.sqrt(MAX_UPSCALED_PIXELS / Math.max(1, width * height))));
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
  return pgm(image.pixels, image.width, image.height);
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
  /** Per paragraph, the full height of its type in the prepared image's pixels (typeHeightOf): what tells headings. */
  paragraphSizes: number[];
  confidence: number;
  /** The prepared image the words' boxes refer to (for ruling lines). */
  image: PreparedImage;
  /** Recognised words with their boxes, for layout analysis. */
  words: OcrWord[];
  /** The Tesseract language the text was read in (eng, jpn, jpn_vert, …); the other script's on a mixed page. */
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

/** One reading of an image in one language. */
interface Reading {
  page: PageReading;
  language: string;
}

/**
 * Recognises a prepared image, finding its scripts and orientation region by region: English
 * first (most documents); the lines it reads with confidence are kept and painted out, and the
 * script detector looks at what is left. A page turned a quarter or half turn is turned upright and
 * read again; the rest of a mixed page is read in its own script's language (vertical CJK
 * included) and put together with the English lines in page order. `language` skips detection
 * (cells of a page already read).
 */
export async function recognise(
  image: PreparedImage,
  language?: string,
  layout: TextLayout = 'page',
): Promise<OcrResult> {
  if (language) return asResult(await readText(image, language, layout), image);
  return asResult(await readAnyScript(image, layout, MAX_TURNS), image);
}

async function readAnyScript(image: PreparedImage, layout: TextLayout, turns: number): Promise<Reading> {
  const english = await readText(image, ENGLISH, layout);
  const kept = confidentLatinLines(english.page);
  const rest = eraseBoxes(image, lineBoxes(kept));
  const lineHeight = median(
    kept.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.map((l) => l.bbox.y1 - l.bbox.y0))),
  );
  // Every line of ink read as confident Latin text: an English page, no detector needed.
  if (wordCount(kept) && unreadInkShare(rest, [], lineHeight || DEFAULT_LINE_HEIGHT) === 0) return english;
  const report = await detectScript(rest);
  if (!report) return english;
  const upright = report.orientationConfidence >= MIN_ORIENTATION_CONFIDENCE ? (360 - report.orientation) % 360 : 0;
  // A page read upside down or sideways has no confident lines: turn it upright and read it again.
  if (upright && !wordCount(kept) && turns > 0) {
    const turned = await readAnyScript(await rotateImage(image, upright), layout, turns - 1);
    return { ...turned, page: unrotateReading(turned.page, upright, image.width, image.height) };
  }
  // The detector's script confidence is low for Hangul and Han even on clean pages: any script it
  // names is tried, and each line keeps whichever reading of it is more confident.
  const other = languageForScript(report.script, SYSTEM_TESSDATA);
  if (!other) return english;
  const region = upright ? await rotateImage(rest, upright) : rest;
  let read = await readOtherScript(region, other, report.script);
  if (upright) read = { ...read, page: unrotateReading(read.page, upright, rest.width, rest.height) };
  const lines = preferBetterLines(read.page, upright ? { blocks: [], confidence: 0 } : english.page, kept);
  return { page: mergeReadings(kept, lines), language: read.language };
}

/**
 * The rest of a page in the language of its script: Han is read as simplified and, when that
 * reads poorly, as traditional Chinese; a poor reading of CJK may be vertical text (the detector
 * sees the same upright characters in rows and in columns). The best-read one wins.
 */
async function readOtherScript(image: PreparedImage, language: string, script: string): Promise<Reading> {
  let best = await readText(image, language, 'block');
  // Simplified and traditional Chinese look alike to the detector: both are read, the more confident wins.
  for (const candidate of alternativesFor(script, language, SYSTEM_TESSDATA)) {
    const next = await readText(image, candidate, 'block');
    if (next.page.confidence > best.page.confidence) best = next;
  }
  // Rows read with confidence from columns of CJK now and then: the vertical model is always tried too.
  const vertical = verticalVariant(best.language, SYSTEM_TESSDATA);
  if (vertical) {
    const columns = await readText(image, vertical, 'block');
    if (columns.page.confidence > best.page.confidence) best = columns;
  }
  return best;
}

/**
 * A page is read with Tesseract's page layout analysis, which keeps a large or light title, text
 * on dark bands and columns that one uniform block loses; when that analysis leaves lines of ink
 * unread (it took a noisy region for a picture), the page is read again as one block and the
 * reading with more words wins. Other scripts, vertical text and cut-out cells are read as one block.
 */
async function readText(image: PreparedImage, language: string, layout: TextLayout): Promise<Reading> {
  if (isVertical(language)) return { page: await readPage(image, language, PSM.SINGLE_BLOCK_VERT_TEXT), language };
  // Other scripts keep one block: the layout analysis takes rows of Korean syllables for vertical columns.
  if (layout === 'block' || language !== ENGLISH)
    return { page: await readPage(image, language, PSM.SINGLE_BLOCK), language };
  const page = await readPage(image, language, PSM.AUTO);
  const lineHeight = median(wordsOf(page).map((w) => w.bbox.y1 - w.bbox.y0));
  if (
    unreadInkShare(
      image,
      wordsOf(page).map((w) => w.bbox),
      lineHeight,
    ) <= MAX_UNREAD_INK
  )
    return { page, language };
  const block = await readPage(image, language, PSM.SINGLE_BLOCK);
  return { page: wordCount(block) > wordCount(page) ? block : page, language };
}

function wordsOf(page: PageReading): ReadWord[] {
  return page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
}

/**
 * One pass of one language's engine: Debian's tesseract in a child process when it and the
 * language's traineddata are installed, the WebAssembly engine in this thread otherwise.
 */
async function readPage(image: PreparedImage, language: string, segmentation: PSM): Promise<PageReading> {
  if (usesNativeEngine(language)) {
    return readNative(asPgm(image), language, Number(segmentation), { tessdata: SYSTEM_TESSDATA });
  }
  const worker = await ocrEngine(language);
  await worker.setParameters({ tessedit_pageseg_mode: segmentation });
  // `debug` collects Tesseract's own messages ("Estimating resolution as …" for an image without DPI) instead of printing them.
  const { data } = await worker.recognize(asPgm(image), {}, { blocks: true, text: false, debug: true });
  return { blocks: data.blocks ?? [], confidence: data.confidence };
}

/**
 * The script and orientation of the image's text, or undefined when the detector finds too little
 * or is not installed. The detector misnames large CJK text at its size now and then (Hangul as
 * Arabic with no confidence, or as Latin, which English just failed to read): such an answer on a
 * small image is asked again at twice the size, and a non-Latin answer there is taken.
 */
async function detectScript(image: PreparedImage): Promise<ScriptReport | undefined> {
  if (!isScriptDetectorInstalled(SYSTEM_TESSDATA)) return undefined;
  const report = await detectOnce(image);
  const unsure = !report || report.scriptConfidence < MIN_SCRIPT_CONFIDENCE || report.script === LATIN_SCRIPT;
  if (!unsure || image.width * image.height > MAX_PIXELS_TO_ENLARGE) return report;
  const larger = await detectOnce(await scaleImage(image, DETECTOR_RETRY_SCALE));
  if (!larger) return report;
  if (larger.script !== LATIN_SCRIPT || larger.scriptConfidence > (report?.scriptConfidence ?? -1)) return larger;
  return report;
}

async function detectOnce(image: PreparedImage): Promise<ScriptReport | undefined> {
  if (usesNativeEngine(SCRIPT_DETECTOR)) {
    return detectNative(asPgm(image), { tessdata: SYSTEM_TESSDATA, dpi: UPSCALED_DPI });
  }
  const detector = await ocrEngine(SCRIPT_DETECTOR);
  const { data } = await detector.detect(await asPngWithResolution(image)).catch(() => ({ data: undefined }));
  if (!data?.script) return undefined;
  return {
    script: data.script,
    scriptConfidence: data.script_confidence ?? 0,
    orientation: data.orientation_degrees ?? 0,
    orientationConfidence: data.orientation_confidence ?? 0,
  };
}

/** A step between two lines' tops this much longer than the page's usual line pitch starts a new paragraph. */
const PARAGRAPH_STEP = 1.3;
/** A line that starts with a list item's marker (a bullet named by withBulletNamed, or a number). */
const ITEM_START = /^(?:•|\d{1,3}[.)])\s/u;

/** A reading as paragraphs rebuilt from Tesseract's blocks and lines, noise dropped, and the words' boxes. */
function asResult(reading: Reading, image: PreparedImage): OcrResult {
  const blocks = joinSideBySide(reading.page.blocks).map((block) => ({
    ...block,
    paragraphs: block.paragraphs.map((p) => ({ lines: withBullets(p.lines, image) })),
  }));
  const paragraphs: string[] = [];
  const paragraphSizes: number[] = [];
  const words: OcrWord[] = [];
  let lineNo = 0;
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lineNo++;
        for (const w of line.words) {
          if (w.confidence >= MIN_WORD_CONFIDENCE || w.text === BULLET)
            words.push({ text: w.text, ...w.bbox, line: lineNo });
        }
      }
    }
  }
  const pitch = linePitch(blocks.flatMap((b) => b.paragraphs));
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      // Tesseract often keeps paragraphs separated only by a blank line in one paragraph, and list
      // items in one paragraph: split at such gaps and before each item's marker.
      const lineHeight = median(paragraph.lines.map((l) => l.bbox.y1 - l.bbox.y0));
      let text = '';
      let kept: ReadWord[] = [];
      let previousTop: number | undefined;
      let previousSize = 0;
      const flush = (): void => {
        if (text) {
          paragraphs.push(text);
          paragraphSizes.push(typeHeightOfWords(kept.map((w) => ({ text: w.text, ...w.bbox }))));
        }
        text = '';
        kept = [];
      };
      for (const line of paragraph.lines) {
        const step = previousTop === undefined ? 0 : line.bbox.y0 - previousTop;
        previousTop = line.bbox.y0;
        const lineWords = line.words
          .filter((w) => w.confidence >= MIN_WORD_CONFIDENCE || w.text === BULLET || /^[\p{L}\p{N}]{3,}$/u.test(w.text))
          .map((w) => ({ ...w, text: w.text.trim() }))
          .filter((w) => w.text);
        const joined = joinWords(
          lineWords.map((w) => ({ text: w.text, x0: w.bbox.x0, x1: w.bbox.x1 })),
          line.bbox.y1 - line.bbox.y0,
        );
        if (!joined || !/[\p{L}\p{N}]/u.test(joined)) continue;
        const item = ITEM_START.test(joined) && (joined.startsWith(BULLET) || ITEM_START.test(text));
        const size = comparableTypeHeight(lineWords.map((w) => ({ text: w.text, ...w.bbox })));
        const gap = step > lineHeight * Math.max(1 + PARAGRAPH_GAP, pitch * PARAGRAPH_STEP);
        if (text && (gap || item || differentType(size, previousSize))) flush();
        previousSize = size;
        text = joinLine(text, joined);
        kept.push(...lineWords.filter((w) => w.text !== BULLET));
      }
      flush();
    }
  }
  return { paragraphs, paragraphSizes, confidence: reading.page.confidence, words, image, language: reading.language };
}

/**
 * A paragraph's lines with their drawn bullets named (withBulletNamed), and a bullet Tesseract
 * skipped restored where an item above had one at the same place (hasSkippedBullet).
 */
function withBullets(lines: ReadLine[], image: PreparedImage): ReadLine[] {
  let above: { bullet: Box; line: Box; textStart: number } | undefined;
  return lines.map((line) => {
    let words = withBulletNamed(line.words);
    if (words[0]?.text !== BULLET && above && hasSkippedBullet(image, line, above, INK_LEVEL)) {
      const top = line.bbox.y0 + (above.bullet.y0 - above.line.y0);
      const bbox = { ...above.bullet, y0: top, y1: top + above.bullet.y1 - above.bullet.y0 };
      words = [{ text: BULLET, confidence: MIN_WORD_CONFIDENCE, bbox }, ...words];
    }
    if (words[0]?.text === BULLET && words[1])
      above = { bullet: words[0].bbox, line: line.bbox, textStart: words[1].bbox.x0 };
    return { ...line, words };
  });
}

/**
 * The page's usual step from one line's top to the next inside a paragraph, in line heights (tops,
 * because a line without descenders has a shorter box and so a wider gap below it).
 */
function linePitch(paragraphs: Array<{ lines: Array<{ bbox: Box }> }>): number {
  const steps: number[] = [];
  for (const p of paragraphs) {
    const lineHeight = median(p.lines.map((l) => l.bbox.y1 - l.bbox.y0));
    if (!lineHeight) continue;
    for (let i = 1; i < p.lines.length; i++) steps.push((p.lines[i]!.bbox.y0 - p.lines[i - 1]!.bbox.y0) / lineHeight);
  }
  return median(steps.filter((s) => s > 0));
}

/** OCR of an image file in any format sharp reads. */
export async function ocrImage(input: Buffer): Promise<OcrResult> {
  const image = await prepareImage(input);
  // Horizontal rules outside a ruled grid (whose cells are cut out and read inside their rules) are
  // painted out before reading; the result keeps the image as it was, rules and all.
  const plain = ruledGrid(image) ? undefined : withoutHorizontalRules(image);
  if (!plain) return recognise(image);
  return { ...(await recognise(plain)), image };
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
