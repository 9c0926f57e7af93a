import path from 'node:path';
import type { SafeZip } from '../../archive/safe-zip';
import { parseXml } from './office-properties';
import type { Element, Node } from '@xmldom/xmldom';
import { attr, child, descendants, hasAncestor, relAttr } from './xml-dom';
import type { Block } from '../../document/model';
import { chartDataBlocks } from './charts';

/** Points read per chart series, so a hostile cache index cannot allocate without bound. */
const MAX_CHART_POINTS = 100_000;

/** A part's relationships: id → target part path (resolved against the part), or the URL of an external target. */
export function relationships(zip: SafeZip, part: string): Map<string, string> {
  const relsPath = path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`);
  const xml = zip.textOf(relsPath);
  const map = new Map<string, string>();
  if (!xml) return map;
  for (const rel of descendants(parseXml(xml, 'relationships'), 'Relationship')) {
    const target = attr(rel, 'Target') ?? '';
    const resolved =
      attr(rel, 'TargetMode') === 'External'
        ? target
        : target.startsWith('/')
          ? target.slice(1)
          : path.posix.normalize(path.posix.join(path.posix.dirname(part), target));
    map.set(attr(rel, 'Id') ?? '', resolved);
  }
  return map;
}

const CHART_KINDS: Record<string, string> = {
  barChart: 'Bar chart',
  bar3DChart: 'Bar chart',
  lineChart: 'Line chart',
  line3DChart: 'Line chart',
  pieChart: 'Pie chart',
  pie3DChart: 'Pie chart',
  doughnutChart: 'Doughnut chart',
  areaChart: 'Area chart',
  area3DChart: 'Area chart',
  scatterChart: 'Scatter chart',
  bubbleChart: 'Bubble chart',
  radarChart: 'Radar chart',
  stockChart: 'Stock chart',
  surfaceChart: 'Surface chart',
  surface3DChart: 'Surface chart',
};

/** The texts of the cells a chart formula names (`'Data'!$B$2:$B$4`), for charts saved without caches. */
export type ChartCells = (formula: string, max: number) => string[];

/**
 * A DrawingML chart part as Markdown, from the values cached in the part (see chartDataBlocks); a
 * series saved without its cache (openpyxl writes none) takes its cells' values through `cellsOf`.
 */
export function chartBlocks(zip: SafeZip, part: string, cellsOf?: ChartCells): Block[] {
  const xml = zip.textOf(part);
  if (!xml) return [];
  const doc = parseXml(xml, 'chart');
  if (isChartEx(doc.documentElement ?? undefined)) return chartExBlocks(doc.documentElement!, cellsOf);
  const chart = descendants(doc, 'chart')[0];
  const title = descendants(child(chart, 'title'), 't')
    .map((t) => t.textContent ?? '')
    .join('')
    .trim();
  const plot = child(chart, 'plotArea');
  const kinds = [
    ...new Set(
      descendants(plot, '*')
        .map((el) => CHART_KINDS[el.localName ?? ''])
        .filter(Boolean),
    ),
  ];
  const series = descendants(doc, 'ser');
  // Scatter and bubble charts have x values instead of categories.
  const axis = (s: Element | undefined): Element | undefined => child(s, 'cat') ?? child(s, 'xVal');
  const values = (s: Element | undefined): Element | undefined => child(s, 'val') ?? child(s, 'yVal');
  const orCells = (points: string[], container: Element | undefined): string[] => {
    if (points.length || !cellsOf) return points;
    const formula = descendants(container, 'f')[0]?.textContent?.trim();
    return formula ? cellsOf(formula, MAX_CHART_POINTS) : points;
  };
  const categoryAxis = axis(series.find((s) => axis(s)));
  return chartDataBlocks({
    title,
    kinds,
    categories: orCells(categoryLabels(categoryAxis), categoryAxis),
    series: series.map((s) => ({
      name: seriesName(s) || orCells([], child(s, 'tx')).join(' ').trim(),
      values: orCells(cachedPoints(values(s)), values(s)),
    })),
  });
}

/** Office 2016's chart kinds (chartEx parts), by a series' layout. */
const CHART_EX_KINDS: Record<string, string> = {
  waterfall: 'Waterfall chart',
  funnel: 'Funnel chart',
  treemap: 'Treemap chart',
  sunburst: 'Sunburst chart',
  boxWhisker: 'Box and whisker chart',
  clusteredColumn: 'Histogram',
  paretoLine: 'Pareto chart',
  regionMap: 'Map chart',
};

/** An element of an Office 2016 chart part (`cx:` namespaces: chartex of 2014 and its later revisions). */
export function isChartEx(el: Element | undefined): boolean {
  return /^http:\/\/schemas\.microsoft\.com\/office\/drawing\/[\d/]+\/chartex$/.test(el?.namespaceURI ?? '');
}

/**
 * An Office 2016 chart (waterfall, funnel, treemap, sunburst, histogram, box and whisker, map), as
 * Markdown like the others: its data sit in `cx:chartData` (points as element text), each series
 * naming its data by id; categories of several levels (a treemap's region, then country) joined
 * outermost first. A Pareto line, drawn from its histogram's data, adds no column.
 */
function chartExBlocks(space: Element, cellsOf?: ChartCells): Block[] {
  const data = new Map(descendants(child(space, 'chartData'), 'data').map((d) => [attr(d, 'id') ?? '', d]));
  const chart = child(space, 'chart');
  const titleEl = child(chart, 'title');
  const rich = descendants(titleEl, 't');
  const title = (rich.length ? rich : descendants(titleEl, 'v'))
    .map((t) => t.textContent ?? '')
    .join('')
    .trim();
  const series = descendants(chart, 'series');
  const kinds = [...new Set(series.map((s) => CHART_EX_KINDS[attr(s, 'layoutId') ?? '']).filter(Boolean))];
  const points = (dim: Element | undefined): string[] => {
    const levels = descendants(dim, 'lvl').map((lvl) => {
      const out: string[] = [];
      descendants(lvl, 'pt').forEach((pt, i) => {
        const idx = Number(attr(pt, 'idx') ?? i);
        if (Number.isInteger(idx) && idx >= 0 && idx < MAX_CHART_POINTS) out[idx] = (pt.textContent ?? '').trim();
      });
      return Array.from(out, (p) => p ?? '');
    });
    if (levels.length) return joinedLevels(levels);
    const formula = child(dim, 'f')?.textContent?.trim();
    return formula && cellsOf ? cellsOf(formula, MAX_CHART_POINTS) : [];
  };
  const own = series.filter((s) => attr(s, 'layoutId') !== 'paretoLine');
  const dataOf = (s: Element) => data.get(attr(child(s, 'dataId'), 'val') ?? '');
  const first = own.map(dataOf).find(Boolean);
  const values = (d: Element | undefined) =>
    points(
      descendants(d, 'numDim').find((n) => /^(val|size|y)$/.test(attr(n, 'type') ?? '')) ?? descendants(d, 'numDim')[0],
    );
  return chartDataBlocks({
    title,
    kinds,
    categories: points(descendants(first, 'strDim')[0]),
    series: own.map((s) => ({
      name: descendants(child(s, 'tx'), 'v')
        .map((v) => v.textContent ?? '')
        .join(' ')
        .trim(),
      values: values(dataOf(s)).map(significantDigits),
    })),
  });
}

/** A series' name: its text, or the cached value of the cell it refers to. */
function seriesName(series: Element): string {
  return descendants(child(series, 'tx'), 'v')
    .map((v) => v.textContent ?? '')
    .join(' ')
    .trim();
}

/** Cached points by their index (a blank cell leaves a gap rather than shifting the values after it). */
function cachedPoints(container: Element | undefined): string[] {
  const out: string[] = [];
  const cache = descendants(container, 'pt');
  cache.forEach((pt, i) => {
    const idx = Number(attr(pt, 'idx') ?? i);
    if (!Number.isInteger(idx) || idx < 0 || idx >= MAX_CHART_POINTS) return;
    const v = child(pt, 'v')?.textContent ?? '';
    const numeric = /^num(Cache|Lit)$/.test((pt.parentNode as Element | null)?.localName ?? '');
    out[idx] = numeric ? significantDigits(v) : v;
  });
  return Array.from(out, (v) => v ?? '');
}

/**
 * A cached number as Office shows it: at most 15 significant digits. The cache can keep a value
 * worked out in binary floating point to 17 digits ("4.4000000000000004"), which no one typed.
 */
function significantDigits(v: string): string {
  const digits = v
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '');
  if (digits.length <= 15 || !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return v;
  return String(Number(Number(v).toPrecision(15)));
}

/** Category labels; a multi-level axis (region, then quarter) joins its levels, outermost first. */
function categoryLabels(axis: Element | undefined): string[] {
  const levels = descendants(axis, 'lvl');
  return levels.length ? joinedLevels(levels.map(cachedPoints)) : cachedPoints(axis);
}

/**
 * The labels of categories of several levels (innermost first, as both chart parts keep them),
 * each joined outermost first. Outer levels name only the first category of the group they span:
 * each is carried forward.
 */
function joinedLevels(levels: string[][]): string[] {
  const spread = levels.map((points) => {
    let last = '';
    return Array.from(points, (p) => (last = p || last));
  });
  const count = Math.max(...spread.map((l) => l.length));
  return Array.from({ length: count }, (_, i) =>
    spread
      .map((l) => l[i] ?? '')
      .reverse()
      .filter(Boolean)
      .join(' / '),
  );
}

/** A chart drawn on a worksheet: its part and the cell its top-left corner is anchored to (from 0). */
export interface SheetChart {
  part: string;
  row: number;
  col: number;
}

/** Where a chart with no cell anchor (an absolute anchor) goes: after everything on its sheet. */
const UNANCHORED = Number.MAX_SAFE_INTEGER;

/** XLSX: the charts drawn on each worksheet, by sheet name, in drawing order, with their anchor cells. */
export function worksheetCharts(sheets: SheetDrawings[]): Map<string, SheetChart[]> {
  const out = new Map<string, SheetChart[]>();
  for (const { name, drawings } of sheets) {
    const charts: SheetChart[] = [];
    for (const { doc, rels } of drawings) {
      for (const ref of descendants(doc, 'chart')) {
        const chartPart = rels.get(relAttr(ref) ?? '');
        if (chartPart) charts.push({ part: chartPart, ...anchorCell(ref) });
      }
    }
    if (charts.length) out.set(name, charts);
  }
  return out;
}

/**
 * The paragraphs typed in each worksheet's text boxes and shapes (`xdr:sp` with a text body), a
 * list per shape in drawing order, by sheet name: SheetJS reads cells only.
 */
export function worksheetTextBoxes(sheets: SheetDrawings[]): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const { name, drawings } of sheets) {
    const shapes: string[][] = [];
    for (const { doc } of drawings) {
      // A shape's stand-in for older readers (mc:Fallback: Excel's "This chart isn't available…" box
      // for an Office 2016 chart, a copy of a newer text box) is not on the sheet.
      for (const shape of descendants(doc, 'sp').filter((sp) => !hasAncestor(sp, 'Fallback'))) {
        const paragraphs = descendants(child(shape, 'txBody'), 'p')
          .map((p) =>
            descendants(p, 't')
              .map((t) => t.textContent ?? '')
              .join('')
              .replace(/\s+/g, ' ')
              .trim(),
          )
          .filter(Boolean);
        if (paragraphs.length) shapes.push(paragraphs);
      }
    }
    if (shapes.length) out.set(name, shapes);
  }
  return out;
}

/** A worksheet's drawing parts, parsed, with their relationships. */
export interface SheetDrawings {
  name: string;
  drawings: Array<{ doc: Node; rels: Map<string, string> }>;
}

/** Each worksheet's drawing parts in workbook order, parsed once for its charts and its text boxes. */
export function worksheetDrawings(zip: SafeZip): SheetDrawings[] {
  const workbook = zip.textOf('xl/workbook.xml');
  if (!workbook) return [];
  const sheetParts = relationships(zip, 'xl/workbook.xml');
  const out: SheetDrawings[] = [];
  for (const sheet of descendants(parseXml(workbook, 'workbook'), 'sheet')) {
    const part = sheetParts.get(relAttr(sheet) ?? '');
    if (!part) continue;
    const drawings: SheetDrawings['drawings'] = [];
    for (const drawing of relationships(zip, part).values()) {
      if (!/\/drawings\/[^/]+\.xml$/.test(drawing)) continue;
      const xml = zip.textOf(drawing);
      if (xml) drawings.push({ doc: parseXml(xml, 'drawing'), rels: relationships(zip, drawing) });
    }
    if (drawings.length) out.push({ name: attr(sheet, 'name') ?? '', drawings });
  }
  return out;
}

/** The cell a drawing object's anchor (two-cell or one-cell) starts at. */
function anchorCell(el: Element): { row: number; col: number } {
  let anchor: Node | null = el.parentNode;
  while (anchor && !/Anchor$/.test((anchor as Element).localName ?? '')) anchor = anchor.parentNode;
  const from = child(anchor, 'from');
  const index = (local: string): number => {
    const n = Number.parseInt(child(from, local)?.textContent ?? '', 10);
    return Number.isFinite(n) && n >= 0 ? n : UNANCHORED;
  };
  return { row: index('row'), col: index('col') };
}
