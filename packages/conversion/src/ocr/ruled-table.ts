import { cropImage, type PreparedImage, recognise } from './engine';

/** A ruling line is dark pixels running at least this share of the image's width (or of the grid's height). */
const MIN_RULE_SHARE = 0.25;
const DARK = 110;

export interface RuledTable {
  /** The grid's outer box, in image pixels. */
  top: number;
  bottom: number;
  left: number;
  right: number;
  rows: string[][];
}

/** White pixels around a cell cut out for reading. */
const CELL_MARGIN = 16;
/** Cells read at most per table (each is its own OCR pass). */
const MAX_CELLS = 300;

/**
 * A table drawn with ruling lines: 3+ horizontal rules and 3+ vertical rules that span them make
 * a grid. Tesseract tends to skip text boxed in by lines, so each cell is cut out (inside its
 * rules) and read on its own. Undefined when the image has no such grid (aligned text without
 * lines is left to enhanced mode).
 */
export async function ruledTable(image: PreparedImage, language?: string): Promise<RuledTable | undefined> {
  const { pixels, width, height } = image;
  const dark = (x: number, y: number): boolean => pixels[y * width + x]! < DARK;

  const horizontal = mergeRuns(
    Array.from({ length: height }, (_, y) => longestRun(width, (x) => dark(x, y))),
    width * MIN_RULE_SHARE,
  );
  if (horizontal.length < 3) return undefined;
  const top = horizontal[0]!.at;
  const bottom = horizontal[horizontal.length - 1]!.at;
  const vertical = mergeRuns(
    Array.from({ length: width }, (_, x) => longestRun(bottom - top + 1, (i) => dark(x, top + i))),
    (bottom - top) * 0.9,
  );
  if (vertical.length < 3) return undefined;
  if ((horizontal.length - 1) * (vertical.length - 1) > MAX_CELLS) return undefined;
  const rows: string[][] = [];
  for (let r = 0; r + 1 < horizontal.length; r++) {
    const row: string[] = [];
    for (let c = 0; c + 1 < vertical.length; c++) {
      const box = {
        left: vertical[c]!.to + 2,
        top: horizontal[r]!.to + 2,
        width: vertical[c + 1]!.from - vertical[c]!.to - 4,
        height: horizontal[r + 1]!.from - horizontal[r]!.to - 4,
      };
      row.push(box.width > 8 && box.height > 8 ? await readCell(image, box, language) : '');
    }
    rows.push(row);
  }
  const filled = rows.filter((r) => r.some((c) => c.trim()));
  if (filled.length < 2) return undefined;
  return { top, bottom, left: vertical[0]!.at, right: vertical[vertical.length - 1]!.at, rows: filled };
}

/** The text of one cell, cut out with a white margin so Tesseract sees a small page of its own. */
async function readCell(
  image: PreparedImage,
  box: { left: number; top: number; width: number; height: number },
  language: string | undefined,
): Promise<string> {
  const { paragraphs } = await recognise(await cropImage(image, box, CELL_MARGIN), language);
  return paragraphs.join(' ').replace(/[|]/g, ' ').replace(/\s+/g, ' ').trim();
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
function mergeRuns(runs: number[], min: number): Array<{ at: number; from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  runs.forEach((run, i) => {
    if (run < min) return;
    const last = out[out.length - 1];
    if (last && i - last.to <= 2) last.to = i;
    else out.push({ from: i, to: i });
  });
  return out.map((r) => ({ ...r, at: Math.round((r.from + r.to) / 2) }));
}
