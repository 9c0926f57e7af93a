import type { Block, InlineContent } from '../../document/model';

/** A grid table's border: `+----+-----+` (`=` under a pandoc grid table's header). */
const BORDER = /^\+(?:[-=:]+\+)+$/;
/** A grid table's row line: between bars. */
const ROW = /^\|.*\|$/;

/**
 * Plain text with its ASCII grid tables (the MySQL and psql clients' `+---+` output, pandoc's grid
 * tables, tables drawn in READMEs and reports) made tables; the text around them stays raw. A grid
 * must be regular: every row line has a bar at each column edge of its first border. Rows are the
 * lines between borders: one row per line when a single border parts the header from the body (the
 * database clients), else each part one row whose lines are joined per column (pandoc's cells that wrap).
 */
export function textWithGridTables(text: string): Block[] {
  if (!text.includes('+-') && !text.includes('+=')) return [{ type: 'raw', markdown: text }];
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let plain: string[] = [];
  const flush = (): void => {
    const markdown = plain.join('\n').replace(/^\n+|\n+$/g, '');
    if (markdown.trim()) blocks.push({ type: 'raw', markdown });
    plain = [];
  };
  for (let i = 0; i < lines.length;) {
    const grid = BORDER.test(lines[i]!.trim()) ? gridAt(lines, i) : undefined;
    if (!grid?.block) {
      // A grid that failed fails the same from any border inside it: its lines stay text, once
      // each (a long broken grid is not scanned again from every border).
      const end = grid?.end ?? i + 1;
      plain.push(...lines.slice(i, end));
      i = end;
      continue;
    }
    flush();
    blocks.push(grid.block);
    i = grid.end;
  }
  flush();
  return blocks;
}

/**
 * The grid table whose top border is line `start`, and the line after it; no block if the grid is
 * not regular, and `end` then the line where it stopped being one (where another may start).
 */
function gridAt(lines: string[], start: number): { block?: Block; end: number } {
  const top = lines[start]!.trim();
  const indent = lines[start]!.indexOf('+');
  const edges = [...top].flatMap((c, i) => (c === '+' ? [i] : []));
  const parts: string[][][] = [];
  let current: string[][] = [];
  let headerParts = 0;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end]!.slice(indent).trimEnd();
    if (BORDER.test(line)) {
      if (line.length !== top.length || !edges.every((e) => line[e] === '+')) return { end };
      if (!current.length) return { end };
      parts.push(current);
      current = [];
      if (line.includes('=')) headerParts = parts.length;
      continue;
    }
    if (!ROW.test(line) || line.length !== top.length || !edges.every((e) => line[e] === '|')) break;
    current.push(edges.slice(1).map((e, k) => line.slice(edges[k]! + 1, e).trim()));
  }
  // A grid ends on a border, and holds a row between two of them.
  if (current.length || !parts.length) return { end };
  const rows: string[][] =
    parts.length === 2 && !headerParts ? [joined(parts[0]!), ...parts[1]!] : parts.map((part) => joined(part));
  const cell = (text: string): InlineContent => (text ? [{ type: 'text', text }] : []);
  return {
    block: { type: 'table', rows: rows.map((row) => row.map(cell)), headerRows: 1 },
    end,
  };
}

/** A row drawn over several lines: each column's lines joined with spaces. */
function joined(lines: string[][]): string[] {
  return lines[0]!.map((_, c) =>
    lines
      .map((line) => line[c]!)
      .filter(Boolean)
      .join(' '),
  );
}
