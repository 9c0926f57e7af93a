import type { Block, ListItem } from '../../markdown/model';

export interface RtfItem {
  level: number;
  ordered: boolean;
  value: number;
  text: string;
}

/** Consecutive list paragraphs as nested Markdown lists (a deeper level nests under the item before it). */
export function groupListItems(items: RtfItem[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < items.length;) {
    const [block, next] = listAt(items, i, items[i]!.level);
    out.push(block);
    i = next;
  }
  return out;
}

function listAt(items: RtfItem[], start: number, level: number): [Block, number] {
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
      else list.push({ text: '', children: [nested] });
      i = next;
      continue;
    }
    if (list.length && it.ordered !== first.ordered) break;
    list.push({ text: it.text });
    i++;
  }
  return [{ type: 'list', ordered: first.ordered, start: first.ordered ? first.value : undefined, items: list }, i];
}
