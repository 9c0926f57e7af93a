import { median, type Box } from './boxes';

/** What a list's drawn bullet is written as once found, whatever Tesseract read it as ("e", "+", "*", "@", "°"). */
export const BULLET = '•';
/** A bullet is at most this share of the height of the line's words (a lower-case "e" or "o" is about three quarters). */
const MAX_BULLET_HEIGHT = 0.55;
/** …and sits in the middle of the line: its centre this far down the words' boxes (a full stop sits at the foot). */
const BULLET_CENTRE = { min: 0.25, max: 0.8 };
/** A bullet is about as wide as it is high (a dash is a marker of its own, read as such). */
const MAX_BULLET_ASPECT = 2;

interface Word {
  text: string;
  bbox: Box;
}

/**
 * The line's words with a drawn bullet leading them named as one: a single mark, small and
 * roughly square, centred in the line's height, with words after it. Tesseract reads a round
 * bullet as "e", "o", "+", "*", "@" or "°", which would otherwise start the item's text.
 */
export function withBulletNamed<W extends Word>(words: W[]): W[] {
  const [first, ...rest] = words;
  if (!first || !rest.length || [...first.text].length !== 1 || /\p{N}/u.test(first.text)) return words;
  const text = rest.filter((w) => [...w.text].length >= 2);
  if (!text.length) return words;
  const height = median(text.map((w) => w.bbox.y1 - w.bbox.y0));
  const top = median(text.map((w) => w.bbox.y0));
  const h = first.bbox.y1 - first.bbox.y0;
  const w = first.bbox.x1 - first.bbox.x0;
  const centre = ((first.bbox.y0 + first.bbox.y1) / 2 - top) / height;
  const small = h > 0 && h <= height * MAX_BULLET_HEIGHT && w <= h * MAX_BULLET_ASPECT && h <= w * MAX_BULLET_ASPECT;
  const apart = rest[0]!.bbox.x0 - first.bbox.x1 >= w;
  if (!small || !apart || centre < BULLET_CENTRE.min || centre > BULLET_CENTRE.max) return words;
  return [{ ...first, text: BULLET }, ...rest];
}

/** A grey image, one byte per pixel (what OCR read). */
interface GreyImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/** A skipped bullet covers at least this share of the box of the bullet it repeats. */
const SKIPPED_BULLET_INK = 0.3;

/**
 * Whether a line holds a bullet Tesseract did not read (it drops a small dot now and then): ink
 * where the bullet of the item above sits, at the same height in this line, and the line's words
 * start where that item's text started.
 */
export function hasSkippedBullet(
  image: GreyImage,
  line: { bbox: Box; words: Word[] },
  above: { bullet: Box; line: Box; textStart: number },
  inkLevel: number,
): boolean {
  const first = line.words[0];
  const bullet = above.bullet;
  const height = bullet.y1 - bullet.y0;
  if (!first || Math.abs(first.bbox.x0 - above.textStart) > height || first.bbox.x0 <= bullet.x1) return false;
  const top = Math.max(0, Math.round(line.bbox.y0 + (bullet.y0 - above.line.y0)));
  const bottom = Math.min(image.height, top + height);
  const left = Math.max(0, bullet.x0);
  const right = Math.min(image.width, bullet.x1);
  let ink = 0;
  for (let y = top; y < bottom; y++)
    for (let x = left; x < right; x++) if (image.pixels[y * image.width + x]! < inkLevel) ink++;
  return ink >= (right - left) * (bottom - top) * SKIPPED_BULLET_INK && ink > 0;
}
