import type { Block } from '../markdown/model';
import { escapeText } from '../markdown/inline';
import { joinLine, median, PARAGRAPH_GAP, type OcrResult, type OcrWord } from './engine';

/**
 * Enhanced mode's layout analysis of OCR output, from the recognised words' boxes:
 * - columns: a vertical gutter that most lines leave blank splits the page into columns, read
 *   one after the other (lines that cross the gutter, such as a title, are read in place);
 * - tables: rows whose cells start at the same 2+ positions in at least 3 rows.
 * Standard mode keeps Tesseract's own paragraphs.
 */
export function ocrBlocks(result: OcrResult, enhanced: boolean): Block[] {
  if (enhanced) {
    const columns = columnParagraphs(result.words);
    if (columns) return columns.map((text) => ({ type: 'paragraph', text: escapeText(text) }));
    const table = tableFromWords(result.words);
    if (table) return [{ type: 'table', rows: table.map((r) => r.map(escapeText)) }];
  }
  return result.paragraphs.map((text) => ({ type: 'paragraph', text: escapeText(text) }));
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
export function columnParagraphs(words: OcrWord[]): string[] | undefined {
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

/**
 * A column's lines as paragraphs: a step between line centres clearly longer than the column's
 * usual line pitch starts a new one (centres, because boxes vary with ascenders and descenders).
 */
function linesToParagraphs(lines: TextBox[][]): string[] {
  const centre = (l: TextBox[]): number => median(l.map((w) => (w.y0 + w.y1) / 2));
  const lineHeight = median(lines.map((l) => median(l.map((w) => w.y1 - w.y0))));
  const pitches = lines.slice(1).map((l, i) => centre(l) - centre(lines[i]!));
  const pitch = pitches.length >= 2 ? median(pitches) : lineHeight * (1 + PARAGRAPH_GAP);
  const out: string[] = [];
  let text = '';
  lines.forEach((line, i) => {
    if (text && i > 0 && centre(line) - centre(lines[i - 1]!) > Math.max(pitch * 1.4, lineHeight * 1.2)) {
      out.push(text);
      text = '';
    }
    text = joinLine(text, line.map((w) => w.text).join(' '));
  });
  if (text) out.push(text);
  return out;
}

/**
 * Rows of a table the words clearly form: words grouped into rows, cells split at wide
 * horizontal gaps; when at least 3 rows share the same 2+ column starts (within a tolerance),
 * those rows are a table. Returns the rows of the table, or none.
 */
export function tableFromWords(words: OcrWord[]): string[][] | undefined {
  if (words.length < 6) return undefined;
  const height = median(words.map((w) => w.y1 - w.y0)) || 10;
  const split = visualLines(words, height).map((line) =>
    segments(line, height * 1.2).map((s) => ({ x: s.x0, text: s.words.map((w) => w.text).join(' ') })),
  );
  const multi = split.filter((c) => c.length >= 2);
  if (multi.length < 3) return undefined;
  // Column starts: clusters of cell left edges that recur in most multi-cell rows.
  const starts = clusters(
    multi.flatMap((r) => r.map((c) => c.x)),
    height * 2,
  ).filter((s) => s.count >= multi.length * 0.6);
  if (starts.length < 2) return undefined;
  const columns = starts.map((s) => s.at).sort((a, b) => a - b);
  return multi.map((cells) => {
    const out = columns.map(() => '');
    for (const c of cells) {
      let k = 0;
      columns.forEach((x, i) => {
        if (c.x >= x - height * 2) k = i;
      });
      out[k] = out[k] ? `${out[k]} ${c.text}` : c.text;
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
