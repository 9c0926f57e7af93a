import type { OcrWord } from './engine';

/**
 * Enhanced mode's table finder for OCR output: words grouped into rows by their vertical
 * centres, cells split at wide horizontal gaps; when at least 3 rows share the same 2+ column
 * starts (within a tolerance), those rows are a table. Returns the rows of the table, or none.
 */
export function tableFromWords(words: OcrWord[]): string[][] | undefined {
  if (words.length < 6) return undefined;
  const height = median(words.map((w) => w.y1 - w.y0)) || 10;
  const rows: OcrWord[][] = [];
  for (const w of [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2)) {
    const mid = (w.y0 + w.y1) / 2;
    const row = rows.find((r) => Math.abs((r[0]!.y0 + r[0]!.y1) / 2 - mid) < height * 0.6);
    if (row) row.push(w);
    else rows.push([w]);
  }
  const cellsOf = (row: OcrWord[]) => {
    const sorted = [...row].sort((a, b) => a.x0 - b.x0);
    const cells: Array<{ x: number; text: string; end: number }> = [];
    for (const w of sorted) {
      const last = cells[cells.length - 1];
      if (last && w.x0 - last.end < height * 1.2) {
        last.text += ` ${w.text}`;
        last.end = w.x1;
      } else cells.push({ x: w.x0, text: w.text, end: w.x1 });
    }
    return cells;
  };
  const split = rows.map(cellsOf);
  const multi = split.filter((c) => c.length >= 2);
  if (multi.length < 3) return undefined;
  // Column starts: clusters of cell left edges that recur in most multi-cell rows.
  const starts = clusters(
    multi.flatMap((r) => r.map((c) => c.x)),
    height * 2,
  ).filter((s) => s.count >= multi.length * 0.6);
  if (starts.length < 2) return undefined;
  const columns = starts.map((s) => s.at).sort((a, b) => a - b);
  const table = multi.map((cells) => {
    const out = columns.map(() => '');
    for (const c of cells) {
      let k = 0;
      columns.forEach((x, i) => {
        if (c.x >= x - height * 2) k = i;
      });
      out[k] = out[k] ? `${out[k]} ${c.text}` : c.text;
    }
    return out;
  });
  return table;
}

function clusters(values: number[], tolerance: number): Array<{ at: number; count: number }> {
  const out: Array<{ at: number; count: number }> = [];
  for (const v of [...values].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && v - last.at <= tolerance) last.count++;
    else out.push({ at: v, count: 1 });
  }
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
