/**
 * Percentile of pixels that contrast stretching turns black: sharp's normalise() default, which
 * turns the anti-aliased edges of small text dark and so thickens its strokes for OCR. Its level
 * lies about where 1–2 % of a page's pixels are darker.
 */
const USUAL_BLACK_PERCENTILE = 1;
/** The share of pixels below the level sharp's black point is taken to be at most. */
const BLACK_SHARE = 0.02;
/**
 * The percentile used instead (the darkest pixel) when a tinted background lies at or just above
 * that level: a note box, a code block or a shaded table header on a page whose text covers little
 * of it. Stretched to black, such a background hid the text on it.
 */
const DARKEST_PERCENTILE = 0;
/** A background is a window of levels holding this share of the pixels… */
const BACKGROUND_SHARE = 0.003;
/** …three levels wide (a flat tint, slightly noisy), more than the windows on either side… */
const BACKGROUND_WINDOW = 3;
/**
 * …lighter than the text's own black (the level 0.1 % of the pixels reach) by this many levels,
 * at most this many levels above the black point, and this far from the paper's own level (the most common).
 */
const INK_SHARE = 0.001;
const ABOVE_INK = 24;
const NEAR_BLACK = 16;
const PAPER_MARGIN = 8;
/**
 * The usual black point must lie at least this many levels darker than the paper: on a page whose
 * ink is under 1 % of it (one line on a slide or a label), that level is the paper's own grain or a
 * faint tint, and stretching it to black turned a light box's noise into a field of black specks
 * that hid the line and read as text in another script. The darkest pixel is used then.
 */
const MIN_INK_CONTRAST = 64;

/** The percentile of a grey image's pixels that contrast stretching should turn black (see above). */
export function blackPercentile(pixels: Uint8Array): number {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels.length; i++) histogram[pixels[i]!]!++;
  let paper = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[paper]!) paper = v;
  const ink = level(histogram, pixels.length * INK_SHARE);
  const black = level(histogram, pixels.length * BLACK_SHARE);
  if (paper - level(histogram, (pixels.length * USUAL_BLACK_PERCENTILE) / 100) < MIN_INK_CONTRAST)
    return DARKEST_PERCENTILE;
  for (let v = ink + ABOVE_INK; v + BACKGROUND_WINDOW <= 256 && v <= black + NEAR_BLACK; v++) {
    if (Math.abs(v + 1 - paper) <= PAPER_MARGIN) continue;
    const count = windowCount(histogram, v);
    // A peak of its own: the paper's noise falls off steadily from it and makes none.
    const peak =
      count > windowCount(histogram, v - BACKGROUND_WINDOW) && count > windowCount(histogram, v + BACKGROUND_WINDOW);
    if (peak && count >= pixels.length * BACKGROUND_SHARE) return DARKEST_PERCENTILE;
  }
  return USUAL_BLACK_PERCENTILE;
}

/** The lowest level at or below which `count` pixels lie. */
function level(histogram: Uint32Array, count: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= count) return v;
  }
  return 255;
}

/** Pixels in the BACKGROUND_WINDOW levels from `from` (levels outside 0–255 hold none). */
function windowCount(histogram: Uint32Array, from: number): number {
  let count = 0;
  for (let k = Math.max(0, from); k < Math.min(256, from + BACKGROUND_WINDOW); k++) count += histogram[k]!;
  return count;
}
