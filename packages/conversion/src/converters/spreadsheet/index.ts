import * as XLSX from '@e965/xlsx';
import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import { SafeZip } from '../../archive/safe-zip';
import { chartBlocks, worksheetCharts } from '../ooxml-parts';
import { text, type Block } from '../../markdown/model';
import { documentOutput } from '../../markdown/writer';
import CFB from 'cfb';
import { chartDataBlocks } from '../charts';
import { readBiffCharts, resolveChartCells } from '../legacy/biff-chart';
import { streamOf } from '../legacy/ole';

/** Rows kept per sheet; more are summarised in a note so one huge sheet can't exhaust memory. */
export const MAX_ROWS_PER_SHEET = 20_000;
/** Cells read per workbook (SheetJS sheetRows bounds parsing, not just rendering). */
const MAX_COLUMNS = 500;

/**
 * xlsx, xls, ods (SheetJS reads all three): one `## Sheet` section per visible sheet with a GFM
 * table of the values as the sheet shows them (number formats applied), empty edge rows and
 * columns trimmed, a merged range's value in its first cell.
 */
export const spreadsheetConverter: Converter = {
  name: 'spreadsheet',
  extensions: ['xlsx', 'xls', 'ods'],
  async convert(input) {
    const zip = input[0] === 0x50 && input[1] === 0x4b ? new SafeZip(input, 'spreadsheet') : undefined;
    // Charts carry their own titles and cached values, which SheetJS doesn't read.
    const charts = zip?.has('xl/workbook.xml') ? worksheetCharts(zip) : new Map<string, string[]>();
    let wb: XLSX.WorkBook;
    try {
      wb = XLSX.read(input, {
        type: 'buffer',
        cellDates: false,
        cellNF: true,
        cellText: true,
        sheetRows: MAX_ROWS_PER_SHEET + 1,
      });
    } catch (err) {
      const message = (err as Error).message;
      if (/password|encrypt/i.test(message)) {
        throw new ConversionError(
          'encrypted_file',
          'The spreadsheet is password-protected; remove the password and try again.',
        );
      }
      throw new ConversionError('corrupt_file', `The spreadsheet could not be read: ${message}`);
    }
    // Charts by sheet: DrawingML parts of an XLSX, or the chart substreams of a BIFF8 workbook.
    const chartsOf = (name: string): Block[] =>
      zip ? (charts.get(name) ?? []).flatMap((part) => chartBlocks(zip, part)) : (biffCharts.get(name) ?? []);
    const biffCharts = zip ? new Map<string, Block[]>() : workbookCharts(input, wb);
    const hidden = new Set((wb.Workbook?.Sheets ?? []).filter((s) => s.Hidden).map((s) => s.name));
    const blocks: Block[] = [];
    const names = wb.SheetNames.filter((n) => !hidden.has(n));
    for (const name of names) {
      blocks.push({ type: 'heading', level: 2, text: [text(name)] });
      const rows = sheetRows(wb.Sheets[name]!);
      const sheetCharts = chartsOf(name);
      if (rows.length === 0) {
        if (!sheetCharts.length)
          blocks.push({ type: 'paragraph', text: [{ type: 'emphasis', children: [text('(empty sheet)')] }] });
        blocks.push(...sheetCharts);
        continue;
      }
      const truncated = rows.length > MAX_ROWS_PER_SHEET;
      for (const region of tableRegions(rows.slice(0, MAX_ROWS_PER_SHEET))) {
        blocks.push({ type: 'table', rows: region.map((r) => r.map((c) => [text(c)])) });
      }
      if (truncated)
        blocks.push({
          type: 'paragraph',
          text: [{ type: 'emphasis', children: [text(`(only the first ${MAX_ROWS_PER_SHEET} rows are shown)`)] }],
        });
      blocks.push(...sheetCharts);
    }
    const props = wb.Props ?? {};
    return documentOutput(blocks, {
      title: props.Title ?? '',
      author: props.Author ?? '',
      page_count: wb.SheetNames.length,
    });
  },
};

/** The charts of an XLS (BIFF8) workbook as blocks, by the name of the sheet they are on (or are). */
function workbookCharts(input: Buffer, wb: XLSX.WorkBook): Map<string, Block[]> {
  const out = new Map<string, Block[]>();
  if (input.length < 512 || input.readUInt32LE(0) !== 0xe011cfd0) return out;
  let stream: Buffer | undefined;
  try {
    stream = streamOf(CFB.read(input, { type: 'buffer' }), 'Workbook');
  } catch {
    return out; // SheetJS read it; a chart it cannot give is no reason to fail
  }
  if (!stream) return out;
  for (const { sheet, chart } of readBiffCharts(stream)) {
    const name = wb.SheetNames[sheet];
    if (!name || !chart.series.length) continue;
    resolveChartCells(chart, wb);
    out.set(name, [...(out.get(name) ?? []), ...chartDataBlocks(chart)]);
  }
  return out;
}

/** The sheet's displayed text as rows, empty rows and columns trimmed at every edge. */
export function sheetRows(sheet: XLSX.WorkSheet): string[][] {
  const ref = sheet['!ref'];
  if (!ref) return [];
  const range = XLSX.utils.decode_range(ref);
  const lastCol = Math.min(range.e.c, range.s.c + MAX_COLUMNS - 1);
  const rows: string[][] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: string[] = [];
    for (let c = range.s.c; c <= lastCol; c++) {
      const cell = sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
      row.push(cellText(cell));
    }
    rows.push(row);
  }
  return trimEmpty(rows);
}

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.t === 'z') return '';
  if (cell.w !== undefined) return cell.w.trim();
  if (cell.v === undefined || cell.v === null) return '';
  return String(cell.v).trim();
}

function trimEmpty(rows: string[][]): string[][] {
  const nonEmpty = (cells: string[]): boolean => cells.some((c) => c !== '');
  let top = 0;
  let bottom = rows.length - 1;
  while (top <= bottom && !nonEmpty(rows[top]!)) top++;
  while (bottom >= top && !nonEmpty(rows[bottom]!)) bottom--;
  const kept = rows.slice(top, bottom + 1).filter(nonEmpty);
  if (kept.length === 0) return [];
  const width = kept[0]!.length;
  let left = 0;
  let right = width - 1;
  while (left <= right && kept.every((r) => r[left] === '')) left++;
  while (right >= left && kept.every((r) => r[right] === '')) right--;
  return kept.map((r) => r.slice(left, right + 1));
}

/**
 * Splits a sheet into its separate tables: groups of non-empty cells connected horizontally or
 * vertically (a sheet often holds several tables side by side or one under another). Regions
 * are read top to bottom, then left to right, each trimmed to its own bounding box.
 */
export function tableRegions(rows: string[][]): string[][][] {
  const height = rows.length;
  const width = rows.reduce((n, r) => Math.max(n, r.length), 0);
  if (height * width > 2_000_000) return [rows];
  const seen = new Uint8Array(height * width);
  const filled = (r: number, c: number): boolean => (rows[r]?.[c] ?? '') !== '';
  const boxes: Array<{ top: number; left: number; bottom: number; right: number }> = [];
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (!filled(r, c) || seen[r * width + c]) continue;
      const box = { top: r, left: c, bottom: r, right: c };
      const stack = [[r, c]];
      seen[r * width + c] = 1;
      while (stack.length) {
        const [y, x] = stack.pop()!;
        box.top = Math.min(box.top, y!);
        box.bottom = Math.max(box.bottom, y!);
        box.left = Math.min(box.left, x!);
        box.right = Math.max(box.right, x!);
        for (const [dy, dx] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const ny = y! + dy;
          const nx = x! + dx;
          if (ny < 0 || nx < 0 || ny >= height || nx >= width || seen[ny * width + nx] || !filled(ny, nx)) continue;
          seen[ny * width + nx] = 1;
          stack.push([ny, nx]);
        }
      }
      boxes.push(box);
    }
  }
  // Boxes that overlap (a table with holes) are merged into one.
  const merged: typeof boxes = [];
  for (const box of boxes) {
    const hit = merged.find(
      (m) => box.top <= m.bottom && box.bottom >= m.top && box.left <= m.right && box.right >= m.left,
    );
    if (hit) {
      hit.top = Math.min(hit.top, box.top);
      hit.bottom = Math.max(hit.bottom, box.bottom);
      hit.left = Math.min(hit.left, box.left);
      hit.right = Math.max(hit.right, box.right);
    } else merged.push({ ...box });
  }
  merged.sort((a, b) => a.top - b.top || a.left - b.left);
  return merged.flatMap((b) =>
    splitTitleRow(
      rows
        .slice(b.top, b.bottom + 1)
        .map((r) => Array.from({ length: b.right - b.left + 1 }, (_, i) => r[b.left + i] ?? '')),
    ),
  );
}

/**
 * A table's title typed in the cell above it (often merged across the columns) is its own
 * one-cell table, not a header row with blank cells that pushes the real header into the body.
 */
function splitTitleRow(table: string[][]): string[][][] {
  const filledIn = (row: string[] | undefined): number => (row ?? []).filter((c) => c !== '').length;
  const width = table[0]?.length ?? 0;
  if (width >= 2 && table.length >= 3 && filledIn(table[0]) === 1 && table[0]![0] !== '' && filledIn(table[1]) >= 2) {
    return [[[table[0]![0]!]], table.slice(1)];
  }
  return [table];
}
