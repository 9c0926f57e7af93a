import { renderMarkdown } from '../../src/writers/markdown';
import { buildLines, type TextItem } from '../../src/readers/pdf/layout';
import { linesToBlocks } from '../../src/readers/pdf/blocks';

/** Lines of a page as poppler gives them: one item per text run, y growing upwards. */
function page(runs: Array<[x: number, y: number, text: string]>): TextItem[] {
  return runs.map(([x, y, text]) => ({ text, x, y, width: text.length * 5, size: 10, bold: false, font: 'Serif' }));
}

describe('PDF lines to blocks', () => {
  it.each([
    ['a supplementary private use area', 0x100080],
    ['no assigned character', 0x900b0],
  ])('When list markers are symbol glyphs mapped to %s, then the lines are list items', (_, code) => {
    const marker = String.fromCodePoint(code);
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

describe('PDF paragraphs set with neither indent nor space between them', () => {
  it('When a line ends a sentence where the next line’s first word would have fitted, then the next line opens a paragraph', () => {
    const items = page([
      [72, 700, 'The pumps were serviced in March and every valve on the east loop was'],
      [72, 686, 'checked for leaks.'],
      [72, 672, 'The new meters arrive in May and will be fitted by the same crew over'],
      [72, 658, 'two days.'],
    ]);
    const markdown = renderMarkdown(linesToBlocks(buildLines(items, 1, 842)));
    expect(markdown).toBe(
      'The pumps were serviced in March and every valve on the east loop was checked for leaks.\n\n' +
        'The new meters arrive in May and will be fitted by the same crew over two days.\n',
    );
  });

  it('When a line ends a sentence because the next word would not have fitted, then the paragraph goes on', () => {
    const items = page([
      [72, 700, 'The pumps were serviced in March and every valve was checked again.'],
      [72, 686, 'Afterwards the crew wrote a short report for the office and the'],
      [72, 672, 'board.'],
    ]);
    const markdown = renderMarkdown(linesToBlocks(buildLines(items, 1, 842)));
    expect(markdown).toBe(
      'The pumps were serviced in March and every valve was checked again. Afterwards the crew wrote a short report for the office and the board.\n',
    );
  });
});

describe('PDF tables under a numbered section heading', () => {
  it('When TeX sets a numbered section heading 1 em before its title over a tabular, then the heading is no row of the table', () => {
    const item = (text: string, x: number, y: number, width: number, size: number): TextItem => ({
      text,
      x,
      y,
      width,
      size,
      bold: size > 10,
      font: size > 10 ? 'CMBX12 bold' : 'CMR10',
    });
    const items = [
      item('2', 72, 582, 8, 14),
      item('Data', 96, 582, 34, 14),
      ...[
        ['Name', 'Value', 'Note'],
        ['Alpha', '12', 'first'],
        ['Beta', '7', 'second'],
      ].flatMap((row, r) => row.map((text, c) => item(text, [78, 116, 152][c]!, 562 - r * 11.5, text.length * 5, 10))),
    ];
    const markdown = renderMarkdown(linesToBlocks(buildLines(items, 1, 842)));
    expect(markdown).toBe(
      '# 2 Data\n\n| Name | Value | Note |\n| --- | --- | --- |\n| Alpha | 12 | first |\n| Beta | 7 | second |\n',
    );
  });
});

describe('PDF footnote marks and displayed formulas', () => {
  it('When a sentence ends with a raised footnote mark and the next line would have fitted, then the next line opens a paragraph', () => {
    const items = page([
      [72, 700, 'The trust looks after eleven kilometres of river bank and three meadows.'],
      [72, 686, 'It was founded in spring.'],
      [72, 672, 'Most of the work was done by volunteers, who gave six thousand hours'],
      [72, 658, 'between them.'],
    ]);
    // The mark: smaller, set right after the period and above the line's baseline.
    items.splice(2, 0, { text: '1', x: 72 + 25 * 5, y: 690, width: 3, size: 7, bold: false, font: 'Serif' });
    const markdown = renderMarkdown(linesToBlocks(buildLines(items, 1, 842)));
    expect(markdown).toBe(
      'The trust looks after eleven kilometres of river bank and three meadows. It was founded in spring.1\n\n' +
        'Most of the work was done by volunteers, who gave six thousand hours between them.\n',
    );
  });

  it('When a displayed formula is set in TeX math faces with a large operator, then its lines are no headings', () => {
    const math = (x: number, y: number, text: string, size: number, font: string): TextItem => ({
      text,
      x,
      y,
      width: text.length * size * 0.5,
      size,
      bold: false,
      font,
    });
    const items = [
      ...page([[72, 700, 'Then the number of admissible paths is']]),
      math(150, 670, 'A = N(s, t) −', 14, 'LMMathItalic10 italic'),
      math(240, 668, 'X', 14, 'LMMathExtension10'),
      math(262, 670, 'N(s, bi) Ai, (1)', 14, 'LMMathItalic10 italic'),
      ...page([[72, 640, 'where Ai counts the admissible paths from bi to t.']]),
    ];
    const blocks = linesToBlocks(buildLines(items, 1, 842));
    expect(blocks.filter((b) => b.type === 'heading')).toEqual([]);
  });
});

describe('PDF pull quotes', () => {
  it('When a quoted sentence is set large between paragraphs over two lines, then it is a paragraph, not headings', () => {
    const quote = (y: number, text: string): TextItem => ({
      text,
      x: 72,
      y,
      width: text.length * 7,
      size: 14,
      bold: false,
      font: 'Serif italic',
      italic: true,
    });
    const items = [
      ...page([[72, 700, 'Shops on both banks say trade has picked up since the bridge opened.']]),
      quote(670, '“It feels like the village has been stitched back'),
      quote(652, 'together.”'),
      ...page([[72, 625, 'The bakery reported its busiest Saturday since the spring.']]),
    ];
    const markdown = renderMarkdown(linesToBlocks(buildLines(items, 1, 842)));
    expect(markdown).toBe(
      'Shops on both banks say trade has picked up since the bridge opened.\n\n' +
        '*“It feels like the village has been stitched back together.”*\n\n' +
        'The bakery reported its busiest Saturday since the spring.\n',
    );
  });
});
