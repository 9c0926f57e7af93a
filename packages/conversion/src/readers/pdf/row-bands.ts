import type { TextItem } from './layout';
import { inOrderOfX, leftmost, partsCells, rightmost, sameType } from './item-geometry';

/**
 * A table row joined from cells drawn one after another, each wrapped onto its own number of lines and set
 * to the top, the middle or the bottom of the row (a browser centres cells; Word sets them to the top).
 */
export interface RowBand {
  /** The baseline of the row's highest line. */
  top: number;
  /** The baseline of its lowest line. */
  bottom: number;
  /** Where each cell after the first starts (its left edge): the row's text parts into cells there. */
  starts: number[];
}

/** A cell wraps onto this many lines at most; more is a column of a page, not a cell. */
const MAX_CELL_LINES = 12;
/** A cell's lines stand at most this many text sizes under each other... */
const LINE_PITCH = 1.5;
/** ...or this many, when flush on the same left edge (a cell's next paragraph). */
const PARAGRAPH_PITCH = 2.2;
/** A row of cells drawn one by one has at least this many (two blocks side by side are a page's columns). */
const MIN_BAND_CELLS = 3;
/** Cells side by side stand at least this many text sizes apart. */
const CELL_GAP = 0.5;
/** A row's neighbour (another row) stands at most this many text sizes above or below it. */
const NEIGHBOUR_REACH = 4;

/** A line group's stretch of text between gaps wide enough to part cells (or the whole group, drawn out of order). */
interface Piece {
  items: TextItem[];
  group: number;
  /** The piece opens its group, or ends it. */
  opens: boolean;
  ends: boolean;
}

/** Pieces drawn one after another under each other: a cell's text, or a paragraph. */
interface Stack {
  /** Its first and last piece. */
  from: number;
  to: number;
  left: number;
  right: number;
  /** The left edge of the stack's first line. */
  firstLeft: number;
  top: number;
  bottom: number;
  size: number;
  lines: number;
  /**
   * Where the stack's cells start: one cell when every line of it is one stretch of text, with no gap wide
   * enough to part cells; a line of several cells (one-line cells drawn one after another on one baseline)
   * stands alone and holds them all.
   */
  starts: number[];
  head: TextItem;
}

/**
 * Rows of a table drawn cell by cell (a browser's, Word's, LibreOffice's), whose cells wrap onto different
 * numbers of lines, each joined into one line group: three or more blocks of lines side by side, left to right,
 * whose lines' tops, middles or bottoms stand level, next to another such row or a line of cells. Without it
 * the row comes as a line per cell line, in no line the cells stand side by side, and no table is read.
 */
export function bandRowsJoined(groups: TextItem[][]): { groups: TextItem[][]; bands: Map<TextItem[], RowBand> } {
  const bands = new Map<TextItem[], RowBand>();
  if (groups.length < MIN_BAND_CELLS || !goesBackUp(groups)) return { groups, bands };
  const pieces = piecesOf(groups);
  const stacks = stacksOf(pieces);
  const rows = candidateRows(stacks, pieces);
  if (!rows.length) return { groups, bands };
  const out: TextItem[][] = [];
  let next = 0;
  rows.forEach((row, k) => {
    if (!supported(rows, k, stacks, pieces, groups)) return;
    const cells = stacks.slice(row.first, row.last + 1);
    const from = pieces[cells[0]!.from]!.group;
    const to = pieces[cells[cells.length - 1]!.to]!.group;
    for (; next < from; next++) out.push(groups[next]!);
    const joined = groups.slice(from, to + 1).flat();
    bands.set(joined, { top: row.top, bottom: row.bottom, starts: row.starts.slice(1) });
    out.push(joined);
    next = to + 1;
  });
  if (!bands.size) return { groups, bands };
  for (; next < groups.length; next++) out.push(groups[next]!);
  return { groups: out, bands };
}

/**
 * Whether a line stands higher than the line drawn before it: a row's next cell after a wrapped one does. Text
 * running down the page never does, and its page is done without more work.
 */
function goesBackUp(groups: TextItem[][]): boolean {
  for (let g = 1; g < groups.length; g++) if (groups[g]![0]!.y > groups[g - 1]![0]!.y + 1) return true;
  return false;
}

/** Each group's stretches, in order; a group drawn out of left-to-right order stays one piece. */
function piecesOf(groups: TextItem[][]): Piece[] {
  const pieces: Piece[] = [];
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    if (!inOrderOfX(group)) {
      pieces.push({ items: group, group: g, opens: true, ends: true });
      continue;
    }
    let from = 0;
    let end = -Infinity;
    for (let i = 0; i < group.length; i++) {
      const item = group[i]!;
      if (!item.text.trim()) continue;
      if (end > -Infinity && partsCells(item.x - end, item.size)) {
        pieces.push({ items: group.slice(from, i), group: g, opens: from === 0, ends: false });
        from = i;
      }
      end = Math.max(end, item.x + item.width);
    }
    pieces.push({ items: from ? group.slice(from) : group, group: g, opens: from === 0, ends: true });
  }
  return pieces;
}

function stacksOf(pieces: Piece[]): Stack[] {
  const stacks: Stack[] = [];
  let current: Stack | undefined;
  for (let g = 0; g < pieces.length; g++) {
    const group = pieces[g]!.items;
    const head = group[0]!;
    const left = leftmost(group);
    const right = rightmost(group);
    const starts = stretchStarts(group);
    if (current && starts.length === 1 && current.starts.length === 1 && under(current, head, left, right)) {
      current.to = g;
      current.left = Math.min(current.left, left);
      current.right = Math.max(current.right, right);
      current.bottom = head.y;
      current.lines++;
      continue;
    }
    current = {
      from: g,
      to: g,
      left,
      right,
      firstLeft: left,
      top: head.y,
      bottom: head.y,
      size: head.size,
      lines: 1,
      starts,
      head,
    };
    stacks.push(current);
  }
  return stacks;
}

/** Whether a line (its first item and its span) goes on the stack: the next line of its text, under it. */
function under(stack: Stack, head: TextItem, left: number, right: number): boolean {
  if (stack.lines >= MAX_CELL_LINES || !sameType(stack.head, head)) return false;
  const drop = stack.bottom - head.y;
  const pitch = drop / stack.size;
  if (drop <= 0 || pitch > PARAGRAPH_PITCH || (pitch > LINE_PITCH && Math.abs(left - stack.firstLeft) > 1))
    return false;
  return left < stack.right && right > stack.left;
}

/** The left edges of the items' stretches of text, parted by gaps wide enough to part two cells (toLine's wide gap). */
function stretchStarts(items: TextItem[]): number[] {
  const sorted = inOrderOfX(items) ? items : [...items].sort((a, b) => a.x - b.x);
  const starts: number[] = [];
  let end = -Infinity;
  for (const item of sorted) {
    if (!item.text.trim()) continue;
    if (end === -Infinity || partsCells(item.x - end, item.size)) starts.push(item.x);
    end = Math.max(end, item.x + item.width);
  }
  return starts;
}

/** Stacks `first`..`last` that make a row, and where its cells start; `pair` for a label and its wrapped text. */
interface Candidate {
  first: number;
  last: number;
  starts: number[];
  /** Baselines of the row's highest and lowest lines. */
  top: number;
  bottom: number;
  pair: boolean;
}

/**
 * Runs of stacks side by side, left to right, standing level, holding 3+ cells, one of them wrapped, that
 * start where a line group starts and end where one ends.
 */
function candidateRows(stacks: Stack[], pieces: Piece[]): Candidate[] {
  const rows: Candidate[] = [];
  for (let i = 0; i < stacks.length; i++) {
    const first = stacks[i]!;
    if (!first.starts.length) continue;
    let last = i;
    let cells = first.starts.length;
    let wrapped = first.lines > 1;
    while (last + 1 < stacks.length) {
      const next = stacks[last + 1]!;
      const prev = stacks[last]!;
      if (!next.starts.length || !sameType(first.head, next.head) || next.left < prev.right + first.size * CELL_GAP)
        break;
      if (!level(stacks, i, last + 1)) break;
      last++;
      cells += next.starts.length;
      wrapped ||= next.lines > 1;
    }
    const whole = pieces[first.from]!.opens && pieces[stacks[last]!.to]!.ends;
    if (!whole || last === i || !wrapped) continue;
    const pair = cells === 2 && isLabelAndText(stacks, i, pieces);
    if ((cells >= MIN_BAND_CELLS && hasShortCell(stacks, i, last, pieces)) || pair) {
      const cellsOf = stacks.slice(i, last + 1);
      rows.push({
        first: i,
        last,
        starts: cellsOf.flatMap((s) => s.starts),
        top: Math.max(...cellsOf.map((s) => s.top)),
        bottom: Math.min(...cellsOf.map((s) => s.bottom)),
        pair,
      });
      i = last;
    }
  }
  return rows;
}

/**
 * Two cells, a one-line label of a few words (not a list's bullet or number) beside text wrapped onto lines of
 * its own: a row of a two-column table ("Field | Description") when rows like it follow.
 */
function isLabelAndText(stacks: Stack[], i: number, pieces: Piece[]): boolean {
  const label = stacks[i]!;
  const text = stacks[i + 1]!;
  if (label.lines !== 1 || label.starts.length !== 1 || text.lines < 2 || text.starts.length !== 1) return false;
  const words = pieces[label.from]!.items.map((item) => item.text.trim()).join(' ');
  return wordCount(words) < SHORT_CELL_WORDS && !LIST_MARK.test(words);
}

/** A list's bullet (one glyph, maybe drawn twice) or number: "•", "1.", "b)", "(iv)". */
const LIST_MARK = /^(?:(\S)\1?|\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,5})[.)])$/iu;

/** Two-column rows (`pair`) stand in a table of at least this many such rows. */
const MIN_PAIR_ROWS = 3;

/**
 * Whether one of the row's cells is a short entry (a name, a figure, a date): blocks of running text side by
 * side (cards on a web page, a page's columns) are no table, as the table reader's prose rule says.
 */
function hasShortCell(stacks: Stack[], from: number, to: number, pieces: Piece[]): boolean {
  for (let k = from; k <= to; k++) {
    const stack = stacks[k]!;
    if (stack.starts.length > 1) return true;
    let words = 0;
    for (let p = stack.from; p <= stack.to && words < SHORT_CELL_WORDS; p++)
      for (const item of pieces[p]!.items) words += wordCount(item.text);
    if (words < SHORT_CELL_WORDS) return true;
  }
  return false;
}

/** A cell of fewer words than this is a short entry. */
const SHORT_CELL_WORDS = 5;

function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 0x20;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Whether stacks `from`..`to` stand with their tops, their middles or their bottoms level. */
function level(stacks: Stack[], from: number, to: number): boolean {
  const tolerance = Math.max(2, 0.45 * stacks[from]!.size);
  const spread = (at: (s: Stack) => number): number => {
    let low = Infinity;
    let high = -Infinity;
    for (let k = from; k <= to; k++) {
      const v = at(stacks[k]!);
      low = Math.min(low, v);
      high = Math.max(high, v);
    }
    return high - low;
  };
  return (
    spread((s) => s.top) <= tolerance ||
    spread((s) => s.bottom) <= tolerance ||
    spread((s) => (s.top + s.bottom) / 2) <= tolerance
  );
}

/**
 * Whether two rows' cells fall in the same columns: as many cells, each starting before the other's next one
 * starts (centred cells start at different places in one column).
 */
function sameColumns(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    if (a[k]! >= (b[k + 1] ?? Infinity) || b[k]! >= (a[k + 1] ?? Infinity)) return false;
  }
  return true;
}

/**
 * A row stands next to another: a row found just before or after it or anywhere on the page in the same
 * columns, or a line of cells (a header, a row of one-line cells) right above or below it. A lone row of
 * three blocks is a page's columns more often than a table.
 */
function supported(rows: Candidate[], k: number, stacks: Stack[], pieces: Piece[], groups: TextItem[][]): boolean {
  const row = rows[k]!;
  if (row.pair) {
    let alike = 1;
    for (let j = 0; j < rows.length && alike < MIN_PAIR_ROWS; j++)
      if (j !== k && rows[j]!.pair && sameColumns(row.starts, rows[j]!.starts)) alike++;
    return alike >= MIN_PAIR_ROWS;
  }
  if (rows[k - 1]?.last === row.first - 1 || rows[k + 1]?.first === row.last + 1) return true;
  if (rows.some((other, j) => j !== k && sameColumns(row.starts, other.starts))) return true;
  const { top, bottom } = row;
  const reach = stacks[row.first]!.size * NEIGHBOUR_REACH;
  const before = pieces[stacks[row.first]!.from]!.group - 1;
  const after = pieces[stacks[row.last]!.to]!.group + 1;
  const above = groups[before]?.[0]?.y;
  const below = groups[after]?.[0]?.y;
  return (
    (above !== undefined && above > top && above - top <= reach && cellsIn(groups[before]!) > 1) ||
    (below !== undefined && below < bottom && bottom - below <= reach && cellsIn(groups[after]!) > 1)
  );
}

/** How many cells a line group holds: its stretches of text. */
function cellsIn(group: TextItem[]): number {
  return stretchStarts(group).length;
}
