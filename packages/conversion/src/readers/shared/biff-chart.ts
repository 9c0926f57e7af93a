import { biffRecords } from './biff-records';
import type * as XLSX from '@e965/xlsx';
import type { ChartData } from './charts';
import { sheetCell } from './sheet-grid';

/** A cell range a chart series refers to: `sheet` is an index into the EXTERNSHEET table (or -1: the chart's own sheet). */
export interface CellArea {
  sheet: number;
  firstRow: number;
  lastRow: number;
  firstCol: number;
  lastCol: number;
}

export interface BiffChart extends ChartData {
  /** Per series, the ranges its name, values and categories come from, for series whose values are not cached. */
  refs: Array<{ name?: CellArea; values?: CellArea; categories?: CellArea }>;
  /** EXTERNSHEET: per index, the first sheet (BoundSheet order) it names. */
  externSheets: number[];
}

const REC = {
  bof: 0x0809,
  graphNumber: 0x0003,
  graphLabel: 0x0004,
  eof: 0x000a,
  externSheet: 0x0017,
  number: 0x0203,
  label: 0x0204,
  series: 0x1003,
  seriesText: 0x100d,
  text: 0x1025,
  objectLink: 0x1027,
  begin: 0x1033,
  end: 0x1034,
  brai: 0x1051,
  siIndex: 0x1065,
  bar: 0x1017,
  line: 0x1018,
  pie: 0x1019,
  area: 0x101a,
  scatter: 0x101b,
  bopPop: 0x1035,
  radar: 0x103e,
  surface: 0x103f,
  radarArea: 0x1040,
} as const;
/** Chart substreams: Excel's (BIFF8, dt 0x20) and MS Graph's ([MS-OGRAPH], docType 0x8000). */
const CHART_SUBSTREAMS = new Set([0x0020, 0x8000]);
const MAX_SERIES = 255;
const MAX_POINTS = 32_000;

/** A chart of a workbook stream and the sheet it belongs to (BoundSheet order: a chart sheet, or the worksheet it is drawn on). */
export interface PlacedChart {
  sheet: number;
  chart: BiffChart;
}

/** Charts read per workbook, so a hostile stream cannot allocate without bound. */
const MAX_CHARTS = 1_000;

/**
 * The charts in a BIFF8 workbook stream (Excel 97 charts, and MS Graph 97's, whose format is the
 * same records): the title (the Text whose ObjectLink names the chart title), each series' name
 * (SeriesText) and its values and category labels from the chart's own data cache (SIIndex then
 * Number/Label records, one column per series), or, when not cached, the cell ranges its BRAI
 * formulas refer to (see resolveChartCells).
 */
export function readBiffCharts(stream: Buffer): PlacedChart[] {
  const out: PlacedChart[] = [];
  const externSheets: number[] = [];
  const substreams: number[] = [];
  let sheet = -1;
  let state: ChartState | undefined;
  for (const { type, len, body, end } of biffRecords(stream)) {
    if (type === REC.bof && len >= 4) {
      const dt = stream.readUInt16LE(body + 2);
      if (!substreams.length && dt !== 0x0005) sheet++;
      substreams.push(dt);
      if (CHART_SUBSTREAMS.has(dt) && !state && out.length < MAX_CHARTS) {
        state = newChartState(externSheets);
        out.push({ sheet: Math.max(sheet, 0), chart: state.chart });
      }
      continue;
    }
    if (type === REC.eof) {
      if (state && CHART_SUBSTREAMS.has(substreams[substreams.length - 1] ?? -1)) {
        finishChart(state);
        state = undefined;
      }
      substreams.pop();
      continue;
    }
    if (type === REC.externSheet && substreams[substreams.length - 1] === 0x0005 && len >= 2) {
      const count = stream.readUInt16LE(body);
      for (let i = 0; i < count && body + 2 + i * 6 + 6 <= end; i++) {
        externSheets.push(stream.readUInt16LE(body + 2 + i * 6 + 2));
      }
      continue;
    }
    if (state) chartRecord(stream, type, body, end, state);
  }
  if (state) finishChart(state);
  return out;
}

/** MS Graph's datasheet (kept in its chart substream), by row and column: row 0 holds the categories, column 0 the series names. */
type Datasheet = Map<number, Map<number, string>>;

/** A cell of MS Graph's datasheet: a Number or Label record of the old (BIFF2) shape, row, column and 3 attribute bytes first. */
function datasheetCell(stream: Buffer, type: number, body: number, end: number, sheet: Datasheet): void {
  if (end - body < 9) return;
  const row = stream.readUInt16LE(body);
  const col = stream.readUInt16LE(body + 2);
  if (row >= MAX_POINTS || col >= MAX_POINTS || (sheet.size >= MAX_POINTS && !sheet.has(row))) return;
  const value =
    type === REC.graphNumber
      ? end - body >= 15
        ? formatNumber(stream.readDoubleLE(body + 7))
        : ''
      : shortString(stream, body + 7, end);
  let cells = sheet.get(row);
  if (!cells) sheet.set(row, (cells = new Map()));
  cells.set(col, value);
}

/**
 * An MS Graph chart caches no values in its series: they are in its datasheet, a series per row
 * (Graph's default) or per column, found by the series' names, each line taken once. Series the
 * datasheet has no line for (Graph plots a pie's first series only) are left out.
 */
function fillFromDatasheet(chart: BiffChart, sheet: Datasheet): void {
  if (!sheet.size || chart.series.some((s) => s.values.length)) return;
  const header = sheet.get(0) ?? new Map<number, string>();
  const cols = [...header.keys()].filter((c) => c > 0).sort((a, b) => a - b);
  const rows = [...sheet.keys()].filter((r) => r > 0).sort((a, b) => a - b);
  const rowOf = (name: string) => rows.find((r) => sheet.get(r)?.get(0) === name);
  const colOf = (name: string) => cols.find((c) => header.get(c) === name);
  const named = chart.series.filter((s) => s.name);
  const inColumns = named.some((s) => colOf(s.name) !== undefined) && !named.some((s) => rowOf(s.name) !== undefined);
  const points = inColumns ? rows : cols;
  chart.categories = points.map((p) => (inColumns ? sheet.get(p)?.get(0) : header.get(p)) ?? '');
  const used = new Set<number>();
  chart.series.forEach((s, i) => {
    const line = s.name ? (inColumns ? colOf(s.name) : rowOf(s.name)) : (inColumns ? cols : rows)[i];
    // A line is one series: a second series of the same name is one the datasheet does not hold.
    if (line === undefined || used.has(line)) return;
    used.add(line);
    s.values = points.map((p) => (inColumns ? sheet.get(p)?.get(line) : sheet.get(line)?.get(p)) ?? '');
  });
  const found = chart.series.map((s, i) => ({ s, ref: chart.refs[i]! })).filter(({ s }) => s.values.length);
  if (!found.length) return;
  chart.series = found.map(({ s }) => s);
  chart.refs = found.map(({ ref }) => ref);
}

/** The first chart in a workbook stream (an embedded OLE chart holds one), or undefined. */
export function readBiffChart(stream: Buffer): BiffChart | undefined {
  return readBiffCharts(stream)[0]?.chart;
}

interface ChartState {
  chart: BiffChart;
  kinds: Set<string>;
  depth: number;
  seriesDepth: number;
  textDepth: number;
  text: { value: string; link: number };
  cache: number;
  /** SIIndex → series → points. */
  cached: Map<number, Map<number, string[]>>;
  datasheet: Datasheet;
}

function newChartState(externSheets: number[]): ChartState {
  return {
    chart: { title: '', kinds: [], categories: [], series: [], refs: [], externSheets },
    kinds: new Set(),
    depth: 0,
    seriesDepth: -1,
    textDepth: -1,
    text: { value: '', link: 0 },
    cache: 0,
    cached: new Map(),
    datasheet: new Map(),
  };
}

function chartRecord(stream: Buffer, type: number, body: number, end: number, st: ChartState): void {
  const chart = st.chart;
  const len = end - body;
  switch (type) {
    case REC.begin:
      st.depth++;
      break;
    case REC.end:
      st.depth--;
      if (st.depth === st.textDepth) {
        if (st.text.link === 1 && st.text.value.trim()) chart.title = st.text.value.trim();
        st.textDepth = -1;
      }
      if (st.depth === st.seriesDepth) st.seriesDepth = -1;
      break;
    case REC.series:
      if (chart.series.length < MAX_SERIES) {
        chart.series.push({ name: '', values: [] });
        chart.refs.push({});
        st.seriesDepth = st.depth;
      }
      break;
    case REC.text:
      st.textDepth = st.depth;
      st.text = { value: '', link: 0 };
      break;
    case REC.objectLink:
      if (len >= 2 && st.textDepth >= 0) st.text.link = stream.readUInt16LE(body);
      break;
    case REC.seriesText: {
      const value = shortString(stream, body + 2, end);
      if (st.textDepth >= 0 && st.depth === st.textDepth + 1) st.text.value = value;
      else if (st.seriesDepth >= 0 && st.depth === st.seriesDepth + 1)
        chart.series[chart.series.length - 1]!.name = value;
      break;
    }
    case REC.brai:
      if (st.seriesDepth >= 0 && st.depth === st.seriesDepth + 1 && len >= 8 && stream[body + 1] === 2) {
        const area = formulaArea(stream, body + 8, Math.min(end, body + 8 + stream.readUInt16LE(body + 6)));
        const refs = chart.refs[chart.refs.length - 1]!;
        const id = stream[body]!;
        if (area && id === 0) refs.name = area;
        else if (area && id === 1) refs.values = area;
        else if (area && id === 2) refs.categories = area;
      }
      break;
    case REC.graphNumber:
    case REC.graphLabel:
      datasheetCell(stream, type, body, end, st.datasheet);
      break;
    case REC.siIndex:
      st.cache = len >= 2 ? stream.readUInt16LE(body) : 0;
      break;
    case REC.number:
    case REC.label: {
      if (!st.cache || len < 6) break;
      const row = stream.readUInt16LE(body);
      const col = stream.readUInt16LE(body + 2);
      if (row >= MAX_POINTS || col >= MAX_SERIES) break;
      const value =
        type === REC.number && len >= 14
          ? formatNumber(stream.readDoubleLE(body + 6))
          : longString(stream, body + 6, end);
      let bySeries = st.cached.get(st.cache);
      if (!bySeries) st.cached.set(st.cache, (bySeries = new Map()));
      let points = bySeries.get(col);
      if (!points) bySeries.set(col, (points = []));
      points[row] = value;
      break;
    }
    default: {
      const kind = chartKind(stream, type, body, len);
      if (kind) st.kinds.add(kind);
    }
  }
}

function finishChart(st: ChartState): void {
  const chart = st.chart;
  chart.kinds = [...st.kinds];
  const dense = (points: string[] | undefined): string[] => Array.from(points ?? [], (v) => v ?? '');
  chart.series.forEach((s, i) => (s.values = dense(st.cached.get(1)?.get(i))));
  const categories = st.cached.get(2);
  chart.categories = dense(categories?.get(0) ?? [...(categories?.values() ?? [])][0]);
  fillFromDatasheet(chart, st.datasheet);
}

/**
 * Series whose values (or names, or categories) the chart did not cache take them from the cells
 * their formulas name, in `wb` (SheetJS's reading of the same workbook, sheets in BoundSheet order).
 */
export function resolveChartCells(chart: BiffChart, wb: XLSX.WorkBook | undefined): void {
  const needed =
    chart.series.some((s, i) => (!s.values.length && chart.refs[i]?.values) || (!s.name && chart.refs[i]?.name)) ||
    (!chart.categories.length && chart.refs.some((r) => r.categories));
  if (!needed || !wb) return;
  const cells = (area: CellArea | undefined): string[] => {
    if (!area) return [];
    const name = wb.SheetNames[area.sheet >= 0 ? (chart.externSheets[area.sheet] ?? area.sheet) : 0];
    const sheet = name ? wb.Sheets[name] : undefined;
    if (!sheet) return [];
    const out: string[] = [];
    for (let r = area.firstRow; r <= area.lastRow && out.length < MAX_POINTS; r++) {
      for (let c = area.firstCol; c <= area.lastCol && out.length < MAX_POINTS; c++) {
        const cell = sheetCell(sheet, r, c);
        out.push(cell?.w ?? (cell?.v === undefined ? '' : String(cell.v)));
      }
    }
    return out;
  };
  chart.series.forEach((s, i) => {
    const refs = chart.refs[i] ?? {};
    if (!s.values.length) s.values = cells(refs.values);
    if (!s.name) s.name = cells(refs.name).join(' ').trim();
  });
  if (!chart.categories.length) chart.categories = cells(chart.refs.find((r) => r.categories)?.categories);
}

function chartKind(buf: Buffer, type: number, body: number, len: number): string | undefined {
  switch (type) {
    case REC.bar:
      return 'Bar chart';
    case REC.line:
      return 'Line chart';
    case REC.pie:
      return len >= 4 && buf.readUInt16LE(body + 2) > 0 ? 'Doughnut chart' : 'Pie chart';
    case REC.bopPop:
      return 'Pie chart';
    case REC.area:
      return 'Area chart';
    case REC.scatter:
      return len >= 6 && buf.readUInt16LE(body + 4) & 1 ? 'Bubble chart' : 'Scatter chart';
    case REC.radar:
    case REC.radarArea:
      return 'Radar chart';
    case REC.surface:
      return 'Surface chart';
    default:
      return undefined;
  }
}

/** The first cell reference or area in a parsed formula (ptgRef3d, ptgArea3d, ptgRef, ptgArea). */
function formulaArea(buf: Buffer, start: number, end: number): CellArea | undefined {
  if (start >= end) return undefined;
  const ptg = buf[start]! & 0x1f; // the base token, without its class bits
  const p = start + 1;
  const col = (at: number): number => buf.readUInt16LE(at) & 0x3fff;
  if (ptg === 0x1a && p + 6 <= end) {
    const row = buf.readUInt16LE(p + 2);
    return { sheet: buf.readUInt16LE(p), firstRow: row, lastRow: row, firstCol: col(p + 4), lastCol: col(p + 4) };
  }
  if (ptg === 0x1b && p + 10 <= end) {
    return {
      sheet: buf.readUInt16LE(p),
      firstRow: buf.readUInt16LE(p + 2),
      lastRow: buf.readUInt16LE(p + 4),
      firstCol: col(p + 6),
      lastCol: col(p + 8),
    };
  }
  if (ptg === 0x04 && p + 4 <= end) {
    const row = buf.readUInt16LE(p);
    return { sheet: -1, firstRow: row, lastRow: row, firstCol: col(p + 2), lastCol: col(p + 2) };
  }
  if (ptg === 0x05 && p + 8 <= end) {
    return {
      sheet: -1,
      firstRow: buf.readUInt16LE(p),
      lastRow: buf.readUInt16LE(p + 2),
      firstCol: col(p + 4),
      lastCol: col(p + 6),
    };
  }
  return undefined;
}

/** ShortXLUnicodeString: 1-byte length, then the flag byte (high bytes or not) and the characters. */
function shortString(buf: Buffer, at: number, end: number): string {
  if (at + 2 > end) return '';
  return chars(buf, at + 2, end, buf[at]!, buf[at + 1]! & 1);
}

/** XLUnicodeString: 2-byte length, then the flag byte and the characters. */
function longString(buf: Buffer, at: number, end: number): string {
  if (at + 3 > end) return '';
  return chars(buf, at + 3, end, buf.readUInt16LE(at), buf[at + 2]! & 1);
}

function chars(buf: Buffer, at: number, end: number, count: number, wide: number): string {
  const bytes = buf.subarray(at, Math.min(end, at + count * (wide ? 2 : 1)));
  return wide ? bytes.toString('utf16le') : bytes.toString('latin1');
}

/** A cached value as a chart shows it by default: integers plain, others without float noise. */
function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}
