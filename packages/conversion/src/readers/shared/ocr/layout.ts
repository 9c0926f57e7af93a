import type { Block } from '../../../document/model';
import { text as plain } from '../../../document/model';
import { median } from './boxes';
import { joinLine, PARAGRAPH_GAP, type OcrResult, type OcrWord } from './engine';
import { ruledTable, type RuledTable } from './ruled-table';
import { BULLET } from './bullets';
import { ENGLISH, isVertical } from './scripts';
import { comparableTypeHeight, differentType, LARGER_TYPE, typeHeightOf } from './text-size';

/**
 * Layout analysis of OCR output. Both modes keep a table drawn with ruling lines, and a table
 * shown by alignment: runs of 3+ consecutive lines whose cells start at the same 2+ positions
 * (the lines around them stay paragraphs). Enhanced mode also reads columns: a vertical gutter
 * that most lines leave blank splits the page into columns, read one after the other (lines that
 * cross the gutter, such as a title, are read in place); standard mode keeps Tesseract's own
 * paragraphs for such a page and for a page without a table.
 */
export async function ocrBlocks(result: OcrResult, enhanced: boolean): Promise<Block[]> {
  const headings = headingSizes(result);
  // A table drawn with ruling lines is clear in either mode; the text above and below it stays text.
  const ruled = await ruledTable(result.image, result.language).catch(() => undefined);
  if (ruled) return aroundTable(result.words, ruled, headings);
  const tesseracts = result.paragraphs.map((text, i) => ({ text, size: result.paragraphSizes[i] }));
  const columns = columnParagraphs(result.words);
  if (columns) return enhanced ? textBlocks(columns, headings) : textBlocks(tesseracts, headings);
  // Cells aligned in columns over 3+ lines are a table in either mode (a page of running text set
  // in columns, above, is not; nor are vertical lines of CJK side by side); standard mode keeps
  // Tesseract's paragraphs around it.
  const withTables =
    result.language && isVertical(result.language) ? undefined : blocksWithTables(result.words, headings);
  if (withTables) return withTables;
  return textBlocks(tesseracts, headings);
}

/** A paragraph read by OCR and the full height of its type (typeHeightOf), when known. */
export interface OcrParagraph {
  text: string;
  size?: number;
}

/** Type this much larger than the page's body text makes a short paragraph a heading. */
const HEADING_SIZE = LARGER_TYPE;
/** A one-word heading's size is told from one box, which a capital's or a glyph's shape can throw off: it must stand out more. */
const ONE_WORD_HEADING_SIZE = 1.3;
/** A heading has at most this many words (a larger paragraph is a lead or a pull quote). */
const HEADING_MAX_WORDS = 15;
/** Heading sizes within this ratio of each other are one level. */
const SAME_LEVEL = 1.12;
/** Levels of headings told apart by size at most. */
const MAX_HEADING_LEVELS = 3;
/** A page has body text when at least this many of its words are set in the usual size. */
const MIN_BODY_WORDS = 8;

/** What tells a heading on a page: the size of its body text, in the prepared image's pixels. */
interface HeadingSizes {
  body: number;
}

/**
 * The page's body size, when headings can be told by size: Latin script (the size estimate reads
 * ascenders and descenders) and enough words of body text.
 */
function headingSizes(result: OcrResult): HeadingSizes | undefined {
  if (result.language !== ENGLISH) return undefined;
  const sizes = result.words.filter((w) => /\p{L}{2}/u.test(w.text)).map(typeHeightOf);
  const body = median(sizes);
  if (!body || sizes.filter((s) => s < body * HEADING_SIZE).length < MIN_BODY_WORDS) return undefined;
  return { body };
}

/** Heading level by size for each paragraph set clearly larger than the body (largest type is level 1). */
function headingLevels(paragraphs: OcrParagraph[], page: HeadingSizes | undefined): Array<number | undefined> {
  if (!page) return paragraphs.map(() => undefined);
  const isHeading = (p: OcrParagraph): boolean =>
    !!p.size &&
    p.size >= page.body * (/\s/.test(p.text) ? HEADING_SIZE : ONE_WORD_HEADING_SIZE) &&
    p.text.split(/\s+/).length <= HEADING_MAX_WORDS &&
    !LIST_MARKER.test(p.text) &&
    /\p{L}/u.test(p.text);
  const sizes = paragraphs
    .filter(isHeading)
    .map((p) => p.size!)
    .sort((a, b) => b - a);
  const levels: number[] = [];
  sizes.forEach((size, i) => {
    const level = i === 0 ? 0 : sizes[i - 1]! / size > SAME_LEVEL ? levels[i - 1]! + 1 : levels[i - 1]!;
    levels.push(level);
  });
  return paragraphs.map((p) =>
    isHeading(p) ? Math.min(MAX_HEADING_LEVELS, levels[sizes.indexOf(p.size!)]! + 1) : undefined,
  );
}

/** The words above a ruled table as paragraphs, the table, then the words below it. */
function aroundTable(words: OcrWord[], table: RuledTable, headings: HeadingSizes | undefined): Block[] {
  const height = median(words.map((w) => w.y1 - w.y0)) || 10;
  const middle = (table.top + table.bottom) / 2;
  const outside = words.filter((w) => {
    const cx = (w.x0 + w.x1) / 2;
    const cy = (w.y0 + w.y1) / 2;
    return cx < table.left || cx > table.right || cy < table.top || cy > table.bottom;
  });
  const paragraphs = (part: OcrWord[]): Block[] =>
    part.length ? textBlocks(linesToParagraphs(visualLines(part, height)), headings) : [];
  return [
    ...paragraphs(outside.filter((w) => (w.y0 + w.y1) / 2 < middle)),
    { type: 'table', rows: table.rows.map((r) => r.map((c) => [plain(c)])) },
    ...paragraphs(outside.filter((w) => (w.y0 + w.y1) / 2 >= middle)),
  ];
}

/**
 * Recognised paragraphs as blocks: runs of paragraphs that start with a bullet or a number become
 * lists, short paragraphs set clearly larger than the body headings.
 */
function textBlocks(paragraphs: OcrParagraph[], headings: HeadingSizes | undefined): Block[] {
  const blocks: Block[] = [];
  const levels = headingLevels(paragraphs, headings);
  for (const [i, { text }] of paragraphs.entries()) {
    const level = levels[i];
    if (level) {
      blocks.push({ type: 'heading', level, text: [plain(text)] });
      continue;
    }
    const marker = LIST_MARKER.exec(text);
    if (!marker) {
      blocks.push({ type: 'paragraph', text: [plain(text)] });
      continue;
    }
    const ordered = /\d/.test(marker[1]!);
    const item = { text: [plain(text.slice(marker[0].length).trim())] };
    const last = blocks[blocks.length - 1];
    if (last?.type === 'list' && last.ordered === ordered) last.items.push(item);
    else
      blocks.push({
        type: 'list',
        ordered,
        start: ordered ? Number.parseInt(marker[1]!, 10) : undefined,
        items: [item],
      });
  }
  return blocks;
}

/** A positioned piece of text: an OCR word, a PDF text item. y grows downwards. */
export interface TextBox {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Segment<T extends TextBox> {
  x0: number;
  x1: number;
  words: T[];
}

/** Boxes grouped into visual lines by their vertical centres, top to bottom, each sorted left to right. */
function visualLines<T extends TextBox>(words: T[], height: number): T[][] {
  const rows: Array<{ mid: number; words: T[] }> = [];
  for (const w of [...words].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1))) {
    const mid = (w.y0 + w.y1) / 2;
    const row = rows.find((r) => Math.abs(r.mid - mid) < height * 0.6);
    if (row) row.words.push(w);
    else rows.push({ mid, words: [w] });
  }
  return rows.sort((a, b) => a.mid - b.mid).map((r) => r.words.sort((a, b) => a.x0 - b.x0));
}

/** A line cut where the space between two boxes is wider than `gap`. */
function segments<T extends TextBox>(line: T[], gap: number): Array<Segment<T>> {
  const out: Array<Segment<T>> = [];
  for (const w of line) {
    const last = out[out.length - 1];
    if (last && w.x0 - last.x1 < gap) {
      last.words.push(w);
      last.x1 = Math.max(last.x1, w.x1);
    } else out.push({ x0: w.x0, x1: w.x1, words: [w] });
  }
  return out;
}

/** Paragraphs in column order when the words form 2+ columns of running text; undefined otherwise. */
export function columnParagraphs(words: OcrWord[]): OcrParagraph[] | undefined {
  return columnSections(words)?.flatMap(linesToParagraphs);
}

/**
 * Reading order of a page of boxes set in 2+ columns of running text: sections top to bottom,
 * each the lines of one column (columns left to right), or one line that crosses the gutter
 * (a title, a full-width figure caption). Undefined when the page is not set in columns.
 */
export function columnSections<T extends TextBox>(boxes: T[]): T[][][] | undefined {
  if (boxes.reduce((n, b) => n + b.text.split(/\s+/).length, 0) < 40) return undefined;
  const height = median(boxes.map((w) => w.y1 - w.y0)) || 10;
  const lines = visualLines(boxes, height);
  const gutters = findGutters(lines, height);
  if (!gutters.length) return undefined;
  const bounds = [-Infinity, ...gutters.map((g) => (g.x0 + g.x1) / 2), Infinity];
  const columnOf = (x: number): number => bounds.findIndex((b, i) => x >= b && x < bounds[i + 1]!);

  // Running text, not a table: the column parts of lines hold several words each.
  const parts = lines.flatMap((line) => segments(line, height * 1.2));
  const wordsPerPart = median(
    parts.map(
      (p) =>
        p.words
          .map((w) => w.text)
          .join(' ')
          .split(/\s+/).length,
    ),
  );
  if (wordsPerPart < 4) return undefined;

  const sections: T[][][] = [];
  let columns: T[][][] = bounds.slice(1).map(() => []);
  const flush = (): void => {
    sections.push(...columns.filter((c) => c.length));
    columns = bounds.slice(1).map(() => []);
  };
  for (const line of lines) {
    const crossing = gutters.some((g) => line.some((w) => w.x0 < g.x0 && w.x1 > g.x1));
    if (crossing) {
      flush();
      sections.push([line]);
      continue;
    }
    const byColumn = new Map<number, T[]>();
    for (const w of line) {
      const k = columnOf((w.x0 + w.x1) / 2);
      byColumn.set(k, [...(byColumn.get(k) ?? []), w]);
    }
    for (const [k, part] of byColumn) columns[k]!.push(part);
  }
  flush();
  return sections;
}

/** Vertical strips (wider than a line height) that at most 5% of lines touch, with text on both sides in most lines. */
function findGutters(lines: TextBox[][], height: number): Array<{ x0: number; x1: number }> {
  const all = lines.flat();
  const left = Math.min(...all.map((w) => w.x0));
  const right = Math.max(...all.map((w) => w.x1));
  const width = right - left;
  if (width <= 0) return [];
  const cover = new Uint16Array(Math.ceil(width) + 1);
  for (const line of lines) {
    for (const s of segments(line, height * 0.8)) {
      for (let x = Math.floor(s.x0 - left); x <= Math.ceil(s.x1 - left) && x < cover.length; x++) cover[x]!++;
    }
  }
  const limit = Math.max(1, Math.floor(lines.length * 0.05));
  const gutters: Array<{ x0: number; x1: number }> = [];
  let start = -1;
  for (let x = 0; x <= cover.length; x++) {
    const open = x < cover.length && cover[x]! <= limit;
    if (open && start < 0) start = x;
    if (!open && start >= 0) {
      const g = { x0: left + start, x1: left + x };
      const inside = g.x0 > left + width * 0.15 && g.x1 < right - width * 0.15;
      if (inside && g.x1 - g.x0 >= height) gutters.push(g);
      start = -1;
    }
  }
  return gutters.filter((g) => {
    const both = lines.filter((l) => l.some((w) => w.x1 <= g.x0) && l.some((w) => w.x0 >= g.x1)).length;
    return both >= lines.length * 0.5;
  });
}

/** A bullet or a number starting a line; Tesseract's fast English model reads a round bullet as ¢ or «. */
const LIST_MARKER = /^([•*▪◦–¢«-]|\d{1,3}[.)])\s/u;

/**
 * A column's lines as paragraphs: a step between line centres clearly longer than the column's
 * usual line pitch starts a new one (centres, because boxes vary with ascenders and descenders).
 */
function linesToParagraphs(lines: TextBox[][]): OcrParagraph[] {
  const centre = (l: TextBox[]): number => median(l.map((w) => (w.y0 + w.y1) / 2));
  const lineHeight = median(lines.map((l) => median(l.map((w) => w.y1 - w.y0))));
  const pitches = lines.slice(1).map((l, i) => centre(l) - centre(lines[i]!));
  const pitch = pitches.length >= 2 ? median(pitches) : lineHeight * (1 + PARAGRAPH_GAP);
  const left = Math.min(...lines.flat().map((w) => w.x0));
  // The usual right edge of full lines (a quartile in from the widest, which may be a table or a figure).
  const rights = lines.map((l) => Math.max(...l.map((w) => w.x1))).sort((a, b) => a - b);
  const right = rights[Math.floor(rights.length * 0.75)] ?? 0;
  const out: OcrParagraph[] = [];
  let text = '';
  let sizes: number[] = [];
  const flush = (): void => {
    if (text) out.push({ text, size: median(sizes) });
    text = '';
    sizes = [];
  };
  lines.forEach((line, i) => {
    const words = line.map((w) => w.text).join(' ');
    const previous = lines[i - 1];
    const gap = previous !== undefined && centre(line) - centre(previous) > Math.max(pitch * 1.4, lineHeight * 1.2);
    // A line that stops well short of the column's right edge ends its paragraph; a bullet starts one.
    const endedShort = previous !== undefined && Math.max(...previous.map((w) => w.x1)) < left + (right - left) * 0.7;
    const resized = previous !== undefined && differentType(comparableTypeHeight(line), comparableTypeHeight(previous));
    if (text && (gap || endedShort || resized || LIST_MARKER.test(words))) flush();
    text = joinLine(text, words);
    sizes.push(...line.filter((w) => w.text !== BULLET).map(typeHeightOf));
  });
  flush();
  return out;
}

/**
 * The page as paragraphs and tables when some run of 3+ consecutive lines splits into cells (at
 * gaps wider than a character) that start at the same 2+ positions; undefined when none does.
 */
/** What Tesseract makes of a speck or a rule's end: bars, dots and ticks, nothing a word is made of. */
const SPECK_MARK = /^[|¦!:;.,'`"‘’]+$/u;

export function blocksWithTables(all: OcrWord[], headings?: HeadingSizes): Block[] | undefined {
  if (all.length < 6) return undefined;
  const height = median(all.map((w) => w.y1 - w.y0)) || 10;
  // A speck read as a bar-like mark (the end of a rule read as "|") would make a line of its own
  // between two rows. Only bar-like marks: a hyphen or a dash is short too, and is text.
  const words = all.filter((w) => w.y1 - w.y0 >= height * 0.3 || !SPECK_MARK.test(w.text));
  const lines = visualLines(words, height);
  const cells = lines.map((line) => segments(line, height * 1.2));
  const blocks: Block[] = [];
  let prose: OcrWord[][] = [];
  let found = false;
  const flushProse = (): void => {
    blocks.push(...textBlocks(linesToParagraphs(prose), headings));
    prose = [];
  };
  for (let i = 0; i < lines.length;) {
    let end = i;
    while (end < lines.length && cells[end]!.length >= 2) end++;
    const rows = end - i >= 3 ? tableRows(cells.slice(i, end), height) : undefined;
    if (rows) {
      flushProse();
      blocks.push({ type: 'table', rows: rows.map((r) => r.map((c) => [plain(c)])) });
      found = true;
      i = end;
    } else {
      prose.push(...lines.slice(i, Math.max(end, i + 1)));
      i = Math.max(end, i + 1);
    }
  }
  flushProse();
  return found ? blocks : undefined;
}

/** The rows as table cells when their cells start at 2+ shared positions (each in 60% of the rows). */
function tableRows(rows: Array<Array<Segment<OcrWord>>>, height: number): string[][] | undefined {
  const starts = clusters(
    rows.flatMap((r) => r.map((c) => c.x0)),
    height * 2,
  ).filter((s) => s.count >= rows.length * 0.6);
  if (starts.length < 2) return undefined;
  const columns = starts.map((s) => s.at).sort((a, b) => a - b);
  return rows.map((cells) => {
    const out = columns.map(() => '');
    for (const c of cells) {
      let k = 0;
      columns.forEach((x, n) => {
        if (c.x0 >= x - height * 2) k = n;
      });
      const text = c.words.map((w) => w.text).join(' ');
      out[k] = out[k] ? `${out[k]} ${text}` : text;
    }
    return out;
  });
}

function clusters(values: number[], tolerance: number): Array<{ at: number; count: number }> {
  const out: Array<{ at: number; count: number }> = [];
  for (const v of [...values].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && v - last.at <= tolerance) last.count++;
    else out.push({ at: v, count: 1 });
  }
  return out;
}
