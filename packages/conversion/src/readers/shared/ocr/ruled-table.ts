import { cropImage, type PreparedImage, recognise } from './engine';
import { ruledGrid } from './ink';

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

/**
 * A table drawn with ruling lines: 3+ horizontal rules and 3+ vertical rules that span them make
 * a grid. Tesseract tends to skip text boxed in by lines, so each cell is cut out (inside its
 * rules) and read on its own. Undefined when the image has no such grid (aligned text without
 * lines is left to enhanced mode).
 */
export async function ruledTable(image: PreparedImage, language?: string): Promise<RuledTable | undefined> {
  const grid = ruledGrid(image);
  if (!grid) return undefined;
  const { horizontal, vertical } = grid;
  const top = horizontal[0]!.at;
  const bottom = horizontal[horizontal.length - 1]!.at;
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
  const { paragraphs } = await recognise(await cropImage(image, box, CELL_MARGIN), language, 'block');
  return paragraphs.join(' ').replace(/[|]/g, ' ').replace(/\s+/g, ' ').trim();
}
