import Papa from 'papaparse';
import type { Reader } from '../reader';
import { decodeText, normaliseNewlines } from '../shared/text-decoding';
import { text as plain } from '../../document/model';

const DELIMITERS = [',', ';', '\t', '|'];
/** The first line Excel reads as the delimiter's name (and writes when asked to): `sep=;`. */
const SEPARATOR_HINT = /^"?sep=(.)"?[ \t]*(?:\n|$)/i;

/** CSV: one GFM table, delimiter sniffed, quoted fields kept whole, ragged rows padded. */
export const csvReader: Reader = {
  name: 'csv',
  async read(input) {
    const whole = normaliseNewlines(decodeText(input)).trim();
    // Excel's `sep=;` first line names the delimiter; it is no row of the table.
    const hint = SEPARATOR_HINT.exec(whole);
    const text = hint ? whole.slice(hint[0].length).trim() : whole;
    if (!text) return { blocks: [], metadata: { title: '', author: '', page_count: 1 } };
    const delimiter = hint?.[1] ?? sniffDelimiter(text);
    const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: 'greedy' });
    const rows = withoutEmptyEdgeColumns(parsed.data.map((row) => row.map((cell) => cell.trim()))).map((row) =>
      row.map((cell) => [plain(cell)]),
    );
    return { blocks: [{ type: 'table', rows }], metadata: { title: '', author: '', page_count: 1 } };
  },
};

/**
 * Picks the delimiter that splits the first lines into the most consistent, widest rows. The rows'
 * commonest width counts, not the first row's: an export's title lines above the header
 * ("Account statement", "Created 01.03.2026") are one field whatever the delimiter.
 */
export function sniffDelimiter(text: string): string {
  const sample = text.split('\n').slice(0, 20).join('\n');
  let best = ',';
  let bestScore = -1;
  for (const delimiter of DELIMITERS) {
    const { data } = Papa.parse<string[]>(sample, { delimiter, skipEmptyLines: 'greedy' });
    if (data.length === 0) continue;
    const widths = data.map((r) => r.length);
    const width = commonestWidth(widths);
    if (width < 2) continue;
    const consistent = widths.filter((w) => w === width).length / widths.length;
    const score = consistent * 10 + Math.min(width, 50) / 50;
    if (score > bestScore) {
      bestScore = score;
      best = delimiter;
    }
  }
  return best;
}

/** The width most rows share, among rows of two fields or more (the wider on a tie); 1 when none has two. */
function commonestWidth(widths: number[]): number {
  const counts = new Map<number, number>();
  for (const w of widths) if (w >= 2) counts.set(w, (counts.get(w) ?? 0) + 1);
  let best = 1;
  let bestCount = 0;
  for (const [w, n] of counts)
    if (n > bestCount || (n === bestCount && w > best)) {
      best = w;
      bestCount = n;
    }
  return best;
}

/**
 * The rows without the columns left or right of every value (a delimiter ending each line, as many
 * exports write, or a leading empty column), as a sheet's empty edges are trimmed; an empty column
 * between values stays.
 */
function withoutEmptyEdgeColumns(rows: string[][]): string[][] {
  let first = Infinity;
  let last = -1;
  for (const row of rows) {
    const start = row.findIndex((cell) => cell !== '');
    if (start < 0) continue;
    let end = row.length - 1;
    while (row[end] === '') end--;
    if (start < first) first = start;
    if (end > last) last = end;
  }
  if (last < 0 || (first === 0 && rows.every((row) => row.length <= last + 1))) return rows;
  return rows.map((row) => row.slice(first, last + 1));
}
