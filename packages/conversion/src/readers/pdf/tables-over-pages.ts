import type { Block, InlineContent } from '../../document/model';
import { inlineText, isBlankInline } from '../../document/predicates';

type TableBlock = Extract<Block, { type: 'table' }>;

/**
 * A table broken by a page break is one table again: a table that ends its page, followed by nothing
 * but the next page's table (running heads and footers are gone by now), with as many columns, standing
 * in the same place across the page, goes on with the rows of that one. Its header, repeated at the top
 * of the next page (Word's and LibreOffice's "repeat header row", a browser's `<thead>`), is dropped
 * there. Pages asked for one by one (E1) keep a table's parts on their own pages.
 */
export function joinTablesOverPages(blocks: Block[]): Block[] {
  const out: Block[] = [];
  // The page the last block ends on: a table joined over pages ends on its last part's.
  let lastPage: number | undefined;
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (block.type === 'table' && last?.type === 'table' && continuesOnNextPage(last, lastPage, block)) {
      const header = last.rows[0]!.map((cell) => inlineText(cell).trim()).join('\u0000');
      const first = block.rows[0]!.map((cell) => inlineText(cell).trim()).join('\u0000');
      const rows = [...last.rows];
      const more = block.rows.slice(first === header ? 1 : 0);
      // A row broken by the page: the rest of its cells open the next page with the first column empty.
      if (more.length && isBlankInline(more[0]![0]!) && rows.every((r) => !isBlankInline(r[0]!))) {
        const end = rows[rows.length - 1]!;
        rows[rows.length - 1] = end.map((cell, k) => joinCell(cell, more[0]![k]!));
        more.shift();
      }
      out[out.length - 1] = { ...last, rows: [...rows, ...more] };
    } else out.push(block);
    lastPage = block.page;
  }
  return out;
}

/** Left edges this close (points) are one table's, on two pages printed alike. */
const SAME_LEFT = 24;
/** Of the narrower table's width, this much must lie under the other's. */
const SHARED_WIDTH = 0.8;

/** Whether `next` is `table` going on over a page break: the next page, the same columns, the same place. */
function continuesOnNextPage(table: TableBlock, endsOn: number | undefined, next: TableBlock): boolean {
  if (endsOn === undefined || next.page !== endsOn + 1) return false;
  const width = table.rows[0]?.length ?? 0;
  if (width < 2 || !next.rows.length || table.rows.some((r) => r.length !== width)) return false;
  if (next.rows.some((r) => r.length !== width)) return false;
  const a = table.bbox;
  const b = next.bbox;
  if (!a || !b) return false;
  const shared = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  return Math.abs(a[0] - b[0]) <= SAME_LEFT && shared >= SHARED_WIDTH * Math.min(a[2] - a[0], b[2] - b[0]);
}

/** A cell's text and the rest of it from the next page, a space between. */
function joinCell(cell: InlineContent, rest: InlineContent): InlineContent {
  if (isBlankInline(rest)) return cell;
  if (isBlankInline(cell)) return rest;
  return [...cell, { type: 'text', text: ' ' }, ...rest];
}
