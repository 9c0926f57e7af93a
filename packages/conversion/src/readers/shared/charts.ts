import type { Block, Inline } from '../../document/model';

/** A chart as every reader (DrawingML, BIFF8 in PowerPoint 97 OLE objects, ODF) describes it. */
export interface ChartData {
  title: string;
  /** Kinds of plot ("Bar chart"), without repeats. */
  kinds: string[];
  /** Category labels (or x values of scatter charts), by point index. */
  categories: string[];
  series: Array<{ name: string; values: string[] }>;
}

/**
 * A chart as Markdown: its title in bold, its kind ("Line chart"), and its values as a table
 * (categories down, one column per series). Charts carry their data, so nothing is lost by not
 * drawing them.
 */
export function chartDataBlocks(chart: ChartData): Block[] {
  const { series, categories } = chart;
  const count = Math.max(categories.length, ...series.map((s) => s.values.length));
  const cell = (value: string | undefined): Inline[] => (value ? [{ type: 'text', text: value }] : []);
  const rows: Inline[][][] = [[[], ...series.map((s, i) => cell(s.name || `Series ${i + 1}`))]];
  for (let i = 0; i < count; i++)
    rows.push([cell(categories[i] ?? String(i + 1)), ...series.map((s) => cell(s.values[i]))]);
  const blocks: Block[] = [];
  const title = chart.title.trim();
  if (title) blocks.push({ type: 'paragraph', text: [{ type: 'strong', children: [{ type: 'text', text: title }] }] });
  if (chart.kinds.length) {
    blocks.push({
      type: 'paragraph',
      text: [{ type: 'emphasis', children: [{ type: 'text', text: chart.kinds.join(', ') }] }],
    });
  }
  if (count && series.length) blocks.push({ type: 'table', rows });
  return blocks;
}
