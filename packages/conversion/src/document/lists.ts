import type { Block, InlineContent, ListItem } from './model';

/** One list paragraph of a reader that sees lists flat (a level per paragraph): DOC, RTF. */
export interface FlatListItem {
  level: number;
  ordered: boolean;
  /** The number shown on an ordered item (the list starts at the first one's). */
  value?: number;
  text: InlineContent;
  /** Which numbered list the item belongs to (DOCX numId): a different one starts a new list. */
  list?: string;
  /** Further paragraphs of the item (RTF list paragraphs without a marker of their own). */
  more?: Block[];
  /** A task item's box, ticked or not (a PDF form's check box before its label). */
  checked?: boolean;
}

/** Consecutive list paragraphs as nested Markdown lists (a deeper level nests under the item before it). */
export function nestListItems(items: FlatListItem[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < items.length;) {
    const [block, next] = listAt(items, i, items[i]!.level);
    out.push(block);
    i = next;
  }
  return out;
}

function listAt(items: FlatListItem[], start: number, level: number): [Block, number] {
  const first = items[start]!;
  const list: ListItem[] = [];
  let i = start;
  while (i < items.length) {
    const it = items[i]!;
    if (it.level < level) break;
    if (it.level > level) {
      const [nested, next] = listAt(items, i, it.level);
      const last = list[list.length - 1];
      if (last) last.children = [...(last.children ?? []), nested];
      else list.push({ text: [], children: [nested] });
      i = next;
      continue;
    }
    if (list.length && (it.ordered !== first.ordered || (it.ordered && it.list !== first.list))) break;
    const item: ListItem = it.more?.length ? { text: it.text, children: [...it.more] } : { text: it.text };
    if (it.checked !== undefined) item.checked = it.checked;
    list.push(item);
    i++;
  }
  return [{ type: 'list', ordered: first.ordered, start: first.ordered ? first.value : undefined, items: list }, i];
}
