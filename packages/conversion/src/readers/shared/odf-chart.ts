import type { Element } from '@xmldom/xmldom';
import { decodeXML } from 'entities';
import type { SafeZip } from '../../archive/safe-zip';
import { parseXml } from './office-properties';
import { attr, child, children, descendants } from './xml-dom';
import type { ChartData } from './charts';

const CHART_KINDS: Record<string, string> = {
  'chart:bar': 'Bar chart',
  'chart:line': 'Line chart',
  'chart:circle': 'Pie chart',
  'chart:ring': 'Doughnut chart',
  'chart:area': 'Area chart',
  'chart:scatter': 'Scatter chart',
  'chart:bubble': 'Bubble chart',
  'chart:radar': 'Radar chart',
  'chart:filled-radar': 'Radar chart',
  'chart:stock': 'Stock chart',
  'chart:surface': 'Surface chart',
};

/**
 * An embedded ODF chart object (`<draw:object xlink:href="./Object 1">`): its title, kind and
 * the data of its local table (first row the series names, first column the categories; series
 * in rows, as the series' cell ranges say, are turned into columns). Undefined when the object
 * is not a chart. An empty href reads the package's own content (a chart document by itself).
 */
export function odfChart(zip: SafeZip, href: string): ChartData | undefined {
  const dir = href.replace(/^\.\//, '').replace(/\/$/, '');
  // An empty href is the package itself (a chart document of its own, as LibreOffice embeds one in a PPT).
  const xml = zip.textOf(dir ? `${dir}/content.xml` : 'content.xml');
  if (!xml) return undefined;
  const chart = descendants(parseXml(xml, 'chart object'), 'chart').find((c) => c.namespaceURI?.includes('chart'));
  if (!chart) return undefined;
  const title = descendants(child(chart, 'title'), 'p')
    .map((p) => p.textContent ?? '')
    .join(' ')
    .trim();
  const kind = CHART_KINDS[attr(chart, 'class') ?? ''];
  const table = descendants(chart, 'table')[0];
  let rows = table ? descendants(table, 'table-row').map(rowCells) : [];
  // Series in rows name a range along one row ("local-table.$B$2:.$E$2"): turn them into columns.
  const cells = [
    ...(attr(descendants(chart, 'series')[0], 'values-cell-range-address') ?? '').matchAll(/\$?([A-Z]+)\$?(\d+)/g),
  ];
  const [first, last] = [cells[0], cells[cells.length - 1]];
  if (first && last && first[2] === last[2] && first[1] !== last[1]) {
    const width = Math.max(0, ...rows.map((r) => r.length));
    rows = Array.from({ length: width }, (_, c) => rows.map((r) => r[c] ?? ''));
  }
  const [head = [], ...body] = rows;
  return {
    title,
    kinds: kind ? [kind] : [],
    categories: body.map((r) => r[0] ?? ''),
    series: head.slice(1).map((name, i) => ({ name, values: body.map((r) => r[i + 1] ?? '') })),
  };
}

/** A local-table row's cell texts (repeated cells spread, within reason). */
function rowCells(row: Element): string[] {
  const out: string[] = [];
  for (const cell of children(row, 'table-cell')) {
    const text =
      descendants(cell, 'p')
        .map((p) => p.textContent ?? '')
        .join(' ')
        .trim() ||
      (attr(cell, 'value') ?? '');
    const repeat = Math.min(Number(attr(cell, 'number-columns-repeated') ?? 1) || 1, 64);
    for (let k = 0; k < repeat; k++) out.push(text);
  }
  return out;
}

/**
 * The chart objects of an ODS spreadsheet by the sheet they are drawn on, in document order:
 * one linear scan of content.xml for sheet starts and object references, since SheetJS reads
 * the cells but not the drawings.
 */
export function odsSheetCharts(zip: SafeZip): Map<string, ChartData[]> {
  const out = new Map<string, ChartData[]>();
  const xml = zip.textOf('content.xml');
  if (!xml || !xml.includes('<draw:object')) return out;
  let sheet = '';
  for (const m of xml.matchAll(/<table:table\s[^>]*?table:name="([^"]*)"|<draw:object\s[^>]*?xlink:href="([^"]*)"/g)) {
    if (m[1] !== undefined) {
      sheet = decodeXML(m[1]);
      continue;
    }
    const chart = odfChart(zip, decodeXML(m[2] ?? ''));
    if (chart) out.set(sheet, [...(out.get(sheet) ?? []), chart]);
  }
  return out;
}
