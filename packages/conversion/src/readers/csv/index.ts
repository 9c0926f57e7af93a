import Papa from 'papaparse';
import type { Reader } from '../reader';
import { decodeText, normaliseNewlines } from '../shared/text-decoding';
import { text as plain } from '../../document/model';

const DELIMITERS = [',', ';', '\t', '|'];

/** CSV: one GFM table, delimiter sniffed, quoted fields kept whole, ragged rows padded. */
export const csvReader: Reader = {
  name: 'csv',
  async read(input) {
    const text = normaliseNewlines(decodeText(input)).trim();
    if (!text) return { blocks: [], metadata: { title: '', author: '', page_count: 1 } };
    const parsed = Papa.parse<string[]>(text, { delimiter: sniffDelimiter(text), skipEmptyLines: 'greedy' });
    const rows = parsed.data.map((row) => row.map((cell) => [plain(cell.trim())]));
    return { blocks: [{ type: 'table', rows }], metadata: { title: '', author: '', page_count: 1 } };
  },
};

/** Picks the delimiter that splits the first lines into the most consistent, widest rows. */
export function sniffDelimiter(text: string): string {
  const sample = text.split('\n').slice(0, 20).join('\n');
  let best = ',';
  let bestScore = -1;
  for (const delimiter of DELIMITERS) {
    const { data } = Papa.parse<string[]>(sample, { delimiter, skipEmptyLines: 'greedy' });
    if (data.length === 0) continue;
    const widths = data.map((r) => r.length);
    const width = widths[0] ?? 1;
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
