import type { Page } from '@markwright/contracts/src/structure';
import type { Block } from '../document/model';

/** A page's number and the top-level blocks on it, in document order. */
export interface PageBlocks {
  number: number;
  blocks: Block[];
}

/**
 * The top-level blocks grouped by the page they come from (E1). `numbers` are the pages the reader
 * read (every one gets an entry, an empty page too); a block without a page is on the page of the
 * block before it (a footnotes block follows the text that refers to it), or on the first page.
 * A table or list that runs over a break is one block, recorded on the page where it starts.
 */
export function groupByPage(blocks: Block[], numbers: number[] | undefined): PageBlocks[] {
  const known = numbers?.length ? numbers : [...new Set(blocks.map((b) => b.page ?? 1))].sort((a, b) => a - b);
  const byNumber = new Map<number, Block[]>((known.length ? known : [1]).map((n) => [n, []]));
  let current = known[0] ?? 1;
  for (const block of blocks) {
    if (block.page !== undefined) current = block.page;
    let list = byNumber.get(current);
    if (!list) byNumber.set(current, (list = []));
    list.push(block);
  }
  return [...byNumber].sort((a, b) => a[0] - b[0]).map(([number, list]) => ({ number, blocks: list }));
}

/**
 * E1's pages: each page's blocks written by the same writer as the whole document, and the
 * document's Markdown made the join of them (trimmed, empty ones left out, one blank line between),
 * so the join rule holds by construction whatever the writer does at a block's edges.
 */
export function writePages(
  groups: PageBlocks[],
  render: (blocks: Block[]) => string,
): { pages: Page[]; markdown: string } {
  const pages = groups.map(({ number, blocks }) => ({ number, markdown: blocks.length ? render(blocks).trim() : '' }));
  const joined = pages
    .map((p) => p.markdown)
    .filter((md) => md !== '')
    .join('\n\n');
  return { pages, markdown: joined ? `${joined}\n` : '' };
}
