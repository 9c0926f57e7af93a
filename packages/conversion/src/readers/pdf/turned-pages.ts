import type { TextItem } from './layout';
import type { Rule } from './rulings';
import { textWidth } from './glyph-widths';

/**
 * A page whose text is set a quarter turn (a landscape table printed on a portrait page): clockwise text
 * reads down the page, anticlockwise text reads up it.
 */
export type QuarterTurn = 'clockwise' | 'anticlockwise';

/** A page is read turned when at least this share of its letters is set at a right angle... */
const MIN_TURNED_SHARE = 0.6;
/** ...and they are at least this many: a turned label in a margin leaves the page as it is. */
const MIN_TURNED_CHARS = 40;
/** Two turned pieces this close across (points) stand on one line. */
const SAME_LINE = 1;

interface PageBox {
  width: number;
  height: number;
}

/**
 * How the page's text is turned, if most of it is. poppler gives turned text as pieces of zero width at the
 * point where each starts: pieces of one line follow each other down the page (clockwise) or up it.
 */
export function quarterTurnOf(items: TextItem[]): QuarterTurn | undefined {
  let turned = 0;
  let all = 0;
  for (const item of items) {
    const letters = item.text.replace(/\s+/g, '').length;
    all += letters;
    if (item.width === 0) turned += letters;
  }
  if (turned < MIN_TURNED_CHARS || turned < all * MIN_TURNED_SHARE) return undefined;
  let down = 0;
  let up = 0;
  let before: TextItem | undefined;
  for (const item of items) {
    if (item.width !== 0 || !item.text.trim()) continue;
    if (before && Math.abs(before.x - item.x) < SAME_LINE && before.y !== item.y) {
      if (item.y < before.y) down++;
      else up++;
    }
    before = item;
  }
  if (down === up) return undefined;
  return down > up ? 'clockwise' : 'anticlockwise';
}

/**
 * The page's items as they stand when the page is turned upright (it is then as wide as it was high); pieces
 * of bare spaces are left out.
 */
export function turnedItems(items: TextItem[], turn: QuarterTurn, page: PageBox): TextItem[] {
  return items
    .filter((item) => item.text.trim())
    .map((item) => {
      // Where the piece starts along its line; poppler's left edge of a turned piece is its baseline, either way.
      const x = turn === 'clockwise' ? page.height - item.y - item.size : item.y + item.size;
      const y = turn === 'clockwise' ? item.x : page.width - item.x;
      // Trailing spaces are no ink: counted, a cell's last word would reach over the rule into the next cell.
      return { ...item, x, y, width: textWidth(item.text.trimEnd(), item.size) };
    });
}

/** The page's drawn rules as they stand when the page is turned upright: rows become columns. */
export function turnedRules(rules: Rule[], turn: QuarterTurn, page: PageBox): Rule[] {
  return rules.map((rule) => {
    if (turn === 'clockwise') {
      return rule.horizontal
        ? { horizontal: false, at: page.height - rule.at, from: rule.from, to: rule.to }
        : { horizontal: true, at: rule.at, from: page.height - rule.to, to: page.height - rule.from };
    }
    return rule.horizontal
      ? { horizontal: false, at: rule.at, from: page.width - rule.to, to: page.width - rule.from }
      : { horizontal: true, at: page.width - rule.at, from: rule.from, to: rule.to };
  });
}
