import type { ChartData } from '../charts';

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

/**
 * The first chart in a BIFF8 workbook stream (an Excel 97 chart, or MS Graph 97's, whose format
 * is the same records): the title (the Text whose ObjectLink names the chart title), each
 * series' name (SeriesText) and its values and category labels from the chart's own data cache
 * (SIIndex then Number/Label records, one column per series), or, when not cached, the cell
 * ranges its BRAI formulas refer to. Undefined when the stream holds no chart.
 */
export function readBiffChart(stream: Buffer): BiffChart | undefined {
  const chart: BiffChart = { title: '', kinds: [], categories: [], series: [], refs: [], externSheets: [] };
  const kinds = new Set<string>();
  const substreams: number[] = [];
  let inChart = false;
  let found = false;
  let depth = 0;
  let seriesDepth = -1;
  let textDepth = -1;
  let text = { value: '', link: 0 };
  let cache = 0;
  const cached = new Map<number, Map<number, string[]>>(); // SIIndex → series → points
  let pos = 0;
  while (pos + 4 <= stream.length) {
    const type = stream.readUInt16LE(pos);
    const len = stream.readUInt16LE(pos + 2);
    const body = pos + 4;
    const end = body + len;
    pos = end;
    if (end > stream.length) break;
    if (type === REC.bof && len >= 4) {
      const dt = stream.readUInt16LE(body + 2);
      substreams.push(dt);
      inChart = !found && CHART_SUBSTREAMS.has(dt);
      if (inChart) found = true;
      continue;
    }
    if (type === REC.eof) {
      if (inChart) break; // one chart per embedded object
      substreams.pop();
      continue;
    }
    if (type === REC.externSheet && substreams[substreams.length - 1] === 0x0005 && len >= 2) {
      const count = stream.readUInt16LE(body);
      for (let i = 0; i < count && body + 2 + i * 6 + 6 <= end; i++) {
        chart.externSheets.push(stream.readUInt16LE(body + 2 + i * 6 + 2));
      }
      continue;
    }
    if (!inChart) continue;
    switch (type) {
      case REC.begin:
        depth++;
        break;
      case REC.end:
        depth--;
        if (depth === textDepth) {
          if (text.link === 1 && text.value.trim()) chart.title = text.value.trim();
          textDepth = -1;
        }
        if (depth === seriesDepth) seriesDepth = -1;
        break;
      case REC.series:
        if (chart.series.length < MAX_SERIES) {
          chart.series.push({ name: '', values: [] });
          chart.refs.push({});
          seriesDepth = depth;
        }
        break;
      case REC.text:
        textDepth = depth;
        text = { value: '', link: 0 };
        break;
      case REC.objectLink:
        if (len >= 2 && textDepth >= 0) text.link = stream.readUInt16LE(body);
        break;
      case REC.seriesText: {
        const value = shortString(stream, body + 2, end);
        if (textDepth >= 0 && depth === textDepth + 1) text.value = value;
        else if (seriesDepth >= 0 && depth === seriesDepth + 1) chart.series[chart.series.length - 1]!.name = value;
        break;
      }
      case REC.brai:
        if (seriesDepth >= 0 && depth === seriesDepth + 1 && len >= 8 && stream[body + 1] === 2) {
          const area = formulaArea(stream, body + 8, Math.min(end, body + 8 + stream.readUInt16LE(body + 6)));
          const refs = chart.refs[chart.refs.length - 1]!;
          const id = stream[body]!;
          if (area && id === 0) refs.name = area;
          else if (area && id === 1) refs.values = area;
          else if (area && id === 2) refs.categories = area;
        }
        break;
      case REC.siIndex:
        cache = len >= 2 ? stream.readUInt16LE(body) : 0;
        break;
      case REC.number:
      case REC.label: {
        if (!cache || len < 6) break;
        const row = stream.readUInt16LE(body);
        const col = stream.readUInt16LE(body + 2);
        if (row >= MAX_POINTS || col >= MAX_SERIES) break;
        const value =
          type === REC.number && len >= 14
            ? formatNumber(stream.readDoubleLE(body + 6))
            : longString(stream, body + 6, end);
        let bySeries = cached.get(cache);
        if (!bySeries) cached.set(cache, (bySeries = new Map()));
        let points = bySeries.get(col);
        if (!points) bySeries.set(col, (points = []));
        points[row] = value;
        break;
      }
      default: {
        const kind = chartKind(stream, type, body, len);
        if (kind) kinds.add(kind);
      }
    }
  }
  if (!found) return undefined;
  chart.kinds = [...kinds];
  const dense = (points: string[] | undefined): string[] => Array.from(points ?? [], (v) => v ?? '');
  chart.series.forEach((s, i) => (s.values = dense(cached.get(1)?.get(i))));
  const categories = cached.get(2);
  chart.categories = dense(categories?.get(0) ?? [...(categories?.values() ?? [])][0]);
  return chart;
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
