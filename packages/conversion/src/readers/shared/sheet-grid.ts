import * as XLSX from '@e965/xlsx';
import { formulaValue, holdsEmptyTextResult } from './sheet-formulas';

/** Cells read per workbook (SheetJS sheetRows bounds parsing, not just rendering). */
export const MAX_COLUMNS = 500;
/** Sheets larger than this are shown as one table, not split into regions (the fill is O(cells)). */
const MAX_REGION_CELLS = 2_000_000;

/** The cell at row `r`, column `c` (from 0) of a sheet read dense (rows as arrays) or keyed by address. */
export function sheetCell(sheet: XLSX.WorkSheet, r: number, c: number): XLSX.CellObject | undefined {
  const dense = sheet['!data'];
  return dense ? dense[r]?.[c] : (sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined);
}

/** The sheet's displayed text as rows (see `sheetGrid`). */
export function sheetRows(sheet: XLSX.WorkSheet, date1904 = false): string[][] {
  return sheetGrid(sheet, date1904).rows;
}

/**
 * The sheet's displayed text as rows, trimmed to the filled cells' bounding box. A blank row
 * inside stays (as `[]`) so tables one under another stay apart, and a merged range shows its
 * value in every cell it covers (as DOCX and PPTX tables), which also keeps it in one table.
 */
export function sheetGrid(
  sheet: XLSX.WorkSheet,
  date1904: boolean,
  localeDates?: ReadonlyMap<string, string>,
): { rows: string[][]; top: number; left: number } {
  const ref = sheet['!ref'];
  if (!ref) return { rows: [], top: 0, left: 0 };
  const range = XLSX.utils.decode_range(ref);
  const firstCol = range.s.c;
  const lastCol = Math.min(range.e.c, firstCol + MAX_COLUMNS - 1);
  const width = lastCol - firstCol + 1;
  const dense = sheet['!data'];
  // Indexed from the range's first row; an absent or blank row stays undefined.
  const grid = new Array<string[] | undefined>(range.e.r - range.s.r + 1);
  for (let r = range.s.r; r <= range.e.r; r++) {
    if (dense && !dense[r]) continue;
    const row = new Array<string>(width);
    let filled = false;
    for (let c = firstCol; c <= lastCol; c++) {
      const text = cellText(sheetCell(sheet, r, c), date1904, sheet, r, c, localeDates);
      row[c - firstCol] = text;
      if (text !== '') filled = true;
    }
    if (filled) grid[r - range.s.r] = row;
  }
  const box = filledBox(grid, width);
  if (!box) return { rows: [], top: 0, left: 0 };
  spreadMerges(sheet['!merges'] ?? [], grid, width, { row: range.s.r, col: firstCol }, box);
  const rows: string[][] = [];
  for (let r = box.top; r <= box.bottom; r++) {
    const row = grid[r];
    rows.push(row ? (box.left === 0 && box.right === width - 1 ? row : row.slice(box.left, box.right + 1)) : []);
  }
  return { rows, top: range.s.r + box.top, left: firstCol + box.left };
}

/** The bounding box (grid indexes) of the grid's filled cells, or undefined when none is. */
function filledBox(grid: (string[] | undefined)[], width: number): Box | undefined {
  const box = { top: grid.length, left: width, bottom: -1, right: -1 };
  for (let r = 0; r < grid.length; r++) {
    const row = grid[r];
    if (!row) continue;
    const first = row.findIndex((c) => c !== '');
    if (first < 0) continue;
    let last = row.length - 1;
    while (row[last] === '') last--;
    if (r < box.top) box.top = r;
    box.bottom = r;
    if (first < box.left) box.left = first;
    if (last > box.right) box.right = last;
  }
  return box.bottom < 0 ? undefined : box;
}

/** Characters written into merged ranges per sheet, so one long value merged over a huge range can't blow up the output. */
export const MAX_SPREAD_CHARS = 2_000_000;

/**
 * Writes each merged range's value into every cell it covers, clipped to the box of filled cells
 * (a range reaching past the data adds no rows or columns); a range with no value is formatting.
 */
function spreadMerges(
  merges: XLSX.Range[],
  grid: (string[] | undefined)[],
  width: number,
  origin: { row: number; col: number },
  box: Box,
): void {
  let budget = MAX_SPREAD_CHARS;
  for (const m of merges) {
    const value = grid[m.s.r - origin.row]?.[m.s.c - origin.col] ?? '';
    if (value === '') continue;
    const top = Math.max(m.s.r - origin.row, box.top);
    const bottom = Math.min(m.e.r - origin.row, box.bottom);
    const left = Math.max(m.s.c - origin.col, box.left);
    const right = Math.min(m.e.c - origin.col, box.right);
    for (let r = top; r <= bottom; r++) {
      const row = (grid[r] ??= new Array<string>(width).fill(''));
      for (let c = left; c <= right; c++) {
        if (budget < value.length) return;
        row[c] = value;
        budget -= value.length;
      }
    }
  }
}

/** `'It''s'!$A$1:$B$3` or `Data!B1`: a sheet (quoted or bare) and one cell or range, nothing else. */
const SHEET_RANGE = /^(?:'((?:[^']|'')+)'|([^'!]+))!\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/;

/**
 * The displayed texts of the cells a formula such as `'Data'!$B$2:$B$4` names, row by row, at most
 * `max`; none when the formula is anything else (a union, a name) or its sheet was not read.
 */
export function rangeTexts(wb: XLSX.WorkBook, formula: string, max: number): string[] {
  const m = SHEET_RANGE.exec(formula.trim());
  if (!m) return [];
  const name = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!;
  const sheet = wb.Sheets[name];
  if (!sheet) return [];
  const range = XLSX.utils.decode_range(`${m[3]}${m[4]}:${m[5] ?? m[3]}${m[6] ?? m[4]}`);
  const date1904 = wb.Workbook?.WBProps?.date1904 ?? false;
  const out: string[] = [];
  for (let r = range.s.r; r <= range.e.r && out.length < max; r++)
    for (let c = range.s.c; c <= range.e.c && out.length < max; c++)
      out.push(cellText(sheetCell(sheet, r, c), date1904));
  return out;
}

/**
 * Excel's built-in short date and date-time (format ids 14 and 22, which SheetJS names by their
 * US pattern) are drawn in the reader's locale, never with a two-digit year; ISO says the same
 * date to every reader.
 */
const LOCALE_DATE_FORMATS = new Map([
  ['m/d/yy', 'yyyy-mm-dd'],
  ['m/d/yy h:mm', 'yyyy-mm-dd hh:mm'],
]);

/** A formula that is a boolean constant: `TRUE()`, `FALSE()` (ODS, XLSX), `true` (BIFF as SheetJS reads it). */
const BOOLEAN_FORMULA = /^\s*=?\s*(true|false)\s*(?:\(\s*\))?\s*$/i;

/**
 * A cell as the sheet shows it; `localeDates`: more format codes drawn in the reader's locale (an
 * ODS's language-default date styles, see spreadsheet/ods-locale-dates.ts), written ISO as ids 14 and 22.
 */
function cellText(
  cell: XLSX.CellObject | undefined,
  date1904: boolean,
  sheet?: XLSX.WorkSheet,
  r = 0,
  c = 0,
  localeDates?: ReadonlyMap<string, string>,
): string {
  if (!cell) return '';
  // LibreOffice keeps a boolean as the formula =TRUE() on a number, shown in the column's format (a date).
  const constant = typeof cell.f === 'string' ? BOOLEAN_FORMULA.exec(cell.f)?.[1] : undefined;
  if (constant) return constant.toUpperCase();
  if (cell.t === 'z')
    return typeof cell.f === 'string' && sheet ? uncachedFormulaText(cell, sheet, r, c, date1904) : '';
  // Not computable: the empty text stays, as the file says (it may be the real result).
  if (holdsEmptyTextResult(cell)) return sheet ? uncachedFormulaText(cell, sheet, r, c, date1904, '') : '';
  const iso =
    cell.t === 'n' && typeof cell.z === 'string'
      ? (LOCALE_DATE_FORMATS.get(cell.z) ?? localeDates?.get(cell.z))
      : undefined;
  if (iso) return XLSX.SSF.format(iso, cell.v as number, { date1904 });
  if (isWholeNumberInGeneral(cell)) return String(cell.v);
  if (cell.w !== undefined) return cell.w.trim();
  if (cell.v === undefined || cell.v === null) return '';
  return String(cell.v).trim();
}

/** Whole numbers a double holds exactly: up to 15 digits, as many as Excel keeps. */
const MAX_EXACT_WHOLE_NUMBER = 1e15;

/**
 * A whole number in the General format that Excel would draw in scientific notation (12 digits or
 * more: an account number, a barcode, a phone number) is written with all its digits: `1.23457E+11`
 * throws away digits the file holds, and LibreOffice's General shows them all.
 */
function isWholeNumberInGeneral(cell: XLSX.CellObject): boolean {
  return (
    cell.t === 'n' &&
    typeof cell.v === 'number' &&
    Number.isInteger(cell.v) &&
    Math.abs(cell.v) < MAX_EXACT_WHOLE_NUMBER &&
    (cell.z === undefined || cell.z === 'General') &&
    cell.w !== undefined &&
    /E\+/.test(cell.w)
  );
}

/**
 * A formula cell without a cached value (a workbook a library wrote and no spreadsheet program has
 * saved): its value where simple enough to compute, in the cell's number format, else the formula
 * itself ("=VLOOKUP(…)"), which says more than an empty cell (docs/decisions.md).
 */
function uncachedFormulaText(
  cell: XLSX.CellObject,
  sheet: XLSX.WorkSheet,
  r: number,
  c: number,
  date1904: boolean,
  notComputed = `=${cell.f!.replace(/^=/, '')}`,
): string {
  const value = formulaValue(sheet, cell.f!, XLSX.utils.encode_cell({ r, c }));
  if (value === undefined) return notComputed;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value.trim();
  const format = typeof cell.z === 'string' ? (LOCALE_DATE_FORMATS.get(cell.z) ?? cell.z) : 'General';
  try {
    return XLSX.SSF.format(format, value, { date1904 }).trim();
  } catch {
    return XLSX.SSF.format('General', value).trim();
  }
}

/**
 * Splits a sheet into its separate tables: groups of non-empty cells connected horizontally or
 * vertically (a sheet often holds several tables side by side or one under another). Regions
 * are read top to bottom, then left to right, each trimmed to its own bounding box.
 */
export function tableRegions(rows: string[][]): string[][][] {
  return positionedRegions(rows).map((region) => region.rows);
}

/**
 * A table region of a sheet and the row and column (in the rows it was cut from) of its top-left
 * cell; `rowsAt` and `colsAt` say where each of its rows and columns was (spacers are left out).
 */
interface Region {
  top: number;
  left: number;
  rows: string[][];
  rowsAt: number[];
  colsAt: number[];
}

/** The numbers from `first` to `last`, those in `leftOut` left out. */
function indexesBetween(first: number, last: number, leftOut?: Set<number>): number[] {
  const out: number[] = [];
  for (let i = first; i <= last; i++) if (!leftOut?.has(i)) out.push(i);
  return out;
}

/**
 * `tableRegions`, each with where it starts. `merges` are the sheet's merged ranges in the rows'
 * indexes: a value repeated along a region's first row is one title only where a merge spread it
 * (without them, only a value with a letter is taken for a title).
 */
export function positionedRegions(rows: string[][], merges?: readonly Box[]): Region[] {
  const height = rows.length;
  let width = 0;
  for (const r of rows) if (r.length > width) width = r.length;
  if (height * width > MAX_REGION_CELLS) {
    const filled = indexesBetween(0, height - 1).filter((r) => rows[r]!.some((c) => c !== ''));
    const colsAt = indexesBetween(0, width - 1);
    return [{ top: 0, left: 0, rows: filled.map((r) => rows[r]!), rowsAt: filled, colsAt }];
  }
  // One byte per cell, 1 = filled and not yet reached, 2 = reached; the fill's stack holds cell indexes.
  const cells = new Uint8Array(height * width);
  for (let r = 0; r < height; r++) {
    const row = rows[r]!;
    for (let c = 0; c < row.length; c++) if ((row[c] ?? '') !== '') cells[r * width + c] = 1;
  }
  const stack = new Int32Array(height * width);
  let size = 0;
  const reach = (next: number): void => {
    if (cells[next] !== 1) return;
    cells[next] = 2;
    stack[size++] = next;
  };
  const boxes: Box[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (cells[start] !== 1) continue;
    const box = { top: height, left: width, bottom: -1, right: -1 };
    reach(start);
    while (size) {
      const at = stack[--size]!;
      const y = (at / width) | 0;
      const x = at - y * width;
      if (y < box.top) box.top = y;
      if (y > box.bottom) box.bottom = y;
      if (x < box.left) box.left = x;
      if (x > box.right) box.right = x;
      if (y + 1 < height) reach(at + width);
      if (y > 0) reach(at - width);
      if (x + 1 < width) reach(at + 1);
      if (x > 0) reach(at - 1);
    }
    boxes.push(box);
  }
  const merged = mergeOverlapping(boxes, height, width);
  merged.sort((a, b) => a.top - b.top || a.left - b.left);
  return joinSpacers(merged, rows).flatMap((t) => {
    const rowsAt = indexesBetween(t.box.top, t.box.bottom, t.spacerRows);
    const colsAt = indexesBetween(t.box.left, t.box.right, t.spacerCols);
    return splitTitleRow(
      {
        top: t.box.top,
        left: t.box.left,
        rows: rowsAt.map((r) => colsAt.map((c) => rows[r]![c] ?? '')),
        rowsAt,
        colsAt,
      },
      merges,
    );
  });
}

/** A table: its box on the sheet and the empty spacer columns and rows inside it, left out of the output. */
interface JoinedTable {
  box: Box;
  spacerCols: Set<number>;
  spacerRows: Set<number>;
}

/** Sheets of at most this many regions are tried for spacer joins (pairs are compared after each join); others keep their regions. */
const MAX_JOIN_BOXES = 300;

/**
 * Regions that are one table laid out with an empty spacer column or row between its parts:
 * - side by side across one empty column, with the same top and bottom rows, when both parts are
 *   single columns (or single columns already joined across spacers): an index whose columns are
 *   kept apart by narrow empty columns. A part of several columns beside another stays its own
 *   table (a block of labels beside a table of values may or may not be one table);
 * - one above the other across one empty row, over the same columns (at least two), unless the
 *   lower part opens with a header of its own (a row of text labels above numbers).
 * Nothing else may lie in the spacer. Other gaps still separate tables.
 */
function joinSpacers(boxes: Box[], rows: string[][]): JoinedTable[] {
  const tables: JoinedTable[] = boxes.map((box) => ({ box: { ...box }, spacerCols: new Set(), spacerRows: new Set() }));
  if (tables.length < 2 || tables.length > MAX_JOIN_BOXES) return tables;
  const clear = (top: number, left: number, bottom: number, right: number, except: JoinedTable[]): boolean =>
    tables.every(
      (t) => except.includes(t) || t.box.top > bottom || t.box.bottom < top || t.box.left > right || t.box.right < left,
    );
  const columns = (t: JoinedTable): number => t.box.right - t.box.left + 1 - t.spacerCols.size;
  /** A single column, or single columns already joined across spacers (and no spacer row). */
  const columnsOnly = (t: JoinedTable): boolean => t.spacerRows.size === 0 && columns(t) === t.spacerCols.size + 1;
  let joined = true;
  while (joined) {
    joined = false;
    for (let i = 0; i < tables.length && !joined; i++) {
      for (let j = 0; j < tables.length && !joined; j++) {
        const a = tables[i]!;
        const b = tables[j]!;
        if (i === j) continue;
        const sideBySide =
          a.box.top === b.box.top &&
          a.box.bottom === b.box.bottom &&
          b.box.left - a.box.right === 2 &&
          columnsOnly(a) &&
          columnsOnly(b) &&
          clear(a.box.top, a.box.right + 1, a.box.bottom, b.box.left - 1, [a, b]);
        const stacked =
          !sideBySide &&
          a.box.left === b.box.left &&
          a.box.right === b.box.right &&
          b.box.top - a.box.bottom === 2 &&
          columns(a) >= 2 &&
          !opensSection(rows, a, b) &&
          clear(a.box.bottom + 1, a.box.left, b.box.top - 1, a.box.right, [a, b]);
        if (!sideBySide && !stacked) continue;
        if (sideBySide) a.spacerCols.add(a.box.right + 1);
        else a.spacerRows.add(a.box.bottom + 1);
        for (const c of b.spacerCols) a.spacerCols.add(c);
        for (const r of b.spacerRows) a.spacerRows.add(r);
        a.box.right = Math.max(a.box.right, b.box.right);
        a.box.bottom = Math.max(a.box.bottom, b.box.bottom);
        // A part's spacer is filled in the other part (a total row "Total | | 99" under a full table).
        for (const c of a.spacerCols) if (!emptyBetween(rows, a.box.top, a.box.bottom, c, c)) a.spacerCols.delete(c);
        for (const r of a.spacerRows) if (!emptyBetween(rows, r, r, a.box.left, a.box.right)) a.spacerRows.delete(r);
        tables.splice(j, 1);
        joined = true;
      }
    }
  }
  return tables;
}

/** Whether every cell of the rows and columns between (inclusive) is empty. */
function emptyBetween(rows: string[][], top: number, bottom: number, left: number, right: number): boolean {
  for (let r = top; r <= bottom; r++) if (cellsBetween(rows[r] ?? [], left, right).some((v) => v !== '')) return false;
  return true;
}

/**
 * Whether the lower of two stacked regions opens a section of its own: its first row repeats the
 * upper one's first row, is a lone label (one text cell over several columns), or is a header
 * (every cell a text label) over numbers further down.
 */
function opensSection(rows: string[][], upper: JoinedTable, lower: JoinedTable): boolean {
  const cells = (r: number): string[] =>
    cellsBetween(rows[r] ?? [], lower.box.left, lower.box.right).filter(
      (_, i) => !lower.spacerCols.has(lower.box.left + i),
    );
  const numeric = (v: string): boolean => /^[-+(]?[$€£¥]?\d[\d,. ]*%?\)?$/.test(v);
  const first = cells(lower.box.top);
  if (first.join('\t') === cells(upper.box.top).join('\t')) return true;
  const filled = first.filter((v) => v !== '');
  if (filled.length === 1 && !numeric(filled[0]!)) return true;
  if (!first.every((v) => v !== '' && !numeric(v))) return false;
  for (let r = lower.box.top + 1; r <= lower.box.bottom; r++) if (cells(r).some(numeric)) return true;
  return false;
}

export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Side of the square tiles that index merged boxes by where they lie. */
const TILE = 8;

/**
 * Boxes that overlap (a table with holes) merged into one: each box, in order, grows the first
 * merged box it overlaps, or starts a new one. Merged boxes are looked up through the tiles they
 * cover, so a sheet of thousands of small islands is not compared pair by pair.
 */
function mergeOverlapping(boxes: Box[], height: number, width: number): Box[] {
  const across = Math.ceil(width / TILE);
  const tiles: number[][] = Array.from({ length: Math.ceil(height / TILE) * across }, () => []);
  const register = (index: number, box: Box, before?: Box): void => {
    for (let ty = (box.top / TILE) | 0; ty <= ((box.bottom / TILE) | 0); ty++) {
      for (let tx = (box.left / TILE) | 0; tx <= ((box.right / TILE) | 0); tx++) {
        const known =
          before &&
          ty >= ((before.top / TILE) | 0) &&
          ty <= ((before.bottom / TILE) | 0) &&
          tx >= ((before.left / TILE) | 0) &&
          tx <= ((before.right / TILE) | 0);
        if (!known) tiles[ty * across + tx]!.push(index);
      }
    }
  };
  const merged: Box[] = [];
  for (const box of boxes) {
    let first = -1;
    for (let ty = (box.top / TILE) | 0; ty <= ((box.bottom / TILE) | 0); ty++) {
      for (let tx = (box.left / TILE) | 0; tx <= ((box.right / TILE) | 0); tx++) {
        for (const index of tiles[ty * across + tx]!) {
          const m = merged[index]!;
          const overlaps = box.top <= m.bottom && box.bottom >= m.top && box.left <= m.right && box.right >= m.left;
          if (overlaps && (first < 0 || index < first)) first = index;
        }
      }
    }
    if (first < 0) {
      merged.push({ ...box });
      register(merged.length - 1, box);
      continue;
    }
    const hit = merged[first]!;
    const before = { ...hit };
    hit.top = Math.min(hit.top, box.top);
    hit.bottom = Math.max(hit.bottom, box.bottom);
    hit.left = Math.min(hit.left, box.left);
    hit.right = Math.max(hit.right, box.right);
    register(first, hit, before);
  }
  return merged;
}

/** `row[left..right]`, a missing cell as ''. */
function cellsBetween(row: string[], left: number, right: number): string[] {
  const out = new Array<string>(right - left + 1);
  for (let i = left; i <= right; i++) out[i - left] = row[i] ?? '';
  return out;
}

/**
 * A table's title typed in the cell above it (often merged across the columns, so repeated in
 * each) is its own one-cell table, not a header row that pushes the real header into the body.
 * A title merged across columns that stands alone (a blank row under it) is one cell, not the
 * same text once per column it spans. A value in several cells of the first row is one title
 * only when one merged range spread it there (`merges`; unknown, when it holds a letter): equal
 * values typed in each cell ("1 | 1" atop a Fibonacci table) are data, every cell kept.
 */
function splitTitleRow(region: Region, merges?: readonly Box[]): Region[] {
  const table = region.rows;
  const distinct = (row: string[] | undefined): number => new Set((row ?? []).filter((c) => c !== '')).size;
  const width = table[0]?.length ?? 0;
  const lone = table[0]?.[0] ?? '';
  if (width >= 2 && table.length === 1 && table[0]!.every((c) => c === lone) && oneTitle(region, merges)) {
    return [{ ...region, rows: [[lone]], colsAt: region.colsAt.slice(0, 1) }];
  }
  if (
    width >= 2 &&
    table.length >= 3 &&
    distinct(table[0]) === 1 &&
    table[0]![0] !== '' &&
    distinct(table[1]) >= 2 &&
    oneTitle(region, merges)
  ) {
    return [
      { ...region, rows: [[table[0]![0]!]], rowsAt: region.rowsAt.slice(0, 1), colsAt: region.colsAt.slice(0, 1) },
      { ...region, top: region.top + 1, rows: table.slice(1), rowsAt: region.rowsAt.slice(1) },
    ];
  }
  return [region];
}

/**
 * Whether the region's first row, one value in its first cell and maybe others, is one title:
 * the value is in that cell only, or one merged range covers every cell it is in (without the
 * sheet's merges, whether it holds a letter, as a title does and a repeated number doesn't).
 */
function oneTitle(region: Region, merges?: readonly Box[]): boolean {
  const row = region.rows[0]!;
  const filled = region.colsAt.filter((_, i) => row[i] !== '');
  if (filled.length <= 1) return true;
  if (!merges) return /\p{L}/u.test(row[0]!);
  const r = region.rowsAt[0]!;
  const first = filled[0]!;
  const last = filled[filled.length - 1]!;
  return merges.some((m) => m.top <= r && m.bottom >= r && m.left <= first && m.right >= last);
}
