import { buildLines, linesWithGaps, type TextItem } from '../../src/readers/pdf/layout';
import { seeded } from '../seeded-random';

const WORDS = ['Item', 'total', '12.50', '—', '(', ')', ' ', '', 'ﺍﻟﻌﺮﺑﻴﺔ', 'نص', '42', 'x', '*', 'Region'];

/** A page of generated runs: rows of words at uneven gaps, some drawn out of order, space runs, right-to-left words and raised marks. */
function page(random: () => number): TextItem[] {
  const items: TextItem[] = [];
  let y = 700;
  for (let row = 0; row < 12; row++) {
    y -= 8 + Math.floor(random() * 10);
    let x = 40 + random() * 30;
    const runs: TextItem[] = [];
    for (let k = 0; k < 1 + Math.floor(random() * 6); k++) {
      const text = WORDS[Math.floor(random() * WORDS.length)]!;
      const size = random() < 0.2 ? 6 : 10;
      const width = Math.max(0, text.length * size * 0.5);
      const raised = random() < 0.1 ? 3 : 0;
      runs.push({ text, x, y: y + raised, width, size, bold: false, rtl: /[\u0600-\u06ff\ufe70-\ufeff]/.test(text) });
      x += width + random() * 40;
    }
    if (random() < 0.2) runs.reverse();
    items.push(...runs);
  }
  return items;
}

describe('Lines with gaps counted without building the lines', () => {
  it('When pages of generated runs are read, then linesWithGaps gives the count of built lines that have gaps', () => {
    const random = seeded(22);
    for (let n = 0; n < 300; n++) {
      const items = page(random);
      const built = buildLines(items, 1, 792).filter((l) => l.gaps > 0).length;
      expect([n, linesWithGaps(items, Infinity)]).toEqual([n, built]);
      expect([n, linesWithGaps(items, 2)]).toEqual([n, Math.min(built, 2)]);
    }
  });
});
