import { renderMarkdown } from '../../src/markdown/writer';
import { buildLines, type TextItem } from '../../src/converters/pdf/layout';
import { linesToBlocks } from '../../src/converters/pdf/blocks';

/** Lines of a page as poppler gives them: one item per text run, y growing upwards. */
function page(runs: Array<[x: number, y: number, text: string]>): TextItem[] {
  return runs.map(([x, y, text]) => ({ text, x, y, width: text.length * 5, size: 10, bold: false, font: 'Serif' }));
}

describe('PDF lines to blocks', () => {
  it('When list markers are glyphs from a supplementary private use area, then the lines are list items', () => {
    const marker = String.fromCodePoint(0x100080);
    const items = page([
      [72, 700, 'The following topics are covered:'],
      [72, 686, marker],
      [86, 686, 'Security fundamentals'],
      [72, 672, marker],
      [86, 672, 'Current state of security'],
    ]);
    const markdown = renderMarkdown(linesToBlocks(buildLines(items, 1, 842)));
    expect(markdown).toBe(
      'The following topics are covered:\n\n- Security fundamentals\n- Current state of security\n',
    );
  });
});
