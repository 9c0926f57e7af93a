import * as XLSX from '@e965/xlsx';
import type { Reader } from '../reader';
import { ConversionError } from '../../types';
import { noPageSelected, pageSelected, selectedPages } from '../../page-range';
import type { PageRange } from '@markwright/contracts/src/structure';
import { SafeZip, utf16Order, xmlText } from '../../archive/safe-zip';
import {
  chartBlocks,
  worksheetCharts,
  worksheetDrawings,
  worksheetTextBoxes,
  type SheetDrawings,
} from '../shared/ooxml-parts';
import { text, type Block, type Inline } from '../../document/model';
import CFB from 'cfb';
import { strToU8, zipSync } from 'fflate';
import { decodeXML } from 'entities';
import { chartDataBlocks, type ChartData } from '../shared/charts';
import { odsSheetCharts } from '../shared/odf-chart';
import { readBiffCharts, resolveChartCells } from '../shared/biff-chart';
import { readBiffNotes } from '../shared/biff-notes';
import { streamOf } from '../shared/ole';
import { MAX_COLUMNS, positionedRegions, rangeTexts, sheetCell, sheetGrid } from '../shared/sheet-grid';
import { commentBlocks, type ReviewComment } from '../shared/comments';
import { odsHiddenSheets } from './ods-hidden-sheets';
import { odsLocaleDateFormats } from './ods-locale-dates';
import { odsCellComments } from './ods-cell-comments';
import { odsTextBoxes } from './ods-text-boxes';
import { readWorkbook } from '../shared/sheetjs-read';
import { withoutDefaultPassword } from './xls-default-password';

/** A formula element that ends its cell without a value: `<f>…</f></c>`, `<f …/></c>`, `<f>…</f><v/></c>`. */
const UNCACHED_FORMULA =
  /<(?:\w+:)?f\b[^>]*(?:\/>|>[^<]*<\/(?:\w+:)?f>)\s*(?:<(?:\w+:)?v\s*\/>|<(?:\w+:)?v>\s*<\/(?:\w+:)?v>)?\s*<\/(?:\w+:)?c>/;

/**
 * Whether a worksheet of an XLSX read with its parts (`bookFiles`) holds a formula without its
 * cached value (written by a library, never calculated). A workbook with a calculation chain was
 * calculated (Excel writes one with its values); a sheet without a formula element is passed over
 * by a byte search, before any text is made of it.
 */
function hasUncachedFormulas(wb: XLSX.WorkBook): boolean {
  const files = (wb as { files?: Record<string, { content?: Uint8Array }> }).files ?? {};
  const names = Object.keys(files);
  if (names.some((n) => /^\/?xl\/calcChain\.xml$/i.test(n))) return false;
  return names
    .filter((name) => /^\/?xl\/worksheets\/[^/]+\.xml$/i.test(name))
    .some((name) => {
      const content = files[name]?.content;
      if (!(content instanceof Uint8Array)) return false;
      const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
      if (!['<f>', '<f ', ':f>', ':f '].some((tag) => bytes.includes(tag))) return false;
      return UNCACHED_FORMULA.test(bytes.toString('latin1'));
    });
}

/** Rows kept per sheet; more are summarised in a note so one huge sheet can't exhaust memory. */
export const MAX_ROWS_PER_SHEET = 20_000;

/**
 * xlsx, xls, ods (SheetJS reads all three): one `## Sheet` section per visible sheet with a GFM
 * table per region of the values as the sheet shows them (number formats applied), empty edge
 * rows and columns trimmed, a merged range's value in every cell it covers.
 */
export const spreadsheetReader: Reader = {
  name: 'spreadsheet',
  async read(given, options) {
    // An XLS encrypted with Excel's default password opens in Excel without asking: it is read decrypted.
    const input = withoutDefaultPassword(given) ?? given;
    const range = options.pageRange;
    // E2: the sheets outside the page range are not parsed (SheetJS's `sheets`), once their count is known.
    const selected = range ? selectedSheets(input, range) : undefined;
    const zip = input[0] === 0x50 && input[1] === 0x4b ? new SafeZip(input, 'spreadsheet') : undefined;
    // Charts carry their own titles and cached values, which SheetJS doesn't read.
    // An XLSX's drawings, read once for its charts and its text boxes.
    const sheetDrawings = zip?.has('xl/workbook.xml') ? worksheetDrawings(zip) : [];
    const charts = worksheetCharts(sheetDrawings);
    let wb: XLSX.WorkBook;
    const xlsx = zip?.has('xl/workbook.xml') ?? false;
    let bytes = input;
    try {
      const read = (stubs: boolean): XLSX.WorkBook =>
        readWorkbook(bytes, {
          type: 'buffer',
          // Rows as arrays: no 'A1' key built and hashed per cell, on reading or on looking up.
          dense: true,
          cellDates: false,
          // The displayed text (.w) is what we show; the format string (.z) picks out locale dates.
          cellText: true,
          cellNF: true,
          cellHTML: false,
          // Formula cells without a cached value are kept only as stubs (a cell per formatted blank).
          sheetStubs: stubs,
          // The parts as read, to look for such formulas without inflating the sheets again.
          bookFiles: xlsx && !stubs,
          sheetRows: MAX_ROWS_PER_SHEET + 1,
          ...(selected ? { sheets: selected.map((n) => n - 1) } : {}),
        });
      try {
        wb = read(false);
      } catch (err) {
        // A part the content types name but the package lacks (a styles part left out by a
        // library): SheetJS refuses the workbook; Excel reads it with default styles, as we do.
        // Parts in UTF-16 (SheetJS reads XML parts as UTF-8 only: "Unknown Namespace"): Excel reads them.
        const repaired =
          zip && xlsx
            ? /Cannot find file .* in zip/i.test((err as Error).message)
              ? withoutMissingParts(zip)
              : partsInUtf8(zip)
            : undefined;
        if (!repaired) throw err;
        bytes = repaired;
        wb = read(false);
      }
      // A workbook a library wrote (openpyxl, exceljs) may keep formulas without values: read again with stubs.
      if (xlsx && hasUncachedFormulas(wb)) wb = read(true);
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
    // Charts by sheet: DrawingML parts of an XLSX (placed at their anchor cells), the chart objects
    // of an ODS or the chart substreams of a BIFF8 workbook (after the sheet's tables).
    const ods = zip !== undefined && !zip.has('xl/workbook.xml');
    // SheetJS reads the cached values of an ODS's DDE links (`table:dde-link`'s unnamed tables, after the sheets) as sheets without names.
    if (ods) wb.SheetNames = wb.SheetNames.filter((name) => typeof name === 'string');
    const odsCharts = ods ? odsSheetCharts(zip) : new Map<string, ChartData[]>();
    const anchoredChartsOf = (name: string): Placed[] =>
      zip
        ? (charts.get(name) ?? []).map((c) => ({
            top: c.row,
            left: c.col,
            blocks: chartBlocks(zip, c.part, (f, max) => rangeTexts(wb, f, max)),
          }))
        : [];
    const chartsOf = (name: string): Block[] =>
      zip ? (odsCharts.get(name) ?? []).flatMap(chartDataBlocks) : (biffCharts.get(name) ?? []);
    const biffStream = zip ? undefined : workbookStream(input);
    const biffCharts = biffStream ? workbookCharts(biffStream, wb) : new Map<string, Block[]>();
    // SheetJS may run an XLS note's text on into its formatting runs: the records say where it ends.
    const biffNotes = biffStream ? readBiffNotes(biffStream) : undefined;
    const hidden = new Set((wb.Workbook?.Sheets ?? []).filter((s) => s.Hidden).map((s) => s.name));
    // SheetJS marks no ODS sheet hidden; names compared as shown (SheetJS keeps their entities).
    const odsHidden = ods ? odsHiddenSheets(zip) : undefined;
    // ODS dates in the locale's default format are written ISO, as XLSX's built-in short dates.
    const localeDates = ods ? odsLocaleDateFormats(zip) : undefined;
    const odsComments = ods ? odsCellComments(zip) : new Map<string, ReviewComment[]>();
    // Text boxes and shapes with text, after the sheet's tables and charts (SheetJS reads cells only).
    const textBoxes = ods ? odsTextBoxes(zip) : xlsxTextBoxes(sheetDrawings);
    const blocks: Block[] = [];
    if (range && !selectedPages(range, wb.SheetNames.length).length) throw noPageSelected(wb.SheetNames.length);
    const numbers = selectedPages(range, wb.SheetNames.length);
    const names = wb.SheetNames.filter(
      (n, i) => !hidden.has(n) && !odsHidden?.has(decodeXML(n)) && pageSelected(range, i + 1),
    );
    // Each sheet is a page (its number among all the workbook's sheets): marked once all are read.
    const starts: { at: number; page: number }[] = [];
    for (const name of names) {
      starts.push({ at: blocks.length, page: wb.SheetNames.indexOf(name) + 1 });
      // SheetJS leaves entities in ODS sheet names ("A &amp; B"); the sheet is still keyed by them.
      const shownName = ods ? decodeXML(name) : name;
      blocks.push({ type: 'heading', level: 2, text: [text(shownName)] });
      // A sheet SheetJS makes no object for (a chart sheet of a Strict workbook) has no cells: its charts still follow.
      const sheet: XLSX.WorkSheet = wb.Sheets[name] ?? {};
      const grid = sheetGrid(sheet, wb.Workbook?.WBProps?.date1904 ?? false, localeDates);
      const anchored = anchoredChartsOf(shownName);
      const drawings = [...chartsOf(shownName), ...(textBoxes.get(shownName) ?? [])];
      const comments = commentBlocks(
        inCellOrder([
          ...sheetComments(sheet, biffNotes?.get(wb.SheetNames.indexOf(name)), xlsx),
          ...lostComments(sheet, odsComments.get(shownName)),
        ]),
      );
      if (grid.rows.length === 0) {
        const nothing = !anchored.length && !drawings.length && !comments.length;
        // A worksheet embedded in another document shows its content only: its empty sheets are left out.
        if (nothing && options.embedded) {
          blocks.pop();
          starts.pop();
          continue;
        }
        if (nothing)
          blocks.push({ type: 'paragraph', text: [{ type: 'emphasis', children: [text('(empty sheet)')] }] });
        blocks.push(...anchored.flatMap((c) => c.blocks), ...drawings, ...comments);
        continue;
      }
      const truncated = grid.rows.length > MAX_ROWS_PER_SHEET;
      // The merged ranges in the grid's indexes: a value one spread along a row is a title, typed in each cell data.
      const merges = (sheet['!merges'] ?? []).map((m) => ({
        top: m.s.r - grid.top,
        left: m.s.c - grid.left,
        bottom: m.e.r - grid.top,
        right: m.e.c - grid.left,
      }));
      const regions = positionedRegions(grid.rows.slice(0, MAX_ROWS_PER_SHEET), merges);
      const tables: Placed[] = regions.map((region) => ({
        top: grid.top + region.top,
        left: grid.left + region.left,
        blocks: [
          {
            type: 'table',
            rows: region.rows.map((r, i) =>
              r.map((c, j) =>
                cellInlines(c, sheetCell(sheet, grid.top + region.rowsAt[i]!, grid.left + region.colsAt[j]!)),
              ),
            ),
          },
        ],
      }));
      // Reading order: top to bottom, then left to right; a chart after a table at the same cell.
      const placed = [...tables, ...anchored].sort((a, b) => a.top - b.top || a.left - b.left);
      blocks.push(...placed.flatMap((p) => p.blocks));
      if (truncated)
        blocks.push({
          type: 'paragraph',
          text: [{ type: 'emphasis', children: [text(`(only the first ${MAX_ROWS_PER_SHEET} rows are shown)`)] }],
        });
      blocks.push(...drawings, ...comments);
    }
    starts.forEach(({ at, page }, i) => {
      for (let b = at; b < (starts[i + 1]?.at ?? blocks.length); b++) blocks[b]!.page = page;
    });
    const props = wb.Props ?? {};
    return {
      blocks,
      metadata: {
        title: props.Title ?? '',
        author: props.Author ?? '',
        page_count: wb.SheetNames.length,
      },
      // Every sheet is a page, a hidden one too (an empty page): page_count is the sheet count.
      pages: numbers,
    };
  },
};

/**
 * The package again without the content types' overrides that name parts it lacks, or none when
 * every named part is there.
 */
function withoutMissingParts(zip: SafeZip): Buffer | undefined {
  const types = zip.textOf('[Content_Types].xml');
  if (types === undefined) return undefined;
  const present = new Set(zip.list().map((n) => n.toLowerCase()));
  let pruned = false;
  const kept = types.replace(
    /<(?:\w+:)?Override\b([^>]*?)(?:\/>|>\s*<\/(?:\w+:)?Override\s*>)/g,
    (tag, attrs: string) => {
      const name = /\bPartName\s*=\s*["']\/?([^"']+)["']/.exec(attrs)?.[1];
      if (name === undefined || present.has(partName(name))) return tag;
      pruned = true;
      return '';
    },
  );
  if (!pruned) return undefined;
  return repacked(zip, (name, bytes) => (name === '[Content_Types].xml' ? strToU8(kept) : bytes));
}

/**
 * The package again with its XML parts in UTF-16 written in UTF-8, their declarations saying so,
 * or none when every part is UTF-8 already.
 */
function partsInUtf8(zip: SafeZip): Buffer | undefined {
  const wide = zip
    .list()
    .filter((name) => /\.(?:xml|rels)$/i.test(name) && utf16Order(zip.bytesOf(name) ?? new Uint8Array()));
  if (!wide.length) return undefined;
  return repacked(zip, (name, bytes) =>
    wide.includes(name)
      ? strToU8(xmlText(bytes).replace(/^(<\?xml[^>]*?\bencoding\s*=\s*["'])[^"']*(["'])/, '$1UTF-8$2'))
      : bytes,
  );
}

/** The package's entries again, each as `part` gives it, stored, not deflated: the copy is only read back. */
function repacked(zip: SafeZip, part: (name: string, bytes: Uint8Array) => Uint8Array): Buffer {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const name of zip.list()) {
    const bytes = zip.bytesOf(name);
    if (bytes) files[name] = [part(name, bytes), { level: 0 }];
  }
  return Buffer.from(zipSync(files));
}

/** A content-types part name as a zip entry name: percent-escapes decoded (kept when malformed), case folded. */
function partName(name: string): string {
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** The selected sheets' numbers: the workbook's sheet list is read first (names only, no cells); none when it cannot be. */
function selectedSheets(input: Buffer, range: PageRange): number[] | undefined {
  let count: number;
  try {
    count = readWorkbook(input, { type: 'buffer', bookSheets: true }).SheetNames.length;
  } catch {
    return undefined; // the full read below says what is wrong with the file
  }
  if (!selectedPages(range, count).length) throw noPageSelected(count);
  return selectedPages(range, count);
}

/** The Workbook stream of an XLS (BIFF8) compound file, if it is one. */
function workbookStream(input: Buffer): Buffer | undefined {
  if (input.length < 512 || input.readUInt32LE(0) !== 0xe011cfd0) return undefined;
  try {
    return streamOf(CFB.read(input, { type: 'buffer' }), 'Workbook');
  } catch {
    return undefined; // SheetJS read it; a chart or note it cannot give is no reason to fail
  }
}

/** The charts of an XLS (BIFF8) workbook as blocks, by the name of the sheet they are on (or are). */
function workbookCharts(stream: Buffer, wb: XLSX.WorkBook): Map<string, Block[]> {
  const out = new Map<string, Block[]>();
  for (const { sheet, chart } of readBiffCharts(stream)) {
    const name = wb.SheetNames[sheet];
    if (!name || !chart.series.length) continue;
    resolveChartCells(chart, wb);
    out.set(name, [...(out.get(name) ?? []), ...chartDataBlocks(chart)]);
  }
  return out;
}

/**
 * A cell's text, as a link when the cell carries a hyperlink to a web or mail address (XLSX, XLS
 * and ODS alike); a link to a place in the workbook (`#Sheet2!A1`) is no link, as a bookmark's.
 */
function cellInlines(shown: string, cell: XLSX.CellObject | undefined): Inline[] {
  const target = shown === '' ? undefined : cell?.l?.Target?.trim();
  if (!target || target.startsWith('#')) return [text(shown)];
  return [{ type: 'link', url: target, children: [text(shown)] }];
}

/** Blocks that sit at a cell of the sheet (a table region, an anchored chart), to be put in reading order. */
interface Placed {
  top: number;
  left: number;
  blocks: Block[];
}

/** The comments of an ODS sheet that SheetJS lost: a blank cell's, or one it kept without its text. */
function lostComments(sheet: XLSX.WorkSheet, comments: ReviewComment[] | undefined): ReviewComment[] {
  return (comments ?? []).filter((comment) => {
    const { r, c } = XLSX.utils.decode_cell(comment.on ?? 'A1');
    return !sheetCell(sheet, r, c)?.c?.some((kept) => kept.t?.trim());
  });
}

/** Comments in row order, then column order, by the cells they are on. */
function inCellOrder(comments: ReviewComment[]): ReviewComment[] {
  const at = (c: ReviewComment): XLSX.CellAddress => XLSX.utils.decode_cell(c.on ?? 'A1');
  return comments.length < 2 ? comments : [...comments].sort((a, b) => at(a).r - at(b).r || at(a).c - at(b).c);
}

/**
 * The sheet's cell comments (notes, and threaded comments with their replies) in row order, each
 * with the cell it is on; SheetJS reads them from XLSX, XLS and ODS alike.
 */
function sheetComments(
  sheet: XLSX.WorkSheet,
  biffNotes: ReadonlyMap<string, string> | undefined,
  xlsx: boolean,
): ReviewComment[] {
  const ref = sheet['!ref'];
  if (!ref) return [];
  const range = XLSX.utils.decode_range(ref);
  const lastCol = Math.min(range.e.c, range.s.c + MAX_COLUMNS - 1);
  const dense = sheet['!data'];
  const out: ReviewComment[] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    if (dense && !dense[r]) continue;
    for (let c = range.s.c; c <= lastCol; c++) {
      const notes = sheetCell(sheet, r, c)?.c;
      if (!notes?.length) continue;
      const on = XLSX.utils.encode_cell({ r, c });
      // An XLS cell has one note, whose text the records give exactly.
      const exact = notes.length === 1 ? biffNotes?.get(`${r},${c}`) : undefined;
      for (const note of notes) {
        const author = xlsx ? xlsxCommentAuthor(note.a ?? '') : (note.a ?? '');
        const text = withoutAuthorLine((exact ?? note.t ?? '').replace(/\s+/g, ' ').trim(), author);
        if (text) out.push({ author, text: [{ type: 'text', text }], on });
      }
    }
  }
  return out;
}

/**
 * An XLSX note's author as the file spells it: SheetJS passes the `<author>` element's bytes on as
 * they are, UTF-8 read as Latin-1 ("é³å®" for 陳宗) and entities undecoded ("AT&amp;T"). Text that
 * is not UTF-8 when read back as bytes was decoded already (a threaded comment's person) and stays.
 */
function xlsxCommentAuthor(raw: string): string {
  let author = raw;
  if (/[\u0080-\u00ff]/.test(raw) && !/[^\u0000-\u00ff]/.test(raw)) {
    try {
      author = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(raw, 'latin1'));
    } catch {
      author = raw;
    }
  }
  return decodeXML(author);
}

/**
 * A note's text without the line Excel types at its start, the author's name and a colon (in bold in
 * Excel): the comment is already said to be by them. Text that names someone else stays whole.
 */
function withoutAuthorLine(text: string, author: string): string {
  const name = author.trim();
  if (!name || !text.startsWith(`${name}:`)) return text;
  return text.slice(name.length + 1).trim() || text;
}

/** An XLSX sheet's text boxes and shapes with text, a paragraph per paragraph (see `worksheetTextBoxes`). */
function xlsxTextBoxes(sheets: SheetDrawings[]): Map<string, Block[]> {
  const out = new Map<string, Block[]>();
  for (const [sheet, shapes] of worksheetTextBoxes(sheets)) {
    out.set(
      sheet,
      shapes.flat().map((p): Block => ({ type: 'paragraph', text: [text(p)] })),
    );
  }
  return out;
}
