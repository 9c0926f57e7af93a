import { parse, type HTMLElement } from 'node-html-parser';

/** Cells kept per table when expanding spans, so a hostile rowspan cannot blow up memory. */
const MAX_GRID_CELLS = 200_000;
const MAX_SPAN = 100;

/**
 * Rewrites every HTML table as a plain grid: colspan/rowspan values repeated into each cell they
 * cover (as a reader sees the merged cell), nested tables flattened to text, the first row as
 * the header. node-html-markdown then writes aligned GFM tables.
 */
export function normaliseTables(html: string): string {
  if (!/<table/i.test(html)) return html;
  const root = parse(html, { comment: false });
  // A table of one cell is a layout box (a frame around a list or another table): unwrap it.
  for (const table of root.querySelectorAll('table')) {
    const cells = table.querySelectorAll('td, th').filter((c) => c.closest('table') === table);
    if (cells.length === 1) table.replaceWith(cells[0]!.innerHTML);
  }
  const tables = root.querySelectorAll('table');
  // Innermost first: a nested table becomes text inside its cell.
  for (const table of tables.reverse()) {
    const nestedParent = table.parentNode?.closest?.('td, th');
    if (nestedParent) {
      // Cell by cell, so neighbouring cells' words don't run together.
      const text = table
        .querySelectorAll('th, td')
        .map((c) => c.textContent.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' ');
      table.replaceWith(` ${text} `);
      continue;
    }
    table.replaceWith(rebuild(table));
  }
  return root.toString();
}

function rebuild(table: HTMLElement): string {
  const rows = table.querySelectorAll('tr').filter((tr) => tr.closest('table') === table);
  const grid: string[][] = [];
  let cells = 0;
  rows.forEach((tr, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of tr.childNodes.filter(
      (n): n is HTMLElement => n instanceof Object && 'tagName' in n && /^(TD|TH)$/i.test((n as HTMLElement).tagName),
    )) {
      while (grid[r]![c] !== undefined) c++;
      const colspan = clamp(Number(cell.getAttribute('colspan') ?? 1));
      const rowspan = clamp(Number(cell.getAttribute('rowspan') ?? 1));
      // Block boundaries inside a cell become spaces, so paragraphs don't run together on one line.
      const content = cell.innerHTML
        .replace(/<\/li>\s*<li[^>]*>/gi, ' - ')
        .replace(/<\/(p|li|div|h[1-6])>/gi, ' </$1>')
        .replace(/<br\s*\/?>/gi, ' ')
        .trim();
      for (let dr = 0; dr < rowspan && r + dr < rows.length; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < colspan; dc++) {
          if (++cells > MAX_GRID_CELLS) break;
          grid[r + dr]![c + dc] = content;
        }
      }
      c += colspan;
    }
  });
  const width = grid.reduce((n, row) => Math.max(n, row.length), 0);
  if (width === 0) return '';
  const cellHtml = (tag: string, v: string | undefined) => `<${tag}>${v ?? ''}</${tag}>`;
  const body = grid.map(
    (row, i) => `<tr>${Array.from({ length: width }, (_, c) => cellHtml(i === 0 ? 'th' : 'td', row[c])).join('')}</tr>`,
  );
  return `<table>${body.join('')}</table>`;
}

function clamp(n: number): number {
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), MAX_SPAN) : 1;
}
