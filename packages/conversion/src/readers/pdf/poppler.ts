import type { TextItem } from './layout';
import type { StyledRun } from './styled-runs';
import { runTool } from './tool-runner';
import { isMonospacedFont } from './glyph-widths';
import { verticalTextTurned } from './vertical-text';
import { ideographOfRadical } from './cjk-radicals';
import { composedText } from '../../document/composed-text';
import { withoutOverprint } from './overprinted-text';

/** A child tool that runs longer than this is stuck on a hostile file; the worker's own deadline is the real limit. */
const TOOL_TIMEOUT_MS = 300_000;
/** pdftohtml's XML for the largest accepted PDF (2000 dense pages) stays well under this. */
const MAX_XML_BYTES = 512 * 1024 * 1024;

export interface PopplerPage {
  number: number;
  width: number;
  height: number;
  items: TextItem[];
}

/** Pages read at most; a longer PDF fails with a message saying so (the reader reads pages 1 to this + 1 to know). */
export const MAX_PDF_PAGES = 2000;

/**
 * Positioned text of pages `from`..`to` from poppler's pdftohtml (XML, 1 unit = 1 pt, invisible
 * text included so OCR'd text layers are read): about as fast as pdftotext, with each run's font size and weight.
 * Pages keep their number in the file. Read from pdftohtml, or from the output offered for these bytes and pages.
 */
export async function readPages(input: Buffer, from: number, to: number, signal?: AbortSignal): Promise<PopplerPage[]> {
  return parsePdf2Xml(takeOffered(input, from, to) ?? (await pdftohtmlXml(input, from, to, signal)));
}

/**
 * pdftohtml's XML of pages `from`..`to`. The file goes in on stdin (`fd://0`), so no temporary file is written;
 * `-stdout` keeps the output name unused. `-nodrm`: a file whose owner forbids copying text (no password to open
 * it) is read as pdftotext and pdf.js read it; pdftohtml refused it and the conversion failed.
 */
export async function pdftohtmlXml(input: Buffer, from: number, to: number, signal?: AbortSignal): Promise<string> {
  return runTool(
    'pdftohtml',
    [
      '-xml',
      '-i',
      '-hidden',
      '-nodrm',
      '-q',
      '-stdout',
      '-zoom',
      '1',
      '-f',
      String(from),
      '-l',
      String(to),
      'fd://0',
      'out',
    ],
    input,
    { timeoutMs: TOOL_TIMEOUT_MS, maxBytes: MAX_XML_BYTES, signal },
  );
}

/** pdftohtml's XML of a whole file (pages 1 to MAX_PDF_PAGES + 1, as the reader asks without a page range), made ahead. */
export interface OfferedPdftohtml {
  input: Uint8Array;
  xml: string;
}

let offered: { input: Uint8Array; from: number; to: number; xml: string } | undefined;

/**
 * Offers the whole-file output pdftohtml gave for `input` (the CLI reads a batch's next PDF on the other
 * core while the worker converts the current one), for the next readPages of the same bytes and pages;
 * undefined withdraws it. Only exactly that read takes it: any other falls back to running pdftohtml.
 */
export function offerPdftohtmlOutput(offer: OfferedPdftohtml | undefined): void {
  offered = offer && { input: offer.input, from: 1, to: MAX_PDF_PAGES + 1, xml: offer.xml };
}

function takeOffered(input: Buffer, from: number, to: number): string | undefined {
  const offer = offered;
  if (!offer || offer.from !== from || offer.to !== to || !input.equals(offer.input)) return undefined;
  offered = undefined;
  return offer.xml;
}

/**
 * Only the spans of a page range (E2), one pdftohtml run each, so unselected pages cost nothing.
 * A span that poppler refuses is reported by its first page (a span past the file's end fails),
 * for the caller to judge once the page count is known.
 */
export async function readPageSpans(
  input: Buffer,
  spans: ReadonlyArray<readonly [number, number]>,
  signal?: AbortSignal,
): Promise<{ pages: PopplerPage[]; failed: number[] }> {
  const pages: PopplerPage[] = [];
  const failed: number[] = [];
  for (const [from, to] of spans) {
    try {
      pages.push(...(await readPages(input, from, to, signal)));
    } catch {
      failed.push(from);
    }
  }
  return { pages, failed };
}

const PAGE = /<page number="(\d+)"[^>]*? height="([\d.]+)" width="([\d.]+)">([\s\S]*?)<\/page>/g;
const FONTSPEC = /<fontspec id="(\d+)" size="([\d.-]+)" family="([^"]*)"/g;
const TEXT =
  /<text top="(-?[\d.]+)" left="(-?[\d.]+)" width="(-?[\d.]+)" height="(-?[\d.]+)" font="(\d+)">(.*?)<\/text>/g;

/**
 * Reads pdftohtml's pdf2xml output. Its shape is fixed by poppler (one element per line, attributes in
 * one order), so three expressions read it in a fraction of the time an XML tree costs on a large PDF.
 */
export function parsePdf2Xml(xml: string): PopplerPage[] {
  const fonts: Fonts = new Map();
  const pages: PopplerPage[] = [];
  for (const page of xml.matchAll(PAGE)) pages.push(readPage(page as unknown as PageMatch, fonts));
  return pages;
}

// parsePdf2Xml is split into one small function per element: as one function with its helpers inlined,
// V8 compiled it three times in a worker's first reads (a third of the optimising compiles of a read).
type Fonts = Map<string, PopplerFont>;
interface PopplerFont {
  size: number;
  bold: boolean;
  italic: boolean;
  family: string;
  /** A monospaced face (told once per font, not per text element). */
  monospaced: boolean;
}
type PageMatch = [string, string, string, string, string];

function readPage([, number, h, w, body]: PageMatch, fonts: Fonts): PopplerPage {
  readFontSpecs(body, fonts);
  const height = Number(h);
  const items: TextItem[] = [];
  for (const t of body.matchAll(TEXT)) {
    const item = textItem(t as unknown as string[], fonts, height);
    if (item) items.push(item);
  }
  const drawn = withoutOverprint(items);
  // One scan of the page for the signs' characters; pages without Indic text go no further.
  return verticalTextTurned({
    number: Number(number),
    width: Number(w),
    height,
    items: PRE_BASE_VOWEL_SIGN.test(body) ? indicInReadingOrder(drawn) : drawn,
  });
}

function readFontSpecs(body: string, fonts: Fonts): void {
  // pdftohtml declares a font on the first page that uses it: most pages declare none, and are not scanned for one.
  if (!body.includes('<fontspec ')) return;
  for (const f of body.matchAll(FONTSPEC)) {
    // Subset prefixes ("ABCDEF+") differ between embeddings of one font.
    const family = f[3]!.replace(/^[A-Z]{6}\+/, '');
    fonts.set(f[1]!, {
      size: Number(f[2]),
      bold: BOLD_FONT.test(family),
      italic: ITALIC_FONT.test(family),
      family,
      monospaced: isMonospacedFont(family),
    });
  }
}

/** One `<text>` element as a positioned item; undefined when it holds no text. */
function textItem(t: string[], fonts: Fonts, height: number): TextItem | undefined {
  const [, top, left, width, boxHeight, fontId, raw] = t;
  // Most elements hold neither tags nor entities: each replace is asked only of text that has its character.
  const tagged = raw!.includes('<');
  const font = fonts.get(fontId!) ?? {
    size: Number(boxHeight),
    bold: false,
    italic: false,
    family: '',
    monospaced: false,
  };
  const decoded = normalise(decodeEntities(tagged ? raw!.replace(/<[^>]*>/g, '') : raw!));
  // pdftohtml spells out a word of a monospaced face set wider than its letters ("r e t u r n": TeX's listings).
  const text = font.monospaced && !tagged ? decoded.replace(SPELT_OUT, (word) => word.replace(/ /g, '')) : decoded;
  if (!text) return undefined;
  const bold = font.bold || raw!.startsWith('<b>');
  const italic = font.italic || (tagged && /^(<b>)?<i>/.test(raw!));
  const rtl = RTL_LETTER.test(text);
  // Right-to-left text is reordered as a whole, so it keeps one style.
  const runs = !rtl && tagged ? styledRuns(raw!, font) : undefined;
  const indent = rtl ? 0 : leadingSpaceWidth(text, Number(width), font);
  // Every item has the same fields in the same order (absent ones undefined): one object shape, so the
  // layout code V8 optimises for the first items does not meet other shapes later and deoptimise.
  return {
    text: rtl ? rtlPresentationFormsAsLetters(visualToLogical(text)) : indent ? text.trimStart() : text,
    x: Number(left) + indent,
    // pdf.js convention: y grows upwards from the page bottom; the box's bottom is the steadiest baseline.
    y: height - Number(top) - Number(boxHeight),
    width: Number(width) - indent,
    size: font.size,
    bold,
    font: `${font.family}${bold ? ' bold' : ''}${italic ? ' italic' : ''}`,
    rtl,
    italic,
    runs: runs && runs.length > 1 ? runs : undefined,
    spaceBefore: indent ? true : undefined,
  };
}

/** Three or more single letters, each set apart by one space. */
const SPELT_OUT = /(?<!\S)\p{L}(?: \p{L}){2,}(?!\S)/gu;

/** A space's width in a proportional font, in text sizes (Helvetica and Arial 0.278, Times 0.25). */
const SPACE_WIDTH = 0.27;

/**
 * How far the spaces that open a run of text push its first letter right: a document indented with
 * spaces (a Word agenda's items under their numbers) sets its lines where the letters start, not where
 * the spaces do. Runs of spaces only, and runs that open with a letter, are left as they are.
 */
function leadingSpaceWidth(text: string, width: number, font: PopplerFont): number {
  const spaces = text.charCodeAt(0) === 0x20 ? (/^ +/.exec(text)?.[0].length ?? 0) : 0;
  if (!spaces || spaces === text.length) return 0;
  const perSpace = font.monospaced ? width / text.length : font.size * SPACE_WIDTH;
  return Math.min(spaces * perSpace, width);
}

const STYLE_TAG = /<(\/?)([bi])>|<[^>]*>/g;

/** A text element's parts between pdftohtml's <b> and <i> tags, each with its style (the font's own style included). */
function styledRuns(raw: string, font: { bold: boolean; italic: boolean }): StyledRun[] {
  const runs: StyledRun[] = [];
  let bold = 0;
  let italic = 0;
  let at = 0;
  for (const tag of raw.matchAll(STYLE_TAG)) {
    pushRun(runs, raw.slice(at, tag.index), font.bold || bold > 0, font.italic || italic > 0);
    at = tag.index + tag[0].length;
    const step = tag[1] ? -1 : 1;
    if (tag[2] === 'b') bold = Math.max(0, bold + step);
    else if (tag[2] === 'i') italic = Math.max(0, italic + step);
  }
  pushRun(runs, raw.slice(at), font.bold || bold > 0, font.italic || italic > 0);
  return runs;
}

/** A run of an element's text in one style, unless it holds no text (a plain function: no closure per element). */
function pushRun(runs: StyledRun[], raw: string, bold: boolean, italic: boolean): void {
  const text = normalise(decodeEntities(raw));
  if (text) runs.push({ text, bold, italic });
}

const BOLD_FONT = /bold|black|heavy|semibold|demi|[-,]bd\b|\+?[a-z]*bx\d/i;
const ITALIC_FONT = /italic|oblique|[-,]it\b|\+?[a-z]*ti\d/i;
export const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
const LTR_RUN = /[\p{Script=Latin}\p{Nd}][\p{Script=Latin}\p{Nd}.,:%/\-+]*/gu;

/** Brackets drawn mirrored in right-to-left text: the glyph on the text's right is the opening one. */
const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '«': '»',
  '»': '«',
};

/**
 * pdftohtml writes right-to-left text in visual order: reversed, with Latin words and numbers kept as read,
 * and brackets as their mirrored shapes show them.
 */
export function visualToLogical(text: string): string {
  const reversed = [...text]
    .reverse()
    .map((c) => MIRRORED[c] ?? c)
    .join('');
  return reversed.replace(LTR_RUN, (run) => [...run].reverse().join(''));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/**
 * Glyph forms that fonts map to a compatibility character instead of the letter: Latin ligatures (ﬁ, ﬀ, ﬃ), Kangxi
 * radicals and CJK radical supplements for the ideographs they look like (⽂ for 文, ⻆ for 角), vertical-text forms of CJK punctuation (︑ for 、), and
 * Thai and Lao sara am spelt as its two parts (nikhahit and sara aa: what NFKC makes of it, not what is typed).
 */
const COMPATIBILITY_FORM =
  /[\ufb00-\ufb06\u2e80-\u2eff\u2f00-\u2fdf\ufe10-\ufe19\ufe30-\ufe4f]|\u0e4d\u0e32|\u0ecd\u0eb2/g;
const NORMALISED_OR_NBSP =
  /[\ufb00-\ufb06\u2e80-\u2eff\u2f00-\u2fdf\ufe10-\ufe19\ufe30-\ufe4f\u00a0\u6600]|\u0e4d\u0e32|\u0ecd\u0eb2/;
const SARA_AM: Record<string, string> = { '\u0e4d\u0e32': '\u0e33', '\u0ecd\u0eb2': '\u0eb3' };
/**
 * Ghostscript 10.0's ToUnicode maps of f-ligatures (PDFs it rewrote: ps2pdf, PDF/A, shrinking services) give each
 * letter's code in the high byte ("昀椀" for "fi", U+6600 U+6900) and, for three letters, the last two summed
 * (U+CF00 is f + i): read as the letters when next to a Latin letter, so Chinese text keeps 昀 and 椀.
 */
const SHIFTED_F_LIGATURE =
  /(?<=[A-Za-z])\u6600[\u6600\u6900\u6c00\ucf00\ud200]|\u6600[\u6600\u6900\u6c00\ucf00\ud200](?=[A-Za-z])/g;
const SHIFTED_LIGATURE_LETTERS: Record<string, string> = {
  '\u6600': 'f',
  '\u6900': 'i',
  '\u6c00': 'l',
  '\ucf00': 'fi',
  '\ud200': 'fl',
};

/** Latin, Greek and Cyrillic combining accents: text that spells "é" as "e" and an accent (PDFs made from such text). */
const COMBINING_ACCENT = /[\u0300-\u036f]/;

/**
 * Compatibility glyph forms read as the letters they stand for, non-breaking spaces as spaces, and accents composed
 * with their letters (NFC), so that words are word-shaped to the text-layer checks and read as typed.
 */
function normalise(text: string): string {
  const composed = COMBINING_ACCENT.test(text) ? composedText(text) : text;
  if (!NORMALISED_OR_NBSP.test(composed)) return composed;
  return composed
    .replace(COMPATIBILITY_FORM, compatibilityLetters)
    .replace(/\u00a0/g, ' ')
    .replace(SHIFTED_F_LIGATURE, shiftedLigatureLetters);
}

function shiftedLigatureLetters(pair: string): string {
  return 'f' + SHIFTED_LIGATURE_LETTERS[pair[1]!]!;
}

/** The letters a compatibility form stands for: radicals by Unicode's equivalence table, the rest by NFKC. */
function compatibilityLetters(form: string): string {
  const code = form.charCodeAt(0);
  return code >= 0x2e80 && code <= 0x2eff ? ideographOfRadical(form) : (SARA_AM[form] ?? form.normalize('NFKC'));
}

/** Vowel signs of Indic scripts drawn before the consonant they follow (Devanagari ि, Bengali ি ে ৈ, Tamil ெ ே ை...). */
const PRE_BASE_VOWEL_SIGN = /[\u093f\u09bf\u09c7\u09c8\u0a3f\u0abf\u0b47\u0bc6-\u0bc8\u0d46-\u0d48]/;
/** Such a sign where reading order can't have it: opening a word, or after anything but a consonant or nukta. */
const PRE_BASE_DRAWN_FIRST =
  /(?<![\p{Lo}\u093c\u09bc\u0a3c\u0abc\u0b3c])[\u093f\u09bf\u09c7\u09c8\u0a3f\u0abf\u0b47\u0bc6-\u0bc8\u0d46-\u0d48]/u;
/** A pre-base sign and the consonant cluster after it (consonants joined by viramas, each maybe with a nukta). */
const SIGN_BEFORE_CLUSTER =
  /([\u093f\u09bf\u09c7\u09c8\u0a3f\u0abf\u0b47\u0bc6-\u0bc8\u0d46-\u0d48])(\p{Lo}[\u093c\u09bc\u0a3c\u0abc\u0b3c]?(?:[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0d4d]\p{Lo}[\u093c\u09bc\u0a3c\u0abc\u0b3c]?)*)/gu;

/**
 * A page's Indic text in reading order. Some PDFs (Chromium's among them) map glyphs in the order they are drawn,
 * so a vowel sign drawn left of its consonant comes first ("िहन्दी" for "हिन्दी"). Such a page is told by a sign
 * where reading order can't have it, in any of its words; then every pre-base sign on it goes after the cluster it
 * was drawn before ("क्षित्रय", whose sign follows a consonant, included).
 */
function indicInReadingOrder(items: TextItem[]): TextItem[] {
  if (!items.some((i) => PRE_BASE_DRAWN_FIRST.test(i.text))) return items;
  const reorder = (text: string): string =>
    text.replace(SIGN_BEFORE_CLUSTER, (_, sign: string, cluster: string) => cluster + sign);
  return items.map((i) =>
    PRE_BASE_VOWEL_SIGN.test(i.text)
      ? { ...i, text: reorder(i.text), runs: i.runs?.map((r) => ({ ...r, text: reorder(r.text) })) }
      : i,
  );
}

/** Arabic and Hebrew presentation forms (contextual shapes, lam-alef and other ligatures) and their letters. */
const RTL_PRESENTATION_FORM = /[\ufb1d-\ufdff\ufe70-\ufefc]/g;

/**
 * Right-to-left text in reading order with presentation forms read as the letters they show. Done after the
 * reversal: a ligature is one code point in visual order and its letters come out in reading order.
 */
function rtlPresentationFormsAsLetters(text: string): string {
  return text.replace(RTL_PRESENTATION_FORM, (c) => c.normalize('NFKC'));
}

/**
 * The file's page count from poppler's `pdfinfo` (the trailer and page tree only, a few ms), for
 * deciding whether a long PDF is split before anything is read; undefined when poppler cannot
 * read the file (the conversion itself then reports why).
 */
export async function pdfPageCount(input: Buffer, signal?: AbortSignal): Promise<number | undefined> {
  try {
    const stdout = await runTool('pdfinfo', ['fd://0'], input, {
      timeoutMs: TOOL_TIMEOUT_MS,
      maxBytes: 1024 * 1024,
      signal,
    });
    const m = /^Pages:\s+(\d+)\s*$/m.exec(stdout);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
