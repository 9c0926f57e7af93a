import type { Inline } from '../../document/model';

/** Cell edges of different rows closer than this (twips) are one column line: writers round widths. */
const SAME_EDGE_TWIPS = 20;
/** The most grid columns one merged cell is repeated over, as in the DOCX reader. */
const MAX_CELL_SPAN = 64;

/**
 * A Word-model cell's definition in its row (RTF \clmgf/\clmrg, \clvmgf/\clvmrg, \cellxN; DOC
 * sprmTDefTable's edges and TC80 flags).
 */
export interface CellDef {
  /** Its right edge (twips). */
  right?: number;
  /** Merged into the cell on its left. */
  mergedLeft?: boolean;
  /** Merged into the cell above. */
  mergedUp?: boolean;
}

/** A row as read: its cells and their definitions, index for index. */
export interface GridRow<T> {
  cells: T[];
  defs: CellDef[];
}

/** Rows on one column grid: a cell spans the column lines its right edge passes, merged cells repeat. */
export function gridRows<T>(rows: GridRow<T>[], text: (cell: T) => Inline[]): Inline[][][] {
  const column = columnIndex(rows.flatMap((r) => r.defs.map((d) => d.right ?? Number.NaN)));
  const out: Inline[][][] = [];
  let above: Inline[][] = [];
  for (const row of rows) {
    const line: Inline[][] = [];
    let left = -1;
    row.cells.forEach((cell, i) => {
      const def: CellDef = row.defs[i] ?? {};
      const right = def.right !== undefined ? column.get(def.right) : undefined;
      const span = right !== undefined && right > left ? Math.min(MAX_CELL_SPAN, right - left) : 1;
      left = right !== undefined && right > left ? right : left + 1;
      const value = def.mergedUp
        ? (above[line.length] ?? [])
        : def.mergedLeft && line.length
          ? line[line.length - 1]!
          : text(cell);
      for (let k = 0; k < span; k++) line.push(value);
    });
    out.push(line);
    above = line;
  }
  return out;
}

/** Each right edge's column line on the table's grid (edges within SAME_EDGE_TWIPS share one). */
function columnIndex(edges: number[]): Map<number, number> {
  const sorted = [...new Set(edges.filter((e) => Number.isFinite(e)))].sort((a, b) => a - b);
  const index = new Map<number, number>();
  let line = -1;
  let lineStart = Number.NEGATIVE_INFINITY;
  for (const edge of sorted) {
    if (edge - lineStart > SAME_EDGE_TWIPS) {
      line++;
      lineStart = edge;
    }
    index.set(edge, line);
  }
  return index;
}
