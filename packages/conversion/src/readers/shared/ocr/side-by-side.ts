import { median, unionBox, type Box } from './boxes';

interface Word {
  text: string;
  bbox: Box;
}

export interface PageLine<W extends Word> {
  bbox: Box;
  words: W[];
}

export interface PageBlock<W extends Word> {
  bbox: Box;
  paragraphs: Array<{ lines: Array<PageLine<W>> }>;
}

/** Lines of fewer words than this (median) are labels, values or cells, not running text. */
export const RUNNING_TEXT_WORDS = 4;
/** Two lines are one row when their centres are closer than this share of the line height. */
const SAME_ROW = 0.5;
/** A block joins its left neighbour's rows when at least this share of its lines lines up with them. */
const MIN_ROWS_SHARED = 0.8;

/**
 * Tesseract's page layout analysis reads a form's column of labels, then its column of values (or
 * one table column after another) as separate blocks. A block of short lines that lies right of an
 * earlier block, its lines on rows of that block, is read into those rows instead, so a label and
 * its value (a table row) stay together. Columns of running text keep their own blocks.
 */
export function joinSideBySide<W extends Word>(blocks: Array<PageBlock<W>>): Array<PageBlock<W>> {
  const out: Array<PageBlock<W>> = [];
  for (const block of blocks) {
    const target = out.find((left) => readsAcross(left, block));
    if (!target) {
      out.push(block);
      continue;
    }
    const rows = target.paragraphs.flatMap((p) => p.lines);
    for (const line of block.paragraphs.flatMap((p) => p.lines)) {
      const row = rowOf(rows, line);
      if (!row) {
        target.paragraphs.push({ lines: [line] });
        continue;
      }
      row.words = [...row.words, ...line.words].sort((a, b) => a.bbox.x0 - b.bbox.x0);
      row.bbox = unionBox(row.bbox, line.bbox);
    }
    target.bbox = unionBox(target.bbox, block.bbox);
  }
  return out;
}

/** Whether `right` is a block of short lines whose lines fall on `left`'s rows, beside their words. */
function readsAcross<W extends Word>(left: PageBlock<W>, right: PageBlock<W>): boolean {
  const lines = right.paragraphs.flatMap((p) => p.lines);
  if (!lines.length || median(lines.map((l) => l.words.length)) >= RUNNING_TEXT_WORDS) return false;
  const rows = left.paragraphs.flatMap((p) => p.lines);
  return lines.filter((l) => rowOf(rows, l)).length >= lines.length * MIN_ROWS_SHARED;
}

function rowOf<W extends Word>(rows: Array<PageLine<W>>, line: PageLine<W>): PageLine<W> | undefined {
  const centre = (b: Box): number => (b.y0 + b.y1) / 2;
  const height = line.bbox.y1 - line.bbox.y0;
  const apart = (r: PageLine<W>): boolean => !r.words.some((w) => w.bbox.x1 > line.bbox.x0 && w.bbox.x0 < line.bbox.x1);
  return rows.find((r) => Math.abs(centre(r.bbox) - centre(line.bbox)) < height * SAME_ROW && apart(r));
}
