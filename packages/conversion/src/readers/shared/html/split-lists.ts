import type { Block, ListItem } from '../../../document/model';

type ListBlock = Extract<Block, { type: 'list' }>;

/**
 * Lists that LibreOffice's HTML export splits around a sublist joined again. It closes the list
 * before a sublist, writes the sublist inside a list of no items of its own (`<ol><ol><li>`, or
 * `<ol><li><ol>` in its XHTML), then reopens the list (`<ol start="3">`): read as written, that is
 * three lists, the middle one an empty item holding the sublist. Here the sublist goes under the
 * item before it and the reopened list continues the first; nested lists are joined the same way.
 */
export function withSplitListsJoined(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const last = out[out.length - 1];
    const wrapped = block.type === 'list' ? wrappedLists(block) : undefined;
    if (last?.type === 'list' && last.items.length && wrapped) {
      append((last.items[last.items.length - 1]!.children ??= []), wrapped);
      const next = blocks[i + 1];
      if (next?.type === 'list' && continues(last, next)) {
        last.items.push(...next.items);
        i++;
      }
      continue;
    }
    out.push(block);
  }
  for (const block of out) {
    if (block.type !== 'list') continue;
    for (const item of block.items) if (item.children) item.children = withSplitListsJoined(item.children);
  }
  return out;
}

/** The lists a list of no items of its own holds (each item has no text and only lists), or undefined. */
function wrappedLists(list: ListBlock): Block[] | undefined {
  const isWrapper = (item: ListItem) =>
    item.text.length === 0 && (item.children?.length ?? 0) > 0 && item.children!.every((b) => b.type === 'list');
  return list.items.length && list.items.every(isWrapper) ? list.items.flatMap((item) => item.children!) : undefined;
}

/** Whether `next` reopens `list`: the same kind, numbered on from it or not numbered at all. */
function continues(list: ListBlock, next: ListBlock): boolean {
  if (next.ordered !== list.ordered) return false;
  return next.start === undefined || next.start === (list.start ?? 1) + list.items.length;
}

function append(target: Block[], items: Block[]): void {
  for (const item of items) target.push(item);
}
