import { partsCells } from './item-geometry';
import type { TextItem } from './layout';
import type { Rule } from './rulings';
import { letterPositions } from './glyph-widths';
import { wrapsWithoutSpace } from './styled-runs';

/** Rules whose ends are this close (points) meet; two positions this close are one grid line. */
const TOLERANCE = 3;

export interface RuledTable {
  /** y of the table's top and bottom edges (points, upwards). */
  top: number;
  bottom: number;
  /** x of the table's left and right edges (points). */
  left?: number;
  right?: number;
  /** Cell texts; a merged cell's text is repeated in every grid cell it spans. */
  rows: string[][];
}

/**
 * Tables drawn with ruling lines: rules that touch form a grid; each text item goes to the grid cell
 * under it; where the rule between two grid cells is missing the cells are one merged cell.
 * Returns the tables and the items left for the page's running text.
 */
export function ruledTables(rules: Rule[], items: TextItem[]): { tables: RuledTable[]; rest: TextItem[] } {
  const tables: RuledTable[] = [];
  let rest = items;
  const { unique, repeated } = withoutRepeats(rules);
  for (const group of connectedGroups(unique)) {
    const table = gridTable(group, rest, repeated);
    if (!table) continue;
    tables.push(table.table);
    rest = itemsLeft(rest, table.used);
  }
  return { tables: tables.sort(topFirst), rest };
}

/**
 * The items a table did not take. A function of its own: a loop in ruledTables, which runs once a page, would make
 * V8 optimise all of it with what it inlines.
 */
function itemsLeft(items: TextItem[], used: Set<TextItem>): TextItem[] {
  const left: TextItem[] = [];
  for (const item of items) if (!used.has(item)) left.push(item);
  return left;
}

// Comparators and loops at module level, not arrow functions per call: V8 compiles a hot closure again for every
// new instance of it, and a sort calls its comparator often enough to make each one hot.
function topFirst(a: RuledTable, b: RuledTable): number {
  return b.top - a.top;
}

function ascending(a: number, b: number): number {
  return a - b;
}

function byAt(a: Rule, b: Rule): number {
  return a.at - b.at;
}

/**
 * The rules less those drawn again exactly (the edge two cells share, when each cell is stroked as a box: 96 rules
 * for 58 on a 4 x 6 grid), first ones kept in order, and the kept rules that were drawn more than once. A group's
 * rules are asked whether some rule covers a point, where they meet and which positions they take, which a repeat
 * does not change; only gridTable's count of rules per direction counts repeats, and it is told them.
 */
export function withoutRepeats(rules: Rule[]): { unique: Rule[]; repeated: Set<Rule> } {
  const byPosition = new Map<number, Rule[]>();
  const unique: Rule[] = [];
  const repeated = new Set<Rule>();
  for (const rule of rules) {
    const same = byPosition.get(rule.at);
    const first = same && firstSame(same, rule);
    if (first) {
      repeated.add(first);
      continue;
    }
    if (same) same.push(rule);
    else byPosition.set(rule.at, [rule]);
    unique.push(rule);
  }
  return { unique, repeated };
}

/** The first of `rules` that is the same rule as `rule` (a loop: this runs per rule drawn, a callback per call was garbage). */
function firstSame(rules: Rule[], rule: Rule): Rule | undefined {
  for (const r of rules) if (sameRule(r, rule)) return r;
  return undefined;
}

/** The same rule, to the bit: Object.is tells -0 from 0, and no NaN equals another, as a comparison would. */
function sameRule(a: Rule, b: Rule): boolean {
  return (
    a.horizontal === b.horizontal &&
    Object.is(a.at, b.at) &&
    Object.is(a.from, b.from) &&
    Object.is(a.to, b.to) &&
    !Number.isNaN(a.at + a.from + a.to)
  );
}

function touches(a: Rule, b: Rule): boolean {
  if (a.horizontal === b.horizontal) {
    return Math.abs(a.at - b.at) <= TOLERANCE && a.from <= b.to + TOLERANCE && b.from <= a.to + TOLERANCE;
  }
  // No [h, v] pair is built: this runs for every pair of a page's rules, and the arrays were most of the reader's garbage.
  return a.horizontal ? crosses(a, b) : crosses(b, a);
}

/** Whether a horizontal rule and a vertical one meet (within the tolerance). */
function crosses(h: Rule, v: Rule): boolean {
  return (
    v.at >= h.from - TOLERANCE && v.at <= h.to + TOLERANCE && h.at >= v.from - TOLERANCE && h.at <= v.to + TOLERANCE
  );
}

/**
 * Rules grouped by touching (union-find): each group is one drawn grid. Only pairs that can touch
 * are compared: rules of one direction within the tolerance of each other's position, and rules of
 * the other direction whose position falls within a rule's extent (both found in position order).
 */
export function connectedGroups(rules: Rule[]): Rule[][] {
  const parent: number[] = [];
  for (let i = 0; i < rules.length; i++) parent.push(i);
  const horizontal = byPosition(rules, true);
  const vertical = byPosition(rules, false);
  joinAlongside(rules, horizontal, parent);
  joinAlongside(rules, vertical, parent);
  joinCrossing(rules, horizontal, vertical, parent);
  const groups = new Map<number, Rule[]>();
  for (let i = 0; i < rules.length; i++) {
    const root = rootOf(parent, i);
    const group = groups.get(root);
    if (group) group.push(rules[i]!);
    else groups.set(root, [rules[i]!]);
  }
  return [...groups.values()];
}

/** Indices of the rules of one direction, by position; a rule without a position (NaN) touches nothing and is left out. */
function byPosition(rules: Rule[], horizontal: boolean): number[] {
  const order: number[] = [];
  for (let i = 0; i < rules.length; i++)
    if (rules[i]!.horizontal === horizontal && !Number.isNaN(rules[i]!.at)) order.push(i);
  return order.sort((a, b) => rules[a]!.at - rules[b]!.at);
}

/** Joins rules of one direction (indices by position) that touch: only those within the tolerance of each other's position can. */
function joinAlongside(rules: Rule[], same: number[], parent: number[]): void {
  for (let k = 0; k < same.length; k++) {
    const a = rules[same[k]!]!;
    for (let m = k + 1; m < same.length && rules[same[m]!]!.at - a.at <= TOLERANCE; m++) {
      if (touches(a, rules[same[m]!]!)) parent[rootOf(parent, same[k]!)] = rootOf(parent, same[m]!);
    }
  }
}

/** Joins horizontal and vertical rules that meet: a vertical rule only where its position is within the horizontal's extent. */
function joinCrossing(rules: Rule[], horizontal: number[], vertical: number[], parent: number[]): void {
  for (const h of horizontal) {
    const a = rules[h]!;
    for (let m = firstAtOrAbove(rules, vertical, a.from - TOLERANCE); m < vertical.length; m++) {
      const b = rules[vertical[m]!]!;
      if (b.at > a.to + TOLERANCE) break;
      if (touches(a, b)) parent[rootOf(parent, h)] = rootOf(parent, vertical[m]!);
    }
  }
}

/** The first index into `order` (rule indices sorted by position) whose rule stands at `at` or beyond. */
function firstAtOrAbove(rules: Rule[], order: number[], at: number): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (rules[order[mid]!]!.at < at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Sorted positions with near-equal ones merged. */
function positions(values: number[]): number[] {
  const sorted = [...values].sort(ascending);
  const out: number[] = [];
  for (const v of sorted) if (!out.length || v - out[out.length - 1]! > TOLERANCE) out.push(v);
  return out;
}

function covered(rules: Rule[], horizontal: boolean, at: number, point: number): boolean {
  // A loop, not some(): this runs per grid cell and per text item, and a closure per call was garbage and compile work.
  for (let k = 0; k < rules.length; k++) {
    const r = rules[k]!;
    if (
      r.horizontal === horizontal &&
      Math.abs(r.at - at) <= TOLERANCE &&
      r.from - TOLERANCE <= point &&
      point <= r.to + TOLERANCE
    )
      return true;
  }
  return false;
}

/** A grid drawn by one group of rules: its column edges left to right and row edges top down. */
interface Grid {
  horizontal: Rule[];
  vertical: Rule[];
  /** Row edges drawn only as breaks in the column rules (see rowBreaks). */
  breaks: number[];
  xs: number[];
  ys: number[];
  cols: number;
  rows: number;
}

/**
 * A group's rules read as a table. Its steps are functions of their own: one function holding them all
 * was compiled by V8's optimiser three times per worker, over 10 % of the instructions of its first two 100-page reads.
 */
function gridTable(
  group: Rule[],
  items: TextItem[],
  repeated: Set<Rule>,
): { table: RuledTable; used: Set<TextItem> } | undefined {
  const grid = gridOf(group, repeated);
  if (!grid) return undefined;
  const cells = mergedCells(grid);
  const { texts, used } = itemsInCells(grid, cells, items);
  if (used.size === 0 || [...texts.values()].some(holdsLayout)) return undefined;
  const rows = cellRows(grid, cells, texts);
  if (!rows.length || rows[0]!.length < 2) return undefined;
  const { xs, ys, cols } = grid;
  return { table: { top: ys[0]!, bottom: ys[grid.rows]!, left: xs[0]!, right: xs[cols]!, rows }, used };
}

/**
 * The grid the rules draw, or undefined when they draw fewer than two rows or two columns. This and the other steps run
 * once per table: plain loops, not array methods with callbacks, which V8's optimising compiler inlines one by one.
 */
function gridOf(group: Rule[], repeated: Set<Rule>): Grid | undefined {
  const horizontal: Rule[] = [];
  const vertical: Rule[] = [];
  for (const r of group) (r.horizontal ? horizontal : vertical).push(r);
  // Two rules of each direction as drawn: one rule drawn twice counts twice.
  const twoDrawn = (rules: Rule[]): boolean => rules.length >= 2 || (rules.length === 1 && repeated.has(rules[0]!));
  if (!twoDrawn(horizontal) || !twoDrawn(vertical)) return undefined;
  // Math.min over the values one by one is Math.min over all of them (NaN wins, -0 is below 0).
  let left = Infinity;
  let right = -Infinity;
  let bottom = Infinity;
  let top = -Infinity;
  for (const r of horizontal) {
    left = Math.min(left, r.from);
    right = Math.max(right, r.to);
  }
  for (const r of vertical) {
    bottom = Math.min(bottom, r.from);
    top = Math.max(top, r.to);
  }
  const columnEdges = [left, right];
  for (const r of vertical) columnEdges.push(r.at);
  const xs = positions(columnEdges);
  const breaks = rowBreaks(vertical, horizontal, bottom, top);
  const rowEdges = [bottom, top];
  for (const r of horizontal) rowEdges.push(r.at);
  for (const y of breaks) rowEdges.push(y);
  // Top first: rows are read downwards.
  const ys = positions(rowEdges).reverse();
  const cols = xs.length - 1;
  const rows = ys.length - 1;
  if (cols < 2 || rows < 2) return undefined;
  return { horizontal, vertical, breaks, xs, ys, cols, rows };
}

/** The root of i in a union-find forest (paths shortened on the way). */
function rootOf(parent: number[], i: number): number {
  let root = i;
  while (parent[root] !== root) root = parent[root]!;
  while (parent[i] !== root) {
    const next = parent[i]!;
    parent[i] = root;
    i = next;
  }
  return root;
}

/** Merged cells: grid cells (row * cols + col) joined where the rule between them is missing; one root per cell. */
function mergedCells({ horizontal, vertical, breaks, xs, ys, cols, rows }: Grid): number[] {
  // Plain loops, not Array.from({ length }): V8 fills that from an array-like, one property lookup per index.
  const parent: number[] = [];
  for (let i = 0; i < rows * cols; i++) parent.push(i);
  for (let r = 0; r < rows; r++) {
    const midY = (ys[r]! + ys[r + 1]!) / 2;
    for (let c = 0; c < cols; c++) {
      const midX = (xs[c]! + xs[c + 1]!) / 2;
      const cell = r * cols + c;
      if (c + 1 < cols && !covered(vertical, false, xs[c + 1]!, midY))
        parent[rootOf(parent, cell)] = rootOf(parent, cell + 1);
      if (r + 1 < rows && !covered(horizontal, true, ys[r + 1]!, midX) && !nearAny(breaks, ys[r + 1]!))
        parent[rootOf(parent, cell)] = rootOf(parent, cell + cols);
    }
  }
  return parent;
}

/** Whether some value lies within the tolerance of y. */
function nearAny(values: number[], y: number): boolean {
  for (let k = 0; k < values.length; k++) if (Math.abs(values[k]! - y) <= TOLERANCE) return true;
  return false;
}

/**
 * The first k < count with value between edges k and k + 1 (ends included), or -1: edges ascending when `ascending`,
 * descending otherwise (a grid's rows are read top down).
 */
export function spanOf(edges: number[], count: number, value: number, ascending: boolean): number {
  for (let k = 0; k < count; k++) {
    const inside = ascending
      ? value >= edges[k]! && value <= edges[k + 1]!
      : value <= edges[k]! && value >= edges[k + 1]!;
    if (inside) return k;
  }
  return -1;
}

/** The page's items placed in the grid's cells (by their merged cell's root), and the items any piece of went in. */
function itemsInCells(
  { vertical, xs, ys, cols, rows }: Grid,
  parent: number[],
  items: TextItem[],
): { texts: Map<number, TextItem[]>; used: Set<TextItem> } {
  const texts = new Map<number, TextItem[]>();
  const used = new Set<TextItem>();
  const inner = xs.slice(1, -1);
  for (const original of items) {
    // Pieces keep their item's height: an item above or below the grid is not split to find that out.
    const midY = original.y + original.size / 3;
    if (midY > ys[0]! || midY < ys[rows]!) continue;
    const pieces = splitAtRules(original, inner, vertical);
    for (const item of pieces) {
      // The item's start and its vertical middle place it: a long run merged across cells belongs where it starts.
      const x = item.x + Math.min(item.width / 2, 2);
      const y = item.y + item.size / 3;
      if (x < xs[0]! || x > xs[cols]! || y > ys[0]! || y < ys[rows]!) continue;
      const c = spanOf(xs, cols, x, true);
      const r = spanOf(ys, rows, y, false);
      if (c < 0 || r < 0) continue;
      const root = rootOf(parent, r * cols + c);
      const list = texts.get(root);
      if (list) list.push(item);
      else texts.set(root, [item]);
      used.add(original);
    }
  }
  return { texts, used };
}

/** The table's rows of cell texts: empty rows and columns dropped, a merged cell's text in every grid cell it spans. */
function cellRows({ cols, rows }: Grid, parent: number[], texts: Map<number, TextItem[]>): string[][] {
  const cellText = new Map<number, string>();
  // A table in a right-to-left script reads each cell from the right, a cell of Latin words and numbers too.
  const rtl = mostlyRtl([...texts.values()].flat());
  for (const [root, list] of texts) cellText.set(root, readCell(list, rtl));
  const filled: string[][] = [];
  const keep: boolean[] = [];
  for (let c = 0; c < cols; c++) keep.push(false);
  for (let r = 0; r < rows; r++) {
    const row: string[] = [];
    let any = false;
    for (let c = 0; c < cols; c++) {
      const text = cellText.get(rootOf(parent, r * cols + c)) ?? '';
      row.push(text);
      if (text) any = true;
    }
    if (!any) continue;
    filled.push(row);
    for (let c = 0; c < cols; c++) if (row[c]) keep[c] = true;
  }
  if (boxesOnAPage(parent, keep, cols, rows)) return [];
  // A merged cell spread over columns it alone fills becomes one column again.
  return dropRepeatedColumns(columnsKept(filled, keep));
}

/** A grid of at least this many columns with text… */
const MIN_LAYOUT_COLUMNS = 8;
/** …none of whose rows has cells of its own in this share of them is no table. */
const MIN_FULL_ROW_SHARE = 0.9;

/**
 * Whether the grid is framed boxes and guide lines set about a page, not a table: its columns are the union of
 * boxes' edges that no row shares (each row's few boxes span many of them), so read as a table each box's text
 * repeats across the columns it spans. A table has rows whose cells take one column each (its body), merged
 * headers or not. Columns with no text are not counted.
 */
function boxesOnAPage(parent: number[], keep: boolean[], cols: number, rows: number): boolean {
  const kept: number[] = [];
  for (let c = 0; c < cols; c++) if (keep[c]) kept.push(c);
  if (kept.length < MIN_LAYOUT_COLUMNS) return false;
  let widest = 0;
  for (let r = 0; r < rows; r++) {
    const cells = new Set<number>();
    for (const c of kept) cells.add(rootOf(parent, r * cols + c));
    widest = Math.max(widest, cells.size);
  }
  return widest < kept.length * MIN_FULL_ROW_SHARE;
}

/** Each row with only the columns marked kept. */
function columnsKept(grid: string[][], keep: boolean[]): string[][] {
  const out: string[][] = [];
  for (const row of grid) {
    const kept: string[] = [];
    for (let c = 0; c < row.length; c++) if (keep[c]) kept.push(row[c]!);
    out.push(kept);
  }
  return out;
}

/**
 * Row edges drawn only as breaks in the column rules: heights where every column rule crossing
 * them ends and starts again (producers that draw borders cell by cell and leave a row's own rule
 * out, under a shaded header for instance), among rules that elsewhere run through row rules.
 * A column rule running through the break marks a merged cell.
 */
function rowBreaks(vertical: Rule[], horizontal: Rule[], bottom: number, top: number): number[] {
  // Column rules cut at every row (LaTeX draws them line by line) say nothing: only a cut in rules that run through row rules does.
  if (!runsThroughRow(vertical, horizontal)) return [];
  const columns = positions(vertical.map((r) => r.at));
  const ends = positions(vertical.flatMap((r) => [r.from, r.to])).filter(
    (y) => y > bottom + TOLERANCE && y < top - TOLERANCE,
  );
  const at = (x: number, end: 'from' | 'to', y: number): boolean =>
    vertical.some((r) => Math.abs(r.at - x) <= TOLERANCE && Math.abs(r[end] - y) <= TOLERANCE);
  return ends.filter((y) => {
    const crossing = columns.filter((x) => covered(vertical, false, x, y));
    return crossing.length >= 2 && crossing.every((x) => at(x, 'to', y) && at(x, 'from', y));
  });
}

/** Whether a column rule crosses a row rule between its ends (row rules looked up by their height, not all of them per column rule). */
export function runsThroughRow(vertical: Rule[], horizontal: Rule[]): boolean {
  const rows: Rule[] = [];
  for (const h of horizontal) if (!Number.isNaN(h.at)) rows.push(h);
  rows.sort(byAt);
  for (const v of vertical) if (crossesRowBetweenEnds(v, rows)) return true;
  return false;
}

/** Whether column rule v crosses one of the row rules (sorted by height) between its ends. */
function crossesRowBetweenEnds(v: Rule, rows: Rule[]): boolean {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (rows[mid]!.at > v.from + TOLERANCE) high = mid;
    else low = mid + 1;
  }
  for (let k = low; k < rows.length && rows[k]!.at < v.to - TOLERANCE; k++) {
    const h = rows[k]!;
    if (h.from - TOLERANCE <= v.at && v.at <= h.to + TOLERANCE) return true;
  }
  return false;
}

/**
 * A run of text crossing a drawn column rule (poppler joins words closer than about a letter's
 * width, even across a rule) is cut at the space nearest each rule, letters placed by their widths (glyph-widths.ts).
 */
function splitAtRules(item: TextItem, edges: number[], vertical: Rule[]): TextItem[] {
  const midY = item.y + item.size / 3;
  // Most items cross no rule: found by a loop before any array is made.
  let crossing: number[] | undefined;
  for (const x of edges) {
    if (x > item.x + 2 && x < item.x + item.width - 2 && covered(vertical, false, x, midY)) (crossing ??= []).push(x);
  }
  if (!crossing || item.text.length < 2) return [item];
  const at = letterPositions(item.text, item.x, item.width);
  const cuts: number[] = [];
  // The rule each cut was made for: the text after the cut starts right of it, whatever the letters' widths.
  const ruleAt = new Map<number, number>();
  for (const x of crossing) {
    let best = -1;
    for (let i = 1; i < item.text.length; i++) {
      if (item.text[i] === ' ' && (best < 0 || Math.abs(at[i]! - x) < Math.abs(at[best]! - x))) best = i;
    }
    if (best > 0 && !cuts.includes(best)) {
      cuts.push(best);
      ruleAt.set(best, x);
    }
  }
  cuts.sort(ascending);
  const bounds = [0, ...cuts, item.text.length];
  return bounds.slice(0, -1).map((start, k) => {
    const end = bounds[k + 1]!;
    const x = Math.max(at[start]!, ruleAt.get(start) ?? -Infinity);
    // A cut is made at a space: a piece after it starts a word, should a merged cell hold the pieces either side.
    const spaceBefore = k > 0 || item.spaceBefore;
    return { ...item, text: item.text.slice(start, end).trim(), x, width: Math.max(at[end]!, x + 1) - x, spaceBefore };
  });
}

/** Lines of text one table cell holds at most; a box around more is a frame around page content. */
const MAX_CELL_LINES = 8;

/** A box holding many lines or text set in columns frames a part of the page; it is no table cell. */
function holdsLayout(items: TextItem[]): boolean {
  // One item is one line of one run (most cells): nothing to sort or group.
  if (items.length === 1) return false;
  const baselines: TextItem[][] = [];
  // A turned run's pieces stand one above the other but are one line of text.
  for (const item of items.filter((i) => !isTurned(i)).sort(topDownThenLeft)) {
    const line = baselines.find((l) => Math.abs(l[0]!.y - item.y) <= item.size / 2);
    if (line) line.push(item);
    else baselines.push([item]);
  }
  if (baselines.length > MAX_CELL_LINES) return true;
  return baselines.some((line) =>
    line.some((item, k) => k > 0 && partsCells(item.x - (line[k - 1]!.x + line[k - 1]!.width), item.size)),
  );
}

/** Columns identical to their left neighbour in every row add nothing. */
function dropRepeatedColumns(grid: string[][]): string[][] {
  const width = grid[0]?.length ?? 0;
  const keep: boolean[] = [];
  for (let c = 0; c < width; c++) {
    let differs = c === 0;
    for (let r = 0; r < grid.length && !differs; r++) differs = grid[r]![c] !== grid[r]![c - 1];
    keep.push(differs);
  }
  return columnsKept(grid, keep);
}

/**
 * Whether an item goes on from the one before it on its line without a space: a style's run ends
 * and the next begins inside a word or before its punctuation ("*ital*, then"), no space drawn
 * at either side and no more than a word space's fraction between them (as lines are joined).
 */
function runsOnFrom(before: TextItem, item: TextItem, rtl: boolean): boolean {
  if (Math.abs(before.y - item.y) > Math.min(before.size, item.size) / 2) return false;
  if (/\s$/.test(before.text) || /^\s/.test(item.text) || item.spaceBefore) return false;
  // A right-to-left cell is read from the right: the gap is left of the text read so far.
  const gap = rtl ? before.x - (item.x + item.width) : item.x - (before.x + before.width);
  return gap <= item.size * 0.15;
}

/** A cell's items in reading order: lines top-down, each left to right, wrapped words re-joined. */
function readCell(items: TextItem[], rtl: boolean): string {
  if (items.length === 1 && !isTurned(items[0]!)) return items[0]!.text.trim();
  // Text turned to run upwards (a narrow column's header) comes from poppler in zero-width pieces, bottom first.
  if (items.every(isTurned)) {
    return [...items]
      .sort((a, b) => a.x - b.x || a.y - b.y)
      .map((i) => i.text)
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  }
  const sorted = [...items].sort(rtl ? byLineThenRight : byLineThenLeft);
  let out = '';
  let last: TextItem | undefined;
  for (const item of sorted) {
    const text = item.text.trim();
    if (!text) continue;
    if (!out) out = text;
    else if (/\p{Ll}-$/u.test(out) && /^\p{Ll}/u.test(text)) out = out.slice(0, -1) + text;
    else out += runsOnFrom(last!, item, rtl) || wrapsWithoutSpace(out, text) ? text : ` ${text}`;
    last = item;
  }
  return out;
}

function topDownThenLeft(a: TextItem, b: TextItem): number {
  return b.y - a.y || a.x - b.x;
}

/** Lines top-down (items within half a size of each other's baseline are one line), each left to right. */
function byLineThenLeft(a: TextItem, b: TextItem): number {
  return Math.abs(a.y - b.y) > Math.min(a.size, b.size) / 2 ? b.y - a.y : a.x - b.x;
}

/** Lines top-down, each right to left: a cell in a right-to-left script, Latin words and numbers among its words. */
function byLineThenRight(a: TextItem, b: TextItem): number {
  return Math.abs(a.y - b.y) > Math.min(a.size, b.size) / 2 ? b.y - a.y : b.x + b.width - (a.x + a.width);
}

/** Whether a table's text is mostly in a right-to-left script (as a line is read from its right edge). */
function mostlyRtl(items: TextItem[]): boolean {
  let rtl = 0;
  let other = 0;
  for (const i of items) {
    if (i.rtl) rtl += i.text.trim().length;
    else other += i.text.trim().length;
  }
  return rtl > 0 && rtl > other / 2;
}

/** poppler gives text set at a right angle as pieces of zero width. */
function isTurned(item: TextItem): boolean {
  return item.width === 0 && item.text.trim() !== '';
}
