import type { Block, Inline } from '../../src/markdown/model';
import { renderMarkdown } from '../../src/markdown/writer';

const t = (text: string): Inline => ({ type: 'text', text });
const paragraph = (...text: Inline[]): Block => ({ type: 'paragraph', text });

describe('Markdown writer', () => {
  it('When emphasis nests in either order or repeats itself, then each marker opens once and spaces stay outside', () => {
    const md = renderMarkdown([
      paragraph(
        { type: 'emphasis', children: [t('a '), { type: 'strong', children: [t('b')] }] },
        t(' '),
        {
          type: 'strong',
          children: [t('c '), { type: 'strong', children: [t('d')] }, { type: 'emphasis', children: [t('e')] }, t(' ')],
        },
        { type: 'strike', children: [t('f')] },
      ),
    ]);
    expect(md).toBe('*a **b*** **c d*e*** ~~f~~\n');
  });

  it('When text holds Markdown syntax, then it is escaped and line starts cannot become blocks', () => {
    const md = renderMarkdown([paragraph(t('1*2 [x] snake_case _y_'), { type: 'break' }, t('- not a list'))]);
    expect(md).toBe('1\\*2 \\[x\\] snake_case \\_y\\_\\\n\\- not a list\n');
  });

  it('When a link holds a link, code, an image and math, then links do not nest and each node has its syntax', () => {
    const md = renderMarkdown([
      paragraph(
        {
          type: 'link',
          url: 'https://a.test/x y',
          children: [t('out '), { type: 'link', url: 'https://b.test', children: [t('in')] }],
        },
        t(' '),
        { type: 'code', text: 'a`b' },
        t(' '),
        { type: 'image', alt: 'Logo' },
        t(' '),
        { type: 'math', tex: 'x^2' },
      ),
    ]);
    expect(md).toBe('[out in](<https://a.test/x y>) ``a`b`` ![Logo](#) $x^2$\n');
  });

  it('When notes are referenced, then references and the notes block use the same ids and further note paragraphs are indented', () => {
    const md = renderMarkdown([
      paragraph(t('Claim'), { type: 'noteRef', id: '1' }, t('.')),
      {
        type: 'notes',
        notes: [
          {
            id: '1',
            blocks: [paragraph(t('Source '), { type: 'emphasis', children: [t('one')] }), paragraph(t('More.'))],
          },
          { id: '2', blocks: [paragraph(t('Two'))] },
        ],
      },
    ]);
    expect(md).toBe('Claim[^1].\n\n[^1]: Source *one*\n\n    More.\n\n[^2]: Two\n');
  });

  it('When a table cell holds a break and a pipe, then the cell stays on one line with the pipe escaped', () => {
    const md = renderMarkdown([
      {
        type: 'table',
        rows: [
          [[t('A')], [t('B')]],
          [[t('x'), { type: 'break' }, t('y')], [t('a|b')]],
        ],
        headerRows: 1,
      },
    ]);
    expect(md).toBe('| A | B |\n| --- | --- |\n| x y | a\\|b |\n');
  });

  it('When string cells hold pipes, line breaks or runs of spaces and rows are ragged, then each cell is one trimmed line', () => {
    const md = renderMarkdown([
      {
        type: 'table',
        rows: [
          ['a|b', ' lead', 'tail ', 'two  spaces'],
          ['nb\u00a0sp', 'line\nbreak', 'tab\there'],
          ['plain words', '', '|'],
        ],
        headerRows: 0,
      },
    ]);
    expect(md).toBe(
      '|  |  |  |  |\n| --- | --- | --- | --- |\n| a\\|b | lead | tail | two spaces |\n| nb sp | line break | tab here |  |\n| plain words |  | \\| |  |\n',
    );
  });

  it('When each text holds one Markdown character, then each is escaped and plain text is kept', () => {
    const words = ['a\\b', 'c`d', 'e*f', 'g[h', 'i]j', 'k_', '_l', 'm<n', 'plain 4.5'];
    const md = renderMarkdown([paragraph(...words.flatMap((w) => [t(w), t(' ')]))]);
    expect(md).toBe('a\\\\b c\\`d e\\*f g\\[h i\\]j k\\_ \\_l m&lt;n plain 4.5\n');
  });

  it('When a reader still gives inline Markdown as a string, then it is written as it is', () => {
    expect(renderMarkdown([{ type: 'paragraph', text: 'already **bold**' }])).toBe('already **bold**\n');
  });
});
