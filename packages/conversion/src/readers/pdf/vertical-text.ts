import type { TextItem } from './layout';

/** A page is read as vertical text when at least this share of its characters stand in such columns... */
const MIN_VERTICAL_SHARE = 0.6;
/** ...and they are this many at least (a narrow table cell's characters one under the other are not enough). */
const MIN_VERTICAL_CHARS = 20;

/** A character of the scripts set in vertical columns (Han, kana, Hangul) or their punctuation. */
const VERTICAL_SCRIPT =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff65\u30fc]$/u;

/** A page's size and items, as the reader holds them. */
export interface PageText {
  width: number;
  height: number;
  items: TextItem[];
}

/**
 * A page set in vertical columns (Japanese and Chinese books, read top-down, columns right to left) turned so that
 * its columns are lines: poppler gives such a page one item per character, which read as lines of one character,
 * each a paragraph. Turned a quarter clockwise, a column's top is its line's left end and the rightmost column is
 * the top line, so lines, paragraphs (a column indented one character down) and headings (larger type) read as on
 * any page. Pages that are not vertical are given back as they are.
 */
export function verticalTextTurned<P extends PageText>(page: P): P {
  if (!isVertical(page.items)) return page;
  return {
    ...page,
    width: page.height,
    height: page.width,
    items: page.items.map((i) => ({
      ...i,
      // Down the column becomes rightwards along the line; columns further right become lines further up.
      x: page.height - i.y - i.size,
      y: i.x,
      width: [...i.text].length * i.size,
    })),
  };
}

/** Whether most of the page's characters are single CJK characters each standing one size under the one before. */
function isVertical(items: TextItem[]): boolean {
  let stacked = 0;
  let all = 0;
  let before: TextItem | undefined;
  for (const item of items) {
    const text = item.text.trim();
    all += text.length;
    if (before && VERTICAL_SCRIPT.test(text) && underInColumn(before, item)) stacked++;
    before = item;
  }
  return stacked >= MIN_VERTICAL_CHARS && stacked >= all * MIN_VERTICAL_SHARE;
}

/** The item stands right under the one before, at its left edge, one character's advance down. */
function underInColumn(above: TextItem, item: TextItem): boolean {
  const step = above.y - item.y;
  return Math.abs(above.x - item.x) < item.size * 0.2 && step > item.size * 0.7 && step < item.size * 1.6;
}
