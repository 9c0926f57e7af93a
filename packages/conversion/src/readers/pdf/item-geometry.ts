import type { TextItem } from './layout';

/** Text of one size: cells of one row and their wrapped lines (a heading beside a block is larger). */
export function sameType(a: TextItem, b: TextItem): boolean {
  return Math.abs(a.size - b.size) <= 0.05 * Math.max(a.size, b.size);
}

export function leftmost(items: TextItem[]): number {
  let x = Infinity;
  for (const i of items) x = Math.min(x, i.x);
  return x;
}

export function rightmost(items: TextItem[]): number {
  let right = -Infinity;
  for (const i of items) right = Math.max(right, i.x + i.width);
  return right;
}

/** Whether the item stands on the other's baseline, within a share of the smaller size. */
export function level(item: TextItem, other: TextItem): boolean {
  return Math.abs(item.y - other.y) <= Math.max(2, 0.45 * Math.min(item.size, other.size));
}

/** Whether the items stand in order of their left edges (a stable sort by x would keep them as they are). */
export function inOrderOfX(items: TextItem[]): boolean {
  for (let i = 1; i < items.length; i++) if (items[i]!.x < items[i - 1]!.x) return false;
  return true;
}

/** Whether a gap between two runs of text in `size` is wide enough to part two cells, not two words. */
export function partsCells(gap: number, size: number): boolean {
  return gap > Math.max(size * 1.2, 8);
}
