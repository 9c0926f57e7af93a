import type { Inline, InlineContent } from '../../document/model';
import { ESCAPABLE } from './escaping';
import { renderInline } from './inline';
import type { WriterOptions } from './types';

/** What a cell's text needs rewritten: a pipe, a whitespace other than one inner space. */
const CELL_REWRITE = /\||[^\S ]| \s|^ | $/;

/** A GFM table cell: one line, pipes escaped. */
export function tableCell(content: InlineContent): string {
  // Most cells (numbers, words) come out as they went in: skip the passes below for them.
  const plain = plainText(content);
  if (plain !== undefined && !CELL_REWRITE.test(plain)) return plain;
  const text = renderInline(content, true);
  return text.replace(/\r?\n/g, '<br>').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** The text of a cell that is one text node with nothing to escape (as it will be written), or none. */
function plainText(content: Inline[]): string | undefined {
  if (!content.length) return '';
  const only = content.length === 1 ? content[0] : undefined;
  return only?.type === 'text' && !ESCAPABLE.test(only.text) ? only.text : undefined;
}

/** A GFM table: the first header row as its header (GFM has one), further header rows as body rows. */
export function renderTable(rows: InlineContent[][], headerRows: number, opts: WriterOptions): string {
  let width = 0;
  for (const r of rows) if (r.length > width) width = r.length;
  if (width === 0 || rows.length === 0) return '';
  const [open, sep, close, rule] = opts.compactTables ? ['|', '|', '|', '-'] : ['| ', ' | ', ' |', '---'];
  // GFM has exactly one header row: further header rows become body rows; none gets an empty header.
  const lines = [
    tableLine(headerRows > 0 ? rows[0]! : [], width, open, sep, close),
    `${open}${new Array<string>(width).fill(rule).join(sep)}${close}`,
  ];
  for (let r = headerRows > 0 ? 1 : 0; r < rows.length; r++) lines.push(tableLine(rows[r]!, width, open, sep, close));
  return lines.join('\n');
}

/**
 * One row of `width` cells, short rows filled with empty cells. A module function, not a closure per table:
 * V8 compiles a hot closure again for every new instance of it.
 */
function tableLine(cells: readonly InlineContent[], width: number, open: string, sep: string, close: string): string {
  const out = new Array<string>(width);
  for (let i = 0; i < width; i++) out[i] = tableCell((i < cells.length ? cells[i] : undefined) ?? []);
  return `${open}${out.join(sep)}${close}`;
}
