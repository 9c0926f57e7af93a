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
