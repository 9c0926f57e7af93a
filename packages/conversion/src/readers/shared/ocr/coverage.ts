import type { PreparedImage } from './engine';
import type { Box } from './boxes';
import { INK_LEVEL, ruledGridBox } from './rules';

/** A pixel row of a strip holds ink when at least this many of its pixels are dark (specks are not text). */
const MIN_INK_PIXELS = 2;
/** Strips this many line heights wide: a line tilted by a few degrees still fits one band of rows in a strip. */
const STRIP_LINE_HEIGHTS = 8;
/** A band of ink rows is line-shaped when its height lies between these multiples of the line height. */
const MIN_BAND_LINE_HEIGHTS = 0.4;
const MAX_BAND_LINE_HEIGHTS = 2;
/** A band this dark is a solid bar (a coloured heading band, a rule), not a line of dark text. */
const SOLID_INK_SHARE = 0.6;

/**
 * The share of line-shaped bands of ink that no recognised word lies on: Tesseract's page layout
 * analysis sometimes takes a noisy region of a photo for a picture and reads nothing there.
 * The image is cut into vertical strips and each strip's rows into bands of ink; 0 when every
 * band of line height has a word on it (or the image holds none). A ruled grid is left out: its
 * cells are read one by one (ruled-table.ts).
 */
export function unreadInkShare(image: PreparedImage, words: Box[], lineHeight: number): number {
  if (lineHeight <= 0) return 0;
  const { pixels, width, height } = image;
  const grid = ruledGridBox(image);
  const inGrid = (x0: number, x1: number, y: number): boolean =>
    grid !== undefined && x1 > grid.x0 && x0 < grid.x1 && y > grid.y0 && y < grid.y1;
  const strip = Math.max(1, Math.round(lineHeight * STRIP_LINE_HEIGHTS));
  let bands = 0;
  let unread = 0;
  for (let left = 0; left < width; left += strip) {
    const right = Math.min(width, left + strip);
    const inStrip = words.filter((w) => w.x1 > left && w.x0 < right);
    const inkPerRow = new Uint32Array(height);
    for (let y = 0; y < height; y++) {
      let n = 0;
      for (let x = left, i = y * width + left; x < right; x++, i++) if (pixels[i]! < INK_LEVEL) n++;
      inkPerRow[y] = n;
    }
    for (const band of inkBands(inkPerRow)) {
      const rows = band.to - band.from + 1;
      if (rows < lineHeight * MIN_BAND_LINE_HEIGHTS || rows > lineHeight * MAX_BAND_LINE_HEIGHTS) continue;
      if (band.ink / (rows * (right - left)) > SOLID_INK_SHARE) continue;
      const middle = (band.from + band.to) / 2;
      if (inGrid(left, right, middle)) continue;
      bands++;
      if (!inStrip.some((w) => w.y0 <= middle && w.y1 >= middle)) unread++;
    }
  }
  return bands ? unread / bands : 0;
}

/** Runs of consecutive rows with ink, and the ink they hold. */
function inkBands(inkPerRow: Uint32Array): Array<{ from: number; to: number; ink: number }> {
  const out: Array<{ from: number; to: number; ink: number }> = [];
  let current: { from: number; to: number; ink: number } | undefined;
  inkPerRow.forEach((n, y) => {
    if (n >= MIN_INK_PIXELS) {
      if (current) {
        current.to = y;
        current.ink += n;
      } else current = { from: y, to: y, ink: n };
    } else if (current) {
      out.push(current);
      current = undefined;
    }
  });
  if (current) out.push(current);
  return out;
}
