import { median } from './boxes';
import { INK_LEVEL } from './ink';

/** Strips this share of the image's width: a line tilted by a few degrees still fits one band of rows in a strip. */
const STRIP_SHARE = 0.125;
/** A strip is at least this wide, in pixels. */
const MIN_STRIP_PX = 120;
/** A pixel row of a strip holds ink when at least this many of its pixels are dark. */
const MIN_INK_PIXELS = 2;
/** Bands of ink lower than this many pixels are specks or rules, not lines of text. */
const MIN_BAND_PX = 4;

/**
 * The usual height of a line of text in a grey image, in pixels: the median height of the bands
 * of rows with ink in vertical strips of the image (undefined when there are none). What OCR
 * upscaling is decided on: an image's width says nothing about how large its text is set.
 */
export function lineHeightOf(pixels: Buffer, width: number, height: number): number | undefined {
  const strip = Math.max(MIN_STRIP_PX, Math.round(width * STRIP_SHARE));
  const heights: number[] = [];
  for (let left = 0; left < width; left += strip) {
    const right = Math.min(width, left + strip);
    let start = -1;
    for (let y = 0; y <= height; y++) {
      let ink = 0;
      if (y < height)
        for (let i = y * width + left, end = y * width + right; i < end; i++) if (pixels[i]! < INK_LEVEL) ink++;
      if (ink >= MIN_INK_PIXELS) {
        if (start < 0) start = y;
      } else if (start >= 0) {
        if (y - start >= MIN_BAND_PX) heights.push(y - start);
        start = -1;
      }
    }
  }
  return heights.length ? median(heights) : undefined;
}

/**
 * How far a word's letters reach above the baseline, as a share of the type's full height
 * (ascender to descender), tallest first; measured on sans and serif text (DejaVu Sans, Liberation
 * Serif): ascenders stand a little above capitals, "t" well below them.
 */
const REACH_UP: Array<[RegExp, number]> = [
  [/[bdfhkl]/u, 0.78],
  [/[\p{Lu}\p{N}ij!?#$%&@/\\'"]/u, 0.72],
  [/t/u, 0.62],
];
/** The x-height as a share of the full height: a word of short letters only ("are", "on"). */
const X_HEIGHT = 0.56;
/** How far descenders reach below the baseline, as a share of the full height. */
const REACH_DOWN = 0.22;
/** Letters that reach below the baseline. */
const DESCENDING = /[gjpqy]/u;
/** Marks that span from above the cap height to below the baseline. */
const SPANNING = /[()[\]{}|]/u;

/**
 * The full height of the type a Latin word is set in (ascender to descender), estimated from its
 * box: a box holds only the parts of the type its letters reach ("on" is x-height high, "the"
 * reaches up, "typed" up and down). What compares text sizes across lines whatever their letters.
 */
export function typeHeightOf(word: { text: string; y0: number; y1: number }): number {
  const height = word.y1 - word.y0;
  if (SPANNING.test(word.text)) return height;
  const up = REACH_UP.find(([letters]) => letters.test(word.text))?.[1] ?? X_HEIGHT;
  return height / (up + (DESCENDING.test(word.text) ? REACH_DOWN : 0));
}

/** Type this much larger than other type is set apart from it: a heading over its body text. */
export const LARGER_TYPE = 1.15;

/** Lines are compared by size only when each has this many words: one word's box is too uncertain a measure. */
const MIN_WORDS_TO_COMPARE = 2;

/** The type height of a line or paragraph (typeHeightOf of its words' median); 0 for no word. */
export function typeHeightOfWords(words: Array<{ text: string; y0: number; y1: number }>): number {
  return median(words.filter((w) => /[\p{L}\p{N}]/u.test(w.text)).map(typeHeightOf));
}

/** A line's type height when it has words enough to tell (MIN_WORDS_TO_COMPARE), 0 otherwise. */
export function comparableTypeHeight(words: Array<{ text: string; y0: number; y1: number }>): number {
  const counted = words.filter((w) => /[\p{L}\p{N}]{2}/u.test(w.text));
  return counted.length >= MIN_WORDS_TO_COMPARE ? typeHeightOfWords(counted) : 0;
}

/** Whether two lines' type heights differ enough to be set apart (a heading and its body). */
export function differentType(a: number, b: number): boolean {
  return a > 0 && b > 0 && Math.max(a, b) / Math.min(a, b) >= LARGER_TYPE;
}
