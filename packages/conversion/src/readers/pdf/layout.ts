import { runsText, tidyRuns, type StyledRun } from './styled-runs';
import { visualToLogical } from './poppler';
import { inOrderOfX, leftmost, partsCells, level, rightmost, sameType } from './item-geometry';
import { bandRowsJoined, type RowBand } from './row-bands';

/** Positioned text from a PDF page, and the line/paragraph rules that turn it into blocks. */
export interface TextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
  bold: boolean;
  /** The run's font and style (family, bold, italic): a line set apart from the body's font may be a heading. */
  font?: string;
  /** The run is right-to-left text in the item (its string is in logical order). */
  rtl?: boolean;
  italic?: boolean;
  /** The item's text in parts of different styles, when it mixes them (bold words inside a line). */
  runs?: StyledRun[];
  /**
   * Spaces drawn before the text were taken off it (the item starts at its first letter): a word
   * break however close the item stands to the one before (an italic letter's box reaching over it).
   */
  spaceBefore?: boolean;
}

/** A stretch of a line set apart by wide gaps: a table cell candidate. */
export interface Cell {
  x: number;
  right: number;
  text: string;
}

/** A gap wider than half the text size inside a cell: the cell's index, where its text parts, and the edges either side. */
export interface NarrowGap {
  cell: number;
  at: number;
  before: number;
  after: number;
}

/**
 * A line's cells split at its narrow gaps as well: a header row set tighter than its table's rows
 * ("Area (km²)", 12 pt, "Mean elevation (m)") is one cell in `cells`. The same cells when it has none.
 */
export function closeCells(line: Line): Cell[] {
  const gaps = line.narrowGaps;
  if (!gaps) return line.cells;
  const out: Cell[] = [];
  line.cells.forEach((cell, c) => {
    let from = 0;
    let x = cell.x;
    for (const gap of gaps) {
      if (gap.cell !== c) continue;
      out.push({ x, right: gap.before, text: cell.text.slice(from, gap.at).trim() });
      from = gap.at;
      x = gap.after;
    }
    out.push({ x, right: cell.right, text: cell.text.slice(from).trim() });
  });
  return out;
}

/**
 * A line of a page. Every Line is made with all its fields, in this order (toLine, a table's line in the
 * reader): one object shape, so that the block rules, which read lines of both kinds, are compiled once.
 */
export interface Line {
  text: string;
  /** The same text in runs of one style each. */
  runs: StyledRun[];
  x: number;
  y: number;
  /** How far under `y` the line's lowest baseline stands: a table row joined from cells wrapped onto several lines (0 for a line). */
  depth: number;
  right: number;
  size: number;
  bold: boolean;
  /** The font of most of the line's letters. */
  font: string;
  /** Where a wide gap separates cells (left and right edges), for table detection. */
  cells: Cell[];
  /** Gaps wider than a word space between the line's runs: a hint of cells too close for `cells`. */
  gaps: number;
  /** Where such a gap falls inside a cell of `cells` (most lines have none): `closeCells` splits there. */
  narrowGaps: NarrowGap[] | undefined;
  page: number;
  /** Page height in PDF units (y grows upwards), to tell headers and footers by position. */
  pageHeight: number;
  /** A table drawn with ruling lines, read from the grid, standing in the flow where it sits. */
  table?: string[][];
  /** That table's box on the page (points, origin top-left), from its outer rules. */
  tableBox?: [number, number, number, number];
  /** The line is mostly right-to-left text: it starts at its right edge. */
  rtl?: boolean;
  /** A lone glyph leading the line in another font or size than its text, set apart from it (a symbol-font bullet such as Wingdings' "q"). */
  marker?: string;
  /** The line ends with a footnote mark set smaller and raised after its last word ("years.¹"). */
  endMark?: boolean;
}

/** Groups a page's items (in content-stream order) into lines: a new line starts when the baseline moves. */
export function buildLines(items: TextItem[], page: number, pageHeight: number): Line[] {
  const lines: Line[] = [];
  const { groups, bands } = lineGroups(items);
  for (const group of groups) {
    const line = toLine(group, page, pageHeight, bands.get(group));
    if (line.text.trim() !== '') lines.push(line);
  }
  return lines;
}

/**
 * How many lines buildLines would give with gaps wider than a word space (`Line.gaps`), counting
 * no further than `enough`: whether a page may hold a table, told without building its lines
 * (a page whose drawn tables are taken out has its lines built from the rest).
 */
export function linesWithGaps(items: TextItem[], enough: number): number {
  let found = 0;
  for (const group of lineGroups(items).groups) {
    if (found >= enough) break;
    if (lineGaps(group) > 0) found++;
  }
  return found;
}

/**
 * The items of each line of the page, in order (buildLines' grouping). Plain functions and loops, no
 * closure per call or per item: V8 compiles a hot closure again for every new instance of it.
 */
function lineGroups(items: TextItem[]): { groups: TextItem[][]; bands: Map<TextItem[], RowBand> } {
  const groups: TextItem[][] = [];
  let current: TextItem[] = [];
  // The line's text baseline: its last item that is not a raised mark set after a word.
  let base: TextItem | undefined;
  for (const item of items) {
    if (!item.text) continue;
    let mark = false;
    if (current.length && base) {
      const last = current[current.length - 1]!;
      mark = raisedMark(last, base, item);
      const sameBaseline = level(item, last) || level(item, base) || mark || markerBefore(last, item);
      // Right-to-left runs go leftwards; only a left-to-right run going back left starts a new line.
      const wrapsBack = !item.rtl && !last.rtl && item.x < last.x - 1 && item.x + item.width < last.x;
      if (!sameBaseline || (wrapsBack && Math.abs(item.y - last.y) > 0.5)) {
        groups.push(current);
        current = [];
        base = undefined;
        mark = false;
      }
    }
    current.push(item);
    if (!mark) base = item;
  }
  if (current.length) groups.push(current);
  const { groups: banded, bands } = bandRowsJoined(groups);
  return { groups: halfLinesJoined(rowsRejoined(banded, bands), bands), bands };
}

/** Lines of wrapped cell text a row's later cells may come after, in content-stream order. */
const MAX_WRAPPED_LINES = 4;

/**
 * A table row whose cells are drawn cell by cell (Word's and LibreOffice's tables): a cell's wrapped
 * lines come before the next cell of its row, whose baseline then starts a line of its own. That part
 * joins its row again when it stands level with a line just above, right of it, and everything drawn in
 * between is at most MAX_WRAPPED_LINES lines under that line, left of the part and not left of the line,
 * all in one text size: the row's wrapped cells. Together they hold at least three cells (two lines of
 * one text column each, a page set in columns, stay apart). The wrapped lines then follow the whole row.
 */
function rowsRejoined(groups: TextItem[][], bands: Map<TextItem[], RowBand>): TextItem[][] {
  // A row whose first two cells both wrap has its first part joined only once the later cells are (they bring
  // the third cell): the page is gone over again while parts join, at most ROW_PASSES times.
  for (let pass = 0, joined = true; joined && pass < ROW_PASSES; pass++) {
    joined = false;
    for (let g = 2; g < groups.length; g++) {
      const part = groups[g]!;
      const head = part[0]!;
      // Most lines start below the one before and have no line level with them just before: nothing to do.
      if (groups[g - 1]![0]!.y >= head.y - head.size * 0.45 && !levelBefore(groups, g)) continue;
      const found = rowOfPart(groups, g);
      if (found === undefined || (bands.size && joinsABand(groups, found.row, g, bands))) continue;
      const { row, stacked } = found;
      // A stacked cell's lines above the part join the row with it; wrapped lines under the row stay after it.
      const from = stacked ? row + 1 : g;
      groups[row] = [...groups[row]!, ...groups.slice(from, g + 1).flat()];
      groups.splice(from, g + 1 - from);
      g = from - 1;
      joined = true;
    }
  }
  return groups;
}

/**
 * A table row whose cells are centred in it (a browser's table, a header row): beside a cell wrapped
 * onto two lines, a one-line cell stands half a line lower than the wrapped cell's first line, so the
 * row comes as lines about half a line apart. Lines that close (under HALF_LINE of their size apart:
 * lines of text stand a whole line apart) in one text size, whose runs stand apart from each other's
 * (a wrapped cell's lines under each other aside), are one line.
 */
function halfLinesJoined(groups: TextItem[][], bands: Map<TextItem[], RowBand>): TextItem[][] {
  for (let g = 1; g < groups.length; g++) {
    const line = groups[g]!;
    const above = groups[g - 1]!;
    const head = line[0]!;
    if (bands.size && (bands.has(line) || bands.has(above))) continue;
    // Most lines stand a whole line under the one before: a pass over the two, and nothing to do.
    if (!withinHalfLine(above, line, head.size) || !sameType(above[0]!, head) || !apartFrom(line, above, head.size))
      continue;
    groups[g - 1] = [...above, ...line];
    groups.splice(g, 1);
    // The joined line may now stand within half a line of the one before it (a cell wrapped above the row).
    g = Math.max(0, g - 2);
  }
  return groups;
}

/** Lines closer than this many text sizes are parts of one row (halfLinesJoined). */
const HALF_LINE = 0.8;

/**
 * Whether an item of `line` stands about half a line from one of `above` (off its baseline by more than
 * `level` allows, by less than HALF_LINE): lines that only share a baseline are a wrapped cell's lines
 * beside each other, which the table reader takes one by one.
 */
function withinHalfLine(above: TextItem[], line: TextItem[], size: number): boolean {
  let low = Infinity;
  let high = -Infinity;
  for (const i of above) {
    low = Math.min(low, i.y);
    high = Math.max(high, i.y);
  }
  const reach = size * HALF_LINE;
  let near = false;
  for (const i of line) if (i.y > low - reach && i.y < high + reach) near = true;
  if (!near) return false;
  for (const i of line) for (const a of above) if (!level(a, i) && Math.abs(a.y - i.y) < reach) return true;
  return false;
}

/** Whether every item of `line` stands clear of `above`'s items, or right under one a line higher (its cell's line before). */
function apartFrom(line: TextItem[], above: TextItem[], size: number): boolean {
  for (const item of line) {
    for (const other of above) {
      const overlaps = item.x < other.x + other.width && other.x < item.x + item.width;
      if (overlaps && other.y - item.y < size * 0.9) return false;
    }
  }
  return true;
}

/** Whether groups `from`..`to` hold a row already joined whole (bandRowsJoined): it takes no more parts. */
function joinsABand(groups: TextItem[][], from: number, to: number, bands: Map<TextItem[], RowBand>): boolean {
  for (let k = from; k <= to; k++) if (bands.has(groups[k]!)) return true;
  return false;
}

/** Whether a line a few lines before `groups[g]`, past the one just before it, stands level with it. */
function levelBefore(groups: TextItem[][], g: number): boolean {
  const head = groups[g]![0]!;
  for (let j = g - 2; j >= 0 && g - j - 1 <= MAX_WRAPPED_LINES; j--) if (level(groups[j]![0]!, head)) return true;
  return false;
}

/** Passes of rowsRejoined over a page at most: a row's cells join from its last one back, one more each pass. */
const ROW_PASSES = 4;

/**
 * The index of the earlier line `groups[g]` is the rest of (rowsRejoined), or undefined; `stacked` when the
 * lines between are the part's own cell's lines above it (a cell set to the bottom of its row, as a header
 * cell often is: "Volunteers" over "needed", level with "Shift"), which join the row with it.
 */
function rowOfPart(groups: TextItem[][], g: number): { row: number; stacked: boolean } | undefined {
  const part = groups[g]!;
  const head = part[0]!;
  const partLeft = leftmost(part);
  const partRight = rightmost(part);
  let below = false;
  let above = false;
  for (let j = g - 1; j >= 0 && g - j - 1 <= MAX_WRAPPED_LINES; j--) {
    const line = groups[j]!;
    const first = line[0]!;
    if (!level(first, head)) {
      const reach = head.size * (MAX_WRAPPED_LINES + 2) * 1.5;
      // A line between must be under the row and no higher than the part: the row is further up.
      if (!above && first.y < head.y && rightmost(line) < partLeft && first.y > head.y - reach) {
        below = true;
        continue;
      }
      // Or, all of them, the part's own cell's lines stacked above it, over its column.
      if (
        !below &&
        first.y > head.y &&
        first.y < head.y + reach &&
        leftmost(line) >= partLeft - head.size &&
        rightmost(line) <= partRight + head.size * 6 &&
        sameType(first, head)
      ) {
        above = true;
        continue;
      }
      return undefined;
    }
    if (rightmost(line) >= partLeft || first.rtl || head.rtl || !sameType(first, head)) return undefined;
    const lineLeft = leftmost(line);
    for (let k = j + 1; k < g; k++) {
      const between = groups[k]!;
      if (leftmost(between) < lineLeft - head.size || !sameType(between[0]!, head)) return undefined;
    }
    // A row with a stacked cell has other cells of its own before it (a page's second column is no cell).
    if (above) return lineGaps(line) >= 1 ? { row: j, stacked: true } : undefined;
    return lineGaps(line) + lineGaps(part) >= 1 ? { row: j, stacked: false } : undefined;
  }
  return undefined;
}

/** One glyph, or one glyph drawn twice (a fake-bold bullet): what a list marker in a symbol font reads as. */
const LONE_GLYPH = /^(\S)\1?$/u;

/**
 * A bullet glyph set smaller or raised in its own font sits on another baseline than its text: it leads the
 * text's line when it stands just left of the text and their middles are level.
 */
function markerBefore(marker: TextItem, item: TextItem): boolean {
  const glyph = marker.text.trim();
  if (!LONE_GLYPH.test(glyph) || /\p{N}/u.test(glyph) || !/[\p{L}\p{N}]/u.test(item.text)) return false;
  const gap = item.x - (marker.x + marker.width);
  if (gap < -1 || gap > item.size * MARKER_MAX_GAP) return false;
  const middle = (i: TextItem): number => i.y + i.size / 2;
  return Math.abs(middle(item) - middle(marker)) <= Math.max(item.size, marker.size) * 0.5;
}

/**
 * Affiliation and footnote marks, and the numbers and commas set with them; and the lower-case endings
 * of ordinals set raised ("1er", "2e", "3rd", "4th"), which pdftohtml gives as runs of their own.
 */
const MARK_TEXT = /^(?:[∗*†‡§¶#+⋆✝$\d,]{1,4}|\p{Ll}{1,3})$/u;

/**
 * Affiliation or footnote marks set smaller and raised right after a word ("Gal∗+"), or an ordinal's ending
 * ("1er"): part of the word's line, though their baseline is higher than its.
 */
function raisedMark(last: TextItem, base: TextItem, item: TextItem): boolean {
  if (!MARK_TEXT.test(item.text.trim()) || item.size >= base.size) return false;
  const gap = item.x - (last.x + last.width);
  if (gap < -1 || gap > base.size * 0.5) return false;
  // Raised: above the text's baseline and below the top of its letters.
  return item.y > base.y && item.y < base.y + base.size * 0.75;
}

/** A bullet stands at most this many text sizes left of its text. */
const MARKER_MAX_GAP = 4;

const SPACE_RUN: StyledRun = { text: ' ', bold: false, italic: false };
/**
 * A Latin word or number in a right-to-left line with the stop that ends it drawn on its left (".Linux"): the stop
 * takes the line's direction, so it shows on the side where the sentence goes on.
 */
const STOP_DRAWN_FIRST = /^([.,:;!?]+)([\p{Script=Latin}\p{N}]\S*)$/u;

/** Text with no letter or digit: punctuation and symbols, which take the direction of the line around them. */
const NEUTRAL = /^[^\p{L}\p{N}]+$/u;

/** A line's items in reading order, and whether it is read from its right edge. */
function readingOrder(items: TextItem[]): { rtl: boolean; sorted: TextItem[] } {
  // A line mostly in a right-to-left script is read from its right edge.
  const rtl = anyRtl(items) && letters(items, true) > letters(items, false) / 2;
  // Most lines come drawn left to right already: a stable sort would leave them as they are.
  const sorted = rtl
    ? [...items].sort((a, b) => b.x + b.width - (a.x + a.width))
    : inOrderOfX(items)
      ? items
      : [...items].sort(leftThenHigher);
  return { rtl, sorted };
}

/** Left to right; a cell's lines one under the other (halfLinesJoined) top first, wherever they start. */
function leftThenHigher(a: TextItem, b: TextItem): number {
  const stacked = a.x < b.x + b.width && b.x < a.x + a.width && Math.abs(a.y - b.y) > Math.min(a.size, b.size) * 0.9;
  return stacked ? b.y - a.y : a.x - b.x;
}

function anyRtl(items: TextItem[]): boolean {
  for (const i of items) if (i.rtl) return true;
  return false;
}

/** The items' letters, spaces trimmed (only the right-to-left items' when `rtlOnly`). */
function letters(items: TextItem[], rtlOnly: boolean): number {
  let n = 0;
  for (const i of items) if (!rtlOnly || i.rtl) n += i.text.trim().length;
  return n;
}

/** The space before each text item of a line, taken in reading order (in a right-to-left line, from its right edge). */
class GapMeter {
  private start = Infinity;
  /** The right edge of the text measured so far. */
  end = -Infinity;
  private previousRtl: boolean | undefined;

  constructor(private readonly rtl: boolean) {}

  next(item: TextItem): number {
    // In right-to-left lines a change of direction (Arabic to Latin) is a word break even without a gap.
    const wordLike = WORD_LIKE.test(item.text);
    const turn = this.rtl && wordLike && this.previousRtl !== undefined && this.previousRtl !== (item.rtl ?? false);
    const gap = this.rtl ? Math.max(this.start - (item.x + item.width), turn ? item.size : 0) : item.x - this.end;
    if (wordLike) this.previousRtl = item.rtl ?? false;
    this.end = Math.max(this.end, item.x + item.width);
    this.start = Math.min(this.start, item.x);
    return gap;
  }
}

const WORD_LIKE = /[\p{L}\p{N}]/u;

/** A line's gaps wider than half its text size between text items: toLine's `gaps`, without building the line. */
export function lineGaps(items: TextItem[]): number {
  const { rtl, sorted } = readingOrder(items);
  const meter = new GapMeter(rtl);
  let gaps = 0;
  let first = true;
  for (const item of sorted) {
    // Space items neither open the line nor count (a right-to-left line's punctuation is reordered, never made a space).
    if (item.text.trim() === '') continue;
    if (meter.next(item) > item.size * 0.5 && !first) gaps++;
    first = false;
  }
  return gaps;
}

function toLine(items: TextItem[], page: number, pageHeight: number, band?: RowBand): Line {
  // A row joined from its cells (bandRowsJoined) is read cell after cell, each cell's lines top first, as drawn.
  const { rtl, sorted } = band ? { rtl: false, sorted: items } : readingOrder(items);
  /** The band's cell the text so far is in. */
  let bandCell = 0;
  const meter = new GapMeter(rtl);
  // Whether the line has text yet, and whether what was last added ends with whitespace (the line's text is its runs').
  let written = false;
  let endsInSpace = false;
  const runs: StyledRun[] = [];
  const cells: Cell[] = [];
  /** The left edge of the line's first item that is not spaces only. */
  let left = Infinity;
  let gaps = 0;
  let narrowGaps: NarrowGap[] | undefined;
  let size = 0;
  let boldChars = 0;
  let chars = 0;
  // Letters per font: most lines have one font, counted without a map until a second one comes.
  let onlyFont: string | undefined;
  let onlyFontChars = 0;
  let fontChars: Map<string, number> | undefined;
  let sizeChars: Map<number, number> | undefined;
  // Letters are counted per size only when sizes differ: one size is the line's size whatever its letters.
  const mixedSizes = !sameSize(items);
  let last: TextItem | undefined;
  for (const drawn of sorted) {
    // Punctuation drawn on its own in a right-to-left line is in visual order too (a bracket shows mirrored).
    const item =
      rtl && !drawn.rtl && NEUTRAL.test(drawn.text)
        ? { ...drawn, text: visualToLogical(drawn.text), runs: undefined }
        : rtl && !drawn.rtl && STOP_DRAWN_FIRST.test(drawn.text)
          ? { ...drawn, text: drawn.text.replace(STOP_DRAWN_FIRST, '$2$1'), runs: undefined }
          : drawn;
    const text = item.text;
    const trimmed = text.trim();
    // pdf.js inserts space items spanning gaps; they must not hide the gap between cells.
    if (trimmed === '') {
      if (written && !endsInSpace) {
        endsInSpace = true;
        runs.push(SPACE_RUN);
      }
      continue;
    }
    left = Math.min(left, item.x);
    // A cell's line stacked over another of the row's (rowsRejoined) parts words as a line break does.
    const stacked = !!last && Math.abs(item.y - last.y) > item.size * 0.8;
    const gap = meter.next(item);
    let wide: boolean;
    if (band) {
      const cell = bandCellOf(band, item.x);
      wide = cell > bandCell;
      bandCell = Math.max(bandCell, cell);
    } else wide = partsCells(gap, item.size);
    // A word wrapped at its hyphen onto the cell's next line goes on without a space ("R1-" over "contract"), and
    // a hyphenation before a lower-case word loses its hyphen ("doc-" over "ument"), as joinWrapped joins lines.
    const hyphenWrap =
      stacked && !wide && endsWithHyphen(cells[cells.length - 1]?.text) && /^[\p{L}\p{N}]/u.test(trimmed);
    if (hyphenWrap && /\p{Ll}-$/u.test(cells[cells.length - 1]!.text) && /^\p{Ll}/u.test(trimmed)) {
      const cell = cells[cells.length - 1]!;
      cell.text = cell.text.slice(0, -1);
      const run = runs[runs.length - 1];
      if (run?.text.endsWith('-')) runs[runs.length - 1] = { ...run, text: run.text.slice(0, -1) };
    }
    if (written && gap > item.size * 0.5) gaps++;
    if (!cells.length || wide) cells.push({ x: item.x, right: item.x + item.width, text: trimmed });
    else {
      const cell = cells[cells.length - 1]!;
      if (written && gap > item.size * 0.5)
        (narrowGaps ??= []).push({ cell: cells.length - 1, at: cell.text.length, before: cell.right, after: item.x });
      // Each item's text is trimmed here, so a space that ended the last item (LibreOffice draws
      // the space after an italic run inside that run: "an " "italic " "word") still parts the words.
      cell.text +=
        (!hyphenWrap && (gap > item.size * 0.15 || endsInSpace || item.spaceBefore || stacked) ? ' ' : '') + trimmed;
      cell.right = Math.max(cell.right, item.x + item.width);
    }
    // A sub- or superscript (smaller, off the baseline) is set closer to its letter than a word space of its own size.
    const script = !!last && item.size < last.size * 0.8 && Math.abs(item.y - last.y) > 0.5;
    const wordSpace = (script ? last!.size : item.size) * 0.15;
    last = item;
    if (
      written &&
      !hyphenWrap &&
      (gap > wordSpace || item.spaceBefore || stacked) &&
      !endsInSpace &&
      !startsWithSpace(text)
    )
      runs.push(SPACE_RUN);
    written = true;
    endsInSpace = endsWithSpace(text);
    if (item.runs) for (const run of item.runs) runs.push(run);
    else runs.push({ text, bold: item.bold, italic: item.italic ?? false });
    size = Math.max(size, item.size);
    // The line's size is its letters' size: a large bullet or checkbox glyph doesn't make it a heading.
    if (mixedSizes) {
      const letters = text.replace(/[^\p{L}\p{N}]/gu, '').length;
      if (letters) (sizeChars ??= new Map()).set(item.size, (sizeChars.get(item.size) ?? 0) + letters);
    }
    const n = trimmed.length;
    chars += n;
    if (item.runs) for (const r of item.runs) boldChars += r.bold ? r.text.trim().length : 0;
    else if (item.bold) boldChars += n;
    const font = item.font ?? '';
    if (!fontChars && (onlyFont === undefined || onlyFont === font)) {
      onlyFont = font;
      onlyFontChars += n;
    } else {
      fontChars ??= new Map([[onlyFont!, onlyFontChars]]);
      fontChars.set(font, (fontChars.get(font) ?? 0) + n);
    }
  }
  const tidy = tidyRuns(runs);
  const marker = leadingGlyph(sorted, rtl);
  return {
    text: runsText(tidy),
    runs: tidy,
    // Where the line's first glyph stands: a run of spaces before it (a tab drawn as spaces) is no text.
    x: Number.isFinite(left) ? left : leftmost(sorted),
    y: band ? band.top : items[0]!.y,
    depth: band ? band.top - band.bottom : 0,
    right: meter.end,
    size: Math.round(((sizeChars && lettersSize(sizeChars)) ?? size) * 10) / 10,
    bold: chars > 0 && boldChars / chars > 0.6,
    font: fontChars ? mostUsedFont(fontChars) : (onlyFont ?? ''),
    // Every cell holds an item's trimmed text, which is not empty.
    cells,
    gaps,
    narrowGaps,
    page,
    pageHeight,
    table: undefined,
    tableBox: undefined,
    rtl: rtl ? true : undefined,
    marker,
    endMark: !rtl && endsWithRaisedMark(sorted) ? true : undefined,
  };
}

/** A footnote's mark: a number or a symbol, set alone. */
const NOTE_MARK = /^(?:[∗*†‡§¶]{1,3}|\d{1,3})$/;

/** Whether a line's last item is a footnote mark set smaller than the item before it and above its baseline. */
function endsWithRaisedMark(sorted: TextItem[]): boolean {
  const mark = sorted[sorted.length - 1];
  const word = sorted[sorted.length - 2];
  if (!mark || !word || mark.size >= word.size * RAISED_MARK_SIZE || !NOTE_MARK.test(mark.text.trim())) return false;
  return mark.y > word.y && mark.y < word.y + word.size * 0.75;
}

/** A raised mark is set at most this share of its word's size. */
const RAISED_MARK_SIZE = 0.85;

/** The cell of a joined row an item starting at `x` is in: how many cells start left of it (or at it). */
function bandCellOf(band: RowBand, x: number): number {
  let cell = 0;
  for (const start of band.starts) if (x >= start - 0.5) cell++;
  return cell;
}

/** Whether a cell's text ends with a hyphen after a letter or digit: a word wrapped where it is hyphenated. */
function endsWithHyphen(text: string | undefined): boolean {
  return !!text && text.length > 1 && text.endsWith('-') && /[\p{L}\p{N}]/u.test(text[text.length - 2]!);
}

/** Whether all the items have one text size. */
function sameSize(items: TextItem[]): boolean {
  const size = items[0]!.size;
  for (let i = 0; i < items.length; i++) if (items[i]!.size !== size) return false;
  return true;
}

/** Whether the text starts with whitespace (as `/^\s/` tells). */
function startsWithSpace(text: string): boolean {
  const c = text.charCodeAt(0);
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return c > 0x7f && /\s/.test(text[0]!);
}

/** Whether the text ends with whitespace (as `/\s$/` tells, without that expression trying every position of a long line). */
function endsWithSpace(text: string): boolean {
  const c = text.charCodeAt(text.length - 1);
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return c > 0x7f && /\s/.test(text[text.length - 1]!);
}

/** The size with the most letters (the larger one on a tie); undefined when none was counted. */
function lettersSize(sizeChars: Map<number, number>): number | undefined {
  let best: number | undefined;
  let most = -1;
  for (const [size, n] of sizeChars) {
    if (n > most || (n === most && size > best!)) {
      best = size;
      most = n;
    }
  }
  return best;
}

/** The font with the most letters (the first counted on a tie, as a stable sort gave it). */
function mostUsedFont(fontChars: Map<string, number>): string {
  let best = '';
  let most = -Infinity;
  for (const [font, n] of fontChars) {
    if (n > most) {
      best = font;
      most = n;
    }
  }
  return best;
}

/** A marker is set apart from the text after it by more than this share of the text's size. */
const MARKER_GAP_RATIO = 0.15;

/** The line's first glyph when it stands alone in its own font or size, apart from the text that follows. */
function leadingGlyph(sorted: TextItem[], rtl: boolean): string | undefined {
  let first: TextItem | undefined;
  let next: TextItem | undefined;
  for (const i of sorted) {
    if (i.text.trim() === '') continue;
    if (first) {
      next = i;
      break;
    }
    first = i;
  }
  if (!first || !next || !LONE_GLYPH.test(first.text.trim())) return undefined;
  if (first.font === next.font && first.size === next.size) return undefined;
  const gap = rtl ? first.x - (next.x + next.width) : next.x - (first.x + first.width);
  return gap > next.size * MARKER_GAP_RATIO ? first.text.trim() : undefined;
}

/** The most common text size, weighted by characters: the body size that headings are measured against. */
export function bodySize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(l.size, (weight.get(l.size) ?? 0) + l.text.length);
  let best = 10;
  let most = -1;
  for (const [size, w] of weight) {
    if (w > most) {
      most = w;
      best = size;
    }
  }
  return best;
}

/** The font of most body text (by letters, among lines at the body size). */
export function bodyFont(lines: Line[], body: number): string {
  const weight = new Map<string, number>();
  for (const l of lines) if (l.size === body) weight.set(l.font, (weight.get(l.font) ?? 0) + l.text.length);
  return [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/** Normalised text of a line for header/footer comparison: digits (page numbers) folded. */
export function boilerplateKey(text: string): string {
  return text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
}
