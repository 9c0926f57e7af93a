import type { Page } from '@markwright/contracts/src/structure';
import type { Block } from '../document/model';

/** A page's number, the top-level blocks on it in document order, and each block as written. */
export interface PageBlocks {
  number: number;
  blocks: Block[];
  /** The writer's text of each block (`writeBlocks`), written once for the pages, the chunks and the Markdown. */
  written: string[];
}

/**
 * The top-level blocks grouped by the page they come from (E1), each with its written text.
 * `numbers` are the pages the reader read (every one gets an entry, an empty page too); a block
 * without a page is on the page of the block before it (a footnotes block follows the text that
 * refers to it), or on the first page. A table or list that runs over a break is one block,
 * recorded on the page where it starts.
 */
export function groupByPage(blocks: Block[], written: string[], numbers: number[] | undefined): PageBlocks[] {
  // No page read and none named (HTML, text): all on page 1, found with one look at each block.
  if (!numbers?.length && !blocks.some((b) => b.page !== undefined)) return [{ number: 1, blocks, written }];
  const known = numbers?.length ? numbers : [...new Set(blocks.map((b) => b.page ?? 1))].sort((a, b) => a - b);
  const one = onlyPage(blocks, known[0] ?? 1);
  if (one !== undefined) {
    // Every block on one page (an HTML or text document, most DOCX): that page holds the arrays themselves, not copies.
    return [...new Set([...(known.length ? known : [1]), one])]
      .sort((a, b) => a - b)
      .map((number) => (number === one ? { number, blocks, written } : { number, blocks: [], written: [] }));
  }
  const byNumber = new Map<number, PageBlocks>(
    (known.length ? known : [1]).map((number) => [number, { number, blocks: [], written: [] }]),
  );
  let current = known[0] ?? 1;
  blocks.forEach((block, i) => {
    if (block.page !== undefined) current = block.page;
    let page = byNumber.get(current);
    if (!page) byNumber.set(current, (page = { number: current, blocks: [], written: [] }));
    page.blocks.push(block);
    page.written.push(written[i]!);
  });
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}

/** The page every block is on by groupByPage's rule (`start`: the page of blocks before any with a page) when it is one, else undefined. */
function onlyPage(blocks: Block[], start: number): number | undefined {
  if (!blocks.length) return undefined;
  const first = blocks[0]!.page ?? start;
  for (const block of blocks) if (block.page !== undefined && block.page !== first) return undefined;
  return first;
}

/**
 * E1's pages: each page's blocks joined as the whole document's are (`join`, from the blocks'
 * written texts), and the document's Markdown made the join of them (trimmed, empty ones left
 * out, one blank line between), so the join rule holds by construction whatever the writer does
 * at a block's edges.
 */
export function writePages(
  groups: PageBlocks[],
  join: (blocks: Block[], written: string[]) => string,
): { pages: Page[]; markdown: string } {
  const texts = groups.map(({ blocks, written }) => (blocks.length ? join(blocks, written) : ''));
  const pages = groups.map(({ number }, i) => ({ number, markdown: texts[i]!.trim() }));
  const written = pages.filter((p) => p.markdown !== '');
  // One page whose join is already its text and a line break (most single-page documents): that
  // string, not a copy of it made by adding the line break again.
  if (written.length === 1) {
    const text = texts[pages.indexOf(written[0]!)]!;
    if (text.length === written[0]!.markdown.length + 1 && text.endsWith('\n')) return { pages, markdown: text };
  }
  const joined = written.map((p) => p.markdown).join('\n\n');
  return { pages, markdown: joined ? `${joined}\n` : '' };
}
