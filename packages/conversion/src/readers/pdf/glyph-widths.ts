/**
 * Where letters stand inside a run poppler gives only as a whole (its left edge, width and text): each
 * letter takes its share of the run's width by its width in a proportional face (Helvetica's metrics,
 * which Arial and most sans and serif text faces are near), not an even share. A run of narrow letters
 * ("Operating temperature") and one of wide ones ("0 °C to 45 °C") otherwise put a cut a word off.
 */

/** Advance widths (thousandths of an em) of ASCII 32..126. */
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];

/** A letter outside ASCII: about a lower-case letter's width. */
const OTHER_WIDTH = 556;

/** Helvetica's advance width of an ASCII character (thousandths of an em), undefined outside ASCII. */
export function asciiWidth(code: number): number | undefined {
  return code >= 32 && code <= 126 ? ASCII_WIDTHS[code - 32] : undefined;
}

function widthOf(code: number): number {
  return code >= 32 && code <= 126 ? ASCII_WIDTHS[code - 32]! : OTHER_WIDTH;
}

/** Where each letter of `text` starts, in points, when the run starts at `x` and is `width` wide; one more entry for its end. */
export function letterPositions(text: string, x: number, width: number): number[] {
  let total = 0;
  for (let i = 0; i < text.length; i++) total += widthOf(text.charCodeAt(i));
  const scale = total > 0 ? width / total : 0;
  const at: number[] = [x];
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    sum += widthOf(text.charCodeAt(i));
    at.push(x + sum * scale);
  }
  return at;
}

/** How wide `text` stands at `size` points in a proportional face: for pieces poppler gives no width (turned text). */
export function textWidth(text: string, size: number): number {
  let total = 0;
  for (let i = 0; i < text.length; i++) total += widthOf(text.charCodeAt(i));
  return (total * size) / 1000;
}

/**
 * A monospaced face, by its name: Courier, the "Mono" families (DejaVu, Liberation, Noto, Latin Modern),
 * Consolas, Menlo, Source Code, and TeX's typewriter faces (cmtt10, lmtt, txtt, sftt/ectt as "+CMTT9").
 */
export function isMonospacedFont(name: string): boolean {
  return MONOSPACED.test(name);
}

const MONOSPACED = /courier|mono|consol|menlo|code|(?:^|\+)(?:cm|lm|tx|sf|ec)tt\d/i;
