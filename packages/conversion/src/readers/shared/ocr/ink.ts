/** What a page image's ink says beyond the words: its ruling lines (a table's grid) and ink no recognised word covers. */
import type { Box } from './boxes';
import type { PreparedImage } from './engine';

/** A ruling line is dark pixels running at least this share of the image's width (or of the grid's height). */
const MIN_RULE_SHARE = 0.25;
/** A vertical rule of a grid runs at least this share of the grid's height. */
const MIN_COLUMN_RULE_SHARE = 0.9;
/** A grey level below this is ink: ruling lines and the lines of text the coverage check counts. */
export const INK_LEVEL = 110;
/** Cells read at most per table (each is its own OCR pass): a finer grid is a pattern, not a table. */
const MAX_CELLS = 300;

interface Rule {
  at: number;
  from: number;
  to: number;
}

interface Grid {
  horizontal: Rule[];
  vertical: Rule[];
}

/** Each image's grid, found once: the unread-ink check and the ruled-table reader both ask for it. */
const grids = new WeakMap<PreparedImage, Grid | null>();

/** The ruling lines of a grid (3+ horizontal, 3+ vertical spanning them), top to bottom and left to right. */
export function ruledGrid(image: PreparedImage): Grid | undefined {
  let grid = grids.get(image);
  if (grid === undefined) {
    grid = findGrid(image) ?? null;
    grids.set(image, grid);
  }
  return grid ?? undefined;
}

function findGrid(image: PreparedImage): Grid | undefined {
  const { pixels, width, height } = image;
  const dark = (x: number, y: number): boolean => pixels[y * width + x]! < INK_LEVEL;
  const horizontal = mergeRuns(
    Array.from({ length: height }, (_, y) => longestRun(width, (x) => dark(x, y))),
    width * MIN_RULE_SHARE,
  );
  if (horizontal.length < 3) return undefined;
  const top = horizontal[0]!.at;
  const bottom = horizontal[horizontal.length - 1]!.at;
  const vertical = mergeRuns(
    Array.from({ length: width }, (_, x) => longestRun(bottom - top + 1, (i) => dark(x, top + i))),
    (bottom - top) * MIN_COLUMN_RULE_SHARE,
  );
  if (vertical.length < 3) return undefined;
  if ((horizontal.length - 1) * (vertical.length - 1) > MAX_CELLS) return undefined;
  return { horizontal, vertical };
}

/** A horizontal rule is at most this many pixel rows thick; a thicker dark band is a bar (a heading band with white text). */
const MAX_RULE_THICKNESS = 10;

/**
 * The image with its horizontal rules painted white (thin dark runs of at least MIN_RULE_SHARE of
 * the width: a table's rules above and below its header, a rule under a heading), or undefined
 * when it has none. Tesseract drops words set close to such a rule and reads rules as dashes.
 */
export function withoutHorizontalRules(image: PreparedImage): PreparedImage | undefined {
  const { pixels, width, height } = image;
  const min = width * MIN_RULE_SHARE;
  /** Per pixel row, its dark runs long enough to be a rule. */
  const runs: Array<Array<[number, number]>> = [];
  for (let y = 0; y < height; y++) {
    const row: Array<[number, number]> = [];
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const dark = x < width && pixels[y * width + x]! < INK_LEVEL;
      if (dark && start < 0) start = x;
      if (!dark && start >= 0) {
        if (x - start >= min) row.push([start, x]);
        start = -1;
      }
    }
    runs.push(row);
  }
  let out: Buffer | undefined;
  for (let y = 0; y < height;) {
    if (!runs[y]!.length) {
      y++;
      continue;
    }
    let end = y;
    while (end < height && runs[end]!.length) end++;
    if (end - y <= MAX_RULE_THICKNESS) {
      out ??= Buffer.from(pixels);
      // The rule's rows, two pixels longer at each end (its anti-aliased end caps).
      for (let r = y; r < end; r++) {
        for (const [a, b] of runs[r]!)
          out.fill(255, r * width + Math.max(0, a - 2), r * width + Math.min(width, b + 2));
      }
    }
    y = end;
  }
  return out && { pixels: out, width, height };
}

/** The outer box of a ruled grid, when the image has one (its cells are read one by one). */
export function ruledGridBox(image: PreparedImage): Box | undefined {
  const grid = ruledGrid(image);
  if (!grid) return undefined;
  return {
    x0: grid.vertical[0]!.at,
    y0: grid.horizontal[0]!.at,
    x1: grid.vertical[grid.vertical.length - 1]!.at,
    y1: grid.horizontal[grid.horizontal.length - 1]!.at,
  };
}

/** The longest run of consecutive true positions in [0, length). */
function longestRun(length: number, on: (i: number) => boolean): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < length; i++) {
    run = on(i) ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** Positions whose run reaches `min`, neighbours (a thick rule) merged into one at their middle. */
function mergeRuns(runs: number[], min: number): Rule[] {
  const out: Array<{ from: number; to: number }> = [];
  runs.forEach((run, i) => {
    if (run < min) return;
    const last = out[out.length - 1];
    if (last && i - last.to <= 2) last.to = i;
    else out.push({ from: i, to: i });
  });
  return out.map((r) => ({ ...r, at: Math.round((r.from + r.to) / 2) }));
}

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

/** A speck is a blob of ink of at most this many pixels (a dot of an i at reading size is larger). */
const SPECK_PIXELS = 12;
/** Speckled: specks make at least this share of the blobs of ink… */
const MIN_SPECK_SHARE = 0.8;
/** …and there are at least this many per pixel (a photo's few specks are not noise to filter). */
const MIN_SPECK_DENSITY = 0.005;

/**
 * Whether a page is covered in specks (salt-and-pepper noise of a bad scan or fax): most blobs of
 * ink are a few pixels, and they are dense. Tesseract reads almost nothing of such a page and
 * takes minutes over it; a median filter clears it.
 */
export function isSpeckled(image: PreparedImage): boolean {
  const { pixels, width, height } = image;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  let blobs = 0;
  let specks = 0;
  for (let start = 0; start < pixels.length; start++) {
    if (seen[start] || pixels[start]! >= INK_LEVEL) continue;
    blobs++;
    let area = 0;
    let size = 0;
    stack[size++] = start;
    seen[start] = 1;
    while (size) {
      const p = stack[--size]!;
      area++;
      const x = p % width;
      const visit = (q: number): void => {
        if (!seen[q] && pixels[q]! < INK_LEVEL) {
          seen[q] = 1;
          stack[size++] = q;
        }
      };
      if (x > 0) visit(p - 1);
      if (x + 1 < width) visit(p + 1);
      if (p >= width) visit(p - width);
      if (p + width < pixels.length) visit(p + width);
    }
    if (area <= SPECK_PIXELS) specks++;
  }
  return blobs > 0 && specks / blobs >= MIN_SPECK_SHARE && specks / pixels.length >= MIN_SPECK_DENSITY;
}
