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
