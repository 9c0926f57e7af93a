import type { TextItem } from './layout';

/** How many items back an item drawn over looks for the text it repeats (a line drawn again after the next few). */
const LOOKBACK = 40;
/** Items on one baseline: tops within this share of the text size. */
const SAME_BASELINE = 0.2;
/** The least overlap, in letters, that is read as letters drawn twice rather than a tight or italic join. */
const MIN_OVERLAP_LETTERS = 0.6;
/** Letters drawn over (spaces aside) that are read as pairs of copies: a letter and its copy, and the next letter. */
const MIN_PAIRED_LETTERS = 3;
/** The longest item read as part of a chain of glyph copies. */
const MAX_GLYPH_ITEM_LENGTH = 8;
/** A line drawn over pieces of itself is this long at least (fake bold's glyph pairs are shorter). */
const MIN_WHOLE_LETTERS = 8;
/** Letters either side of where a piece stands in the whole line that its letters are looked for in. */
const PIECE_SLACK = 3;

/**
 * Text drawn twice over itself read once: fake bold, each glyph or each line drawn again a fraction of a point to
 * the right (printer drivers, Word's PDFs of some fonts). pdftotext drops the copies; pdftohtml keeps them, and the
 * text read "BBoolldd". Glyph by glyph, pdftohtml starts an item where a copy steps back over the glyph before
 * ("B", "Bo", "ol", "ld"), and narrow letters keep both copies in one item ("errp"): items that each start inside
 * the one before, on one baseline, whose letters joined come in equal pairs, are read as every other letter. A
 * word or line drawn again is an item overlapping one before it by whole letters that the other ends with: it is
 * joined to it without them.
 */
export function withoutOverprint(items: TextItem[]): TextItem[] {
  if (items.length < 2) return items;
  const out: TextItem[] = [];
  // Per item of `out`, its letters as drawn (copies included) while they come in pairs.
  const drawn: (string | undefined)[] = [];
  for (const item of items) {
    // A whole line drawn over pieces of itself drawn before (letters missing): the pieces go.
    for (let i = out.length - 1; i >= 0 && i >= out.length - LOOKBACK; i--) {
      if (pieceOf(out[i]!, item)) {
        out.splice(i, 1);
        drawn.splice(i, 1);
      }
    }
    const at = drawnOver(out, item);
    if (at < 0) {
      out.push(item);
      drawn.push(asDrawn(item));
      continue;
    }
    const first = out[at]!;
    const right = Math.max(first.x + first.width, item.x + item.width);
    const copy = asDrawn(item);
    const doubled = drawn[at] !== undefined && copy !== undefined ? drawn[at] + copy : undefined;
    if (doubled !== undefined && inPairs(doubled)) {
      out[at] = { ...first, text: everyOtherLetter(doubled), width: right - first.x };
      drawn[at] = doubled;
      continue;
    }
    const repeated = repeatedLetters(first, item);
    if (repeated) {
      out[at] = { ...first, text: first.text + item.text.slice(repeated), width: right - first.x };
      drawn[at] = undefined;
    } else {
      out.push(item);
      drawn.push(asDrawn(item));
    }
  }
  return out.length === items.length ? items : out;
}

/** The index in `out` of the latest item on `item`'s baseline that `item` starts inside, -1 if none. */
function drawnOver(out: TextItem[], item: TextItem): number {
  if (item.rtl || item.runs || !item.text) return -1;
  const letter = item.width / item.text.length;
  if (!(letter > 0)) return -1;
  for (let at = out.length - 1; at >= 0 && at >= out.length - LOOKBACK; at--) {
    const other = out[at]!;
    if (other.rtl || other.runs || other.size !== item.size) continue;
    if (Math.abs(other.y - item.y) > SAME_BASELINE * item.size) continue;
    // A copy starts at or right of the first drawing's start (less than half a letter left of it).
    if (item.x < other.x - letter / 2) continue;
    const overlap = Math.min(other.x + other.width, item.x + item.width) - item.x;
    if (overlap >= MIN_OVERLAP_LETTERS * letter) return at;
  }
  return -1;
}

/**
 * Whether `piece`, drawn before `whole` on its baseline and inside its width, is a part of it with letters missing
 * ("th t th" under "that the"): fewer letters than it, each found in order where it stands in `whole`.
 */
function pieceOf(piece: TextItem, whole: TextItem): boolean {
  if (whole.rtl || whole.runs || whole.text.length < MIN_WHOLE_LETTERS || piece.rtl || piece.runs) return false;
  if (piece.size !== whole.size || Math.abs(piece.y - whole.y) > SAME_BASELINE * whole.size) return false;
  const letter = whole.width / whole.text.length;
  if (piece.x < whole.x - letter / 2 || piece.x + piece.width > whole.x + whole.width + letter / 2) return false;
  const letters = piece.text.replace(/\s+/g, '');
  if (!letters || letters.length >= whole.text.replace(/\s+/g, '').length) return false;
  const from = Math.max(0, Math.round((piece.x - whole.x) / letter) - PIECE_SLACK);
  const window = whole.text.slice(from, from + piece.text.length * 2 + 2 * PIECE_SLACK).replace(/\s+/g, '');
  let at = 0;
  for (const c of window) if (c === letters[at]) at++;
  return at === letters.length;
}

/** How many of `second`'s first letters, those it overlaps `first` by, `first` ends with; 0 when it does not. */
function repeatedLetters(first: TextItem, second: TextItem): number {
  const letter = second.width / second.text.length;
  const overlap = Math.min(first.x + first.width, second.x + second.width) - second.x;
  const letters = Math.min(second.text.length, Math.max(1, Math.round(overlap / letter)));
  return first.text.endsWith(second.text.slice(0, letters)) ? letters : 0;
}

/**
 * An item's text with the word break pdftohtml drew before it (taken off as the item's indent), when it is short
 * enough to be a glyph's copy and the next glyph (narrow letters keep both copies: "prriin"); undefined otherwise,
 * so that a longer run whose letters happen to pair ("MM DD YYYY") is not read as copies.
 */
function asDrawn(item: TextItem): string | undefined {
  if (item.text.length > MAX_GLYPH_ITEM_LENGTH) return undefined;
  return item.spaceBefore ? ` ${item.text}` : item.text;
}

/** Whether the letters (spaces aside) come in pairs of one letter, the last maybe alone: at least two pairs' worth. */
function inPairs(text: string): boolean {
  const letters = text.replace(/\s+/g, '');
  if (letters.length < MIN_PAIRED_LETTERS) return false;
  for (let i = 0; i + 1 < letters.length; i += 2) if (letters[i] !== letters[i + 1]) return false;
  return true;
}

/** The first letter of each pair, spaces between them as one. */
function everyOtherLetter(text: string): string {
  let out = '';
  let letters = 0;
  for (const c of text) {
    if (/\s/.test(c)) {
      if (out && !out.endsWith(' ')) out += ' ';
    } else if (letters++ % 2 === 0) out += c;
  }
  return out;
}
