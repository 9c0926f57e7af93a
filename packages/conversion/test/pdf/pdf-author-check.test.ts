import { isAuthorLine } from '../../src/readers/pdf/title-block';
import { renderMarkdown } from '../../src/writers/markdown';
import { buildLines, type TextItem } from '../../src/readers/pdf/layout';
import { linesToBlocks } from '../../src/readers/pdf/blocks';

// The real test, watched: which lines it is asked about.
jest.mock('../../src/readers/pdf/title-block', () => {
  const actual = jest.requireActual<typeof import('../../src/readers/pdf/title-block')>(
    '../../src/readers/pdf/title-block',
  );
  return { ...actual, isAuthorLine: jest.fn(actual.isAuthorLine) };
});

const run = (text: string, x: number, y: number, size: number, bold = false): TextItem => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  bold,
  font: bold ? 'Serif bold' : 'Serif',
});

describe('Author lines told only among heading candidates', () => {
  it('When a page has a title, marked author names and body text, then only the lines set like headings are tried as author lines', () => {
    const authorLine = jest.mocked(isAuthorLine);
    const items = [
      run('A Study of Quiet Machines', 72, 760, 20),
      run('Alice Smith∗ and Bob Jones†', 72, 730, 14),
      run('The body of the paper starts here and runs on for a while in plain type.', 72, 700, 10),
      run('It goes on in the same type, a second line of the same paragraph,', 72, 686, 10),
      run('And ends on a third line of plain running text.', 72, 672, 10),
    ];
    const markdown = renderMarkdown(linesToBlocks(buildLines(items, 1, 842)));
    expect(markdown).toBe(
      '# A Study of Quiet Machines\n\nAlice Smith∗ and Bob Jones†\n\n' +
        'The body of the paper starts here and runs on for a while in plain type. It goes on in the same type, ' +
        'a second line of the same paragraph, And ends on a third line of plain running text.\n',
    );
    // The title and the names are set large (heading candidates); the three body lines are not tried.
    expect(authorLine.mock.calls.map(([line]) => line.text)).toEqual([
      'A Study of Quiet Machines',
      'Alice Smith∗ and Bob Jones†',
    ]);
  });
});
