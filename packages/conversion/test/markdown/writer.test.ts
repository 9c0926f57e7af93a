import type { Block, Inline } from '../../src/document/model';
import { blockAlone, renderMarkdown, writeBlocks } from '../../src/writers/markdown';
import { optimizeTokens } from '../../src/filters/optimize-tokens';

/** What convert.ts writes for `optimize_tokens`: the model through the filter, tables compact. */
const optimized = (blocks: Block[]): string => renderMarkdown(optimizeTokens(blocks), { compactTables: true });

const t = (text: string): Inline => ({ type: 'text', text });
const paragraph = (...text: Inline[]): Block => ({ type: 'paragraph', text });

describe('Markdown writer', () => {
  it('When text spells accented letters as a letter and combining marks, then the Markdown has them composed (NFC)', () => {
    const decomposed = 'Tie\u0302\u0301ng Vie\u0323\u0302t, cre\u0300me bru\u0302le\u0301e, \u212bngstro\u0308m';
    expect(renderMarkdown([paragraph(t(decomposed))])).toBe('Tiếng Việt, crème brûlée, Ångström\n');
    expect(writeBlocks([paragraph(t(decomposed))])).toEqual(['Tiếng Việt, crème brûlée, Ångström']);
  });

  it('When a letter carries a long run of combining marks (hostile text), then that run is left as it is, the rest composed', () => {
    // Ordering marks costs time in the square of the run's length: 100,000 of them took 35 s.
    const zalgo = `a${'\u0301\u0316'.repeat(100)}`;
    expect(renderMarkdown([paragraph(t(`e\u0301 ${zalgo}`))])).toBe(`é ${zalgo}\n`);
  });

  it('When a code run comes as neighbouring code nodes (a code font whose colour changes mid-word), then it is one code span', () => {
    const text: Inline[] = [
      t('The value '),
      { type: 'code', text: '13579BDF' },
      { type: 'code', text: 'H' },
      t(' is stored as'),
      { type: 'code', text: ' DF' },
      { type: 'code', text: 'H ' },
      { type: 'code', text: '9B' },
      { type: 'code', text: 'H' },
      t('.'),
    ];
    expect(renderMarkdown([paragraph(...text)])).toBe('The value `13579BDFH` is stored as` DFH 9BH`.\n');
  });

  it('When a node that writes nothing stands between a `<` and a node opening with `!`, then the `<` is still escaped', () => {
    // The writer joins the nodes' pieces once at the end; an empty piece must not hide the `<` before it.
    const text: Inline[] = [
      { type: 'text', text: 'a <' },
      { type: 'code', text: '' },
      { type: 'image', alt: 'map' },
    ];
    expect(renderMarkdown([{ type: 'paragraph', text }])).toBe('a &lt;![map](#)\n');
  });

  it('When a file numbers a list outside what CommonMark counts (negative, past 999,999,999, not whole), then the list counts from 1; a start inside stays', () => {
    const list = (start: number): Block => ({
      type: 'list',
      ordered: true,
      start,
      items: [{ text: [t('a')] }, { text: [t('b')] }],
    });
    expect(renderMarkdown([list(-3)])).toBe('1. a\n2. b\n');
    expect(renderMarkdown([list(999_999_999)])).toBe('1. a\n2. b\n');
    expect(renderMarkdown([list(2.5)])).toBe('1. a\n2. b\n');
    expect(renderMarkdown([list(0)])).toBe('0. a\n1. b\n');
    expect(renderMarkdown([list(999_999_998)])).toBe('999999998. a\n999999999. b\n');
  });

  it('When table rows differ in length or there is no header row, then every row is as wide as the widest, filled with empty cells', () => {
    const ragged: Block = { type: 'table', rows: [[[t('a')]], [[t('b')], [t('c')], [t('d')]], [[t('e')], [t('f')]]] };
    expect(renderMarkdown([ragged])).toBe('| a |  |  |\n| --- | --- | --- |\n| b | c | d |\n| e | f |  |\n');
    expect(renderMarkdown([{ ...ragged, headerRows: 0 }])).toBe(
      '|  |  |  |\n| --- | --- | --- |\n| a |  |  |\n| b | c | d |\n| e | f |  |\n',
    );
    expect(renderMarkdown([ragged], { compactTables: true })).toBe('|a|||\n|-|-|-|\n|b|c|d|\n|e|f||\n');
  });

  it('When a top-level raw block holds runs of blank lines, then they pass through as written; other blocks keep one', () => {
    const md = renderMarkdown([
      { type: 'raw', markdown: 'plain text\n\n\n\nafter four line ends\n' },
      { type: 'code', text: 'a\n\n\n\nb' },
    ]);
    expect(md).toBe('plain text\n\n\n\nafter four line ends\n\n```\na\n\nb\n```\n');
  });

  it('When each block is written once and taken alone, then it is the block written as a document of its own, up to its ends', () => {
    const blocks: Block[] = [
      { type: 'raw', markdown: '  plain text\n\n\n\nafter four line ends\n' },
      { type: 'code', text: '\n\na\n\n\n\nb\n\n\n' },
      { type: 'quote', blocks: [paragraph(t('one')), { type: 'code', text: 'x\n\n\n\ny' }] },
      paragraph(t('   ')),
      { type: 'raw', markdown: '   ' },
      { type: 'list', ordered: false, items: [{ text: [t('a')], children: [{ type: 'code', text: 'c\n\n\nd' }] }] },
      { type: 'heading', level: 2, text: [t(' Title ')] },
    ];
    const written = writeBlocks(blocks);
    blocks.forEach((block, i) => {
      expect([i, blockAlone(block, written[i]!).trim()]).toEqual([i, renderMarkdown([block]).trim()]);
    });
  });

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

  it('When the text of a link starts or ends with white space, then the space stays beside the link instead of being lost', () => {
    const md = renderMarkdown([
      paragraph(t('See'), { type: 'link', url: '/a', children: [t(' the link ')] }, t('now'), {
        type: 'link',
        url: '/b',
        children: [t('b'), { type: 'break' }],
      }),
    ]);
    expect(md).toBe('See [the link](/a) now[b](/b)\n');
  });

  it('When neighbouring nodes have the same formatting, then they share one pair of markers', () => {
    const strong = (...children: Inline[]): Inline => ({ type: 'strong', children });
    const md = renderMarkdown([
      paragraph(
        strong(t('bold ')),
        strong({ type: 'emphasis', children: [t('both')] }),
        strong(t(' again')),
        t(' '),
        strong(t('apart')),
      ),
    ]);
    expect(md).toBe('**bold *both* again** **apart**\n');
  });

  it('When a bold-italic run sits among italic runs (each run wrapped strong outermost), then the italic markers enclose the bold', () => {
    const em = (...children: Inline[]): Inline => ({ type: 'emphasis', children });
    const strong = (...children: Inline[]): Inline => ({ type: 'strong', children });
    const md = renderMarkdown([
      paragraph(em(t('Enter the ')), strong(em(t('Reading path'))), em(t(', then choose'))),
      paragraph(t('j'), em(t('um')), strong(em(t('ped'))), t(' over')),
    ]);
    expect(md).toBe('*Enter the **Reading path**, then choose*\n\nj*um**ped*** over\n');
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

  it('When text cells hold pipes, line breaks or runs of spaces and rows are ragged, then each cell is one trimmed line', () => {
    const md = renderMarkdown([
      {
        type: 'table',
        rows: [
          ['a|b', ' lead', 'tail ', 'two  spaces'],
          ['nb\u00a0sp', 'line\nbreak', 'tab\there'],
          ['plain words', '', '|'],
        ].map((row) => row.map((cell) => (cell ? [t(cell)] : []))),
        headerRows: 0,
      },
    ]);
    expect(md).toBe(
      '|  |  |  |  |\n| --- | --- | --- | --- |\n| a\\|b | lead | tail | two spaces |\n| nb sp | line break | tab here |  |\n| plain words |  | \\| |  |\n',
    );
  });

  it('When text holds a bracketed citation that opens no link, then it is written without backslashes', () => {
    expect(renderMarkdown([paragraph(t('Ducks swim.[11] Geese [a note], too.'))])).toBe(
      'Ducks swim.[11] Geese [a note], too.\n',
    );
  });

  it('When a bracket pair ends a text before a line end, a closing marker or another node, then it is judged by what follows', () => {
    const link = { type: 'link' as const, url: 'https://x.test', children: [t('go')] };
    expect(renderMarkdown([paragraph(t('ends with [a]'))])).toBe('ends with [a]\n');
    expect(renderMarkdown([paragraph({ type: 'strong', children: [t('see [1]')] }, t(' and [2]'), link)])).toBe(
      '**see [1]** and \\[2\\][go](https://x.test)\n',
    );
  });

  it('When bracketed text could be read as a link, reference, definition, footnote or task box, then it is escaped', () => {
    const cases: Array<[string, string]> = [
      ['[a](b) c', '\\[a\\](b) c\n'],
      ['[a][b] c', '\\[a\\][b] c\n'],
      ['[a]: http://x c', '\\[a\\]: http://x c\n'],
      ['[^1] c', '\\[^1\\] c\n'],
      ['[x] done', '\\[x\\] done\n'],
      ['[[a] b', '\\[[a] b\n'],
    ];
    for (const [text, md] of cases) expect(renderMarkdown([paragraph(t(text))])).toBe(md);
  });

  it('When each text holds one Markdown character, then each is escaped and plain text is kept', () => {
    // The brackets unpaired: neighbouring texts are escaped as one, and `g[h i]j` would render as itself.
    const words = ['a\\b', 'c`d', 'e*f', 'i]j', 'g[h', 'k_', '_l', 'm<n', 'plain 4.5'];
    const md = renderMarkdown([paragraph(...words.flatMap((w) => [t(w), t(' ')]))]);
    expect(md).toBe('a\\\\b c\\`d e\\*f i\\]j g\\[h k\\_ \\_l m&lt;n plain 4.5\n');
  });

  it('When text is raised or lowered, then it is written as <sup>/<sub> with escaped content, spaces outside and neighbours merged', () => {
    const sup = (...children: Inline[]): Inline => ({ type: 'superscript', children });
    const sub = (...children: Inline[]): Inline => ({ type: 'subscript', children });
    const md = renderMarkdown([
      paragraph(
        t('x'),
        sup(t('2')),
        t(' H'),
        sub(t('2')),
        t('O e'),
        sup(t('x'), sup(t('*'))),
        t(' a'),
        sup(t('1 ')),
        sup(t('st')),
        t('end'),
        { type: 'strong', children: [t('m')] },
        { type: 'strong', children: [sup(t('3'))] },
      ),
    ]);
    expect(md).toBe('x<sup>2</sup> H<sub>2</sub>O e<sup>x<sup>\\*</sup></sup> a<sup>1 st</sup>end**m<sup>3</sup>**\n');
  });

  it('When a raised part holds only a note reference, then the reference is written alone; in a table cell the tags stay', () => {
    const md = renderMarkdown([
      paragraph(t('Claim'), { type: 'superscript', children: [{ type: 'noteRef', id: '1' }] }, t('.')),
      {
        type: 'table',
        rows: [[[t('m')]], [[t('m'), { type: 'superscript', children: [t('2')] }]]],
        headerRows: 1,
      },
      { type: 'notes', notes: [{ id: '1', blocks: [paragraph(t('Note'))] }] },
    ]);
    expect(md).toBe('Claim[^1].\n\n| m |\n| --- |\n| m<sup>2</sup> |\n\n[^1]: Note\n');
  });

  it('When a source already holds Markdown (a raw node), then it is written as it is', () => {
    expect(
      renderMarkdown([{ type: 'paragraph', text: [t('plain '), { type: 'raw', markdown: 'already **bold**' }] }]),
    ).toBe('plain already **bold**\n');
  });
});

describe('Markdown writer, optimizeTokens', () => {
  const strong = (...children: Inline[]): Inline => ({ type: 'strong', children });

  it('When a table has a bold header, padding and an escaped pipe, then rows are compact and the header bold is dropped', () => {
    const table: Block = {
      type: 'table',
      rows: [
        [[strong(t('Name'))], [t('Value '), strong(t('now'))]],
        [[t('a|b')], [t('1  2')]],
      ],
    };
    expect(optimized([table])).toBe('|Name|Value **now**|\n|-|-|\n|a\\|b|1 2|\n');
    expect(renderMarkdown([table])).toBe('| **Name** | Value **now** |\n| --- | --- |\n| a\\|b | 1 2 |\n');
  });

  it('When a heading is wholly bold, then the bold is dropped; partly bold headings and paragraphs keep it', () => {
    const md = optimized([
      { type: 'heading', level: 2, text: [t(' '), strong(t('All bold')), t(' ')] },
      { type: 'heading', level: 2, text: [strong(t('Part')), t(' plain')] },
      paragraph(strong(t('Bold paragraph'))),
    ]);
    expect(md).toBe('## All bold\n\n## **Part** plain\n\n**Bold paragraph**\n');
  });

  it('When text has runs of spaces, then they become one, but not inside code spans or code blocks', () => {
    const md = optimized([
      paragraph(t('a    b  '), strong(t('c')), t(' '), { type: 'code', text: 'x   y' }),
      { type: 'code', text: 'k    v' },
    ]);
    expect(md).toBe('a b **c** `x   y`\n\n```\nk    v\n```\n');
  });

  it('When a short paragraph repeats 3 times, then it is kept once; repeated code lines, list items and table cells stay', () => {
    const footer = (): Block => paragraph(t('Company confidential'));
    const twice = (): Block => paragraph(t('Said twice'));
    const md = optimized([
      footer(),
      twice(),
      { type: 'code', text: 'same\nsame\nsame' },
      footer(),
      { type: 'list', ordered: false, items: [{ text: [t('item')] }, { text: [t('item')] }, { text: [t('item')] }] },
      { type: 'quote', blocks: [footer()] },
      twice(),
      { type: 'table', rows: [[[t('h')]], [[t('cell')]], [[t('cell')]], [[t('cell')]]] },
    ]);
    expect(md).toBe(
      'Company confidential\n\nSaid twice\n\n```\nsame\nsame\nsame\n```\n\n- item\n- item\n- item\n\nSaid twice\n\n|h|\n|-|\n|cell|\n|cell|\n|cell|\n',
    );
  });

  it('When a paragraph starts and ends with a pipe, then it is not taken for a table', () => {
    expect(optimized([paragraph(t('| not  a table |'))])).toBe('| not a table |\n');
  });

  it('When bold words are separated by a space only, then they share one pair of markers', () => {
    const md = optimized([paragraph(strong(t('Air')), t(' '), strong(t('India')), t(' and '), strong(t('x')))]);
    expect(md).toBe('**Air India** and **x**\n');
  });

  it('When text is raised or lowered, then <sup>/<sub> stay (GFM has no ^ and ~x~ is strike-through there)', () => {
    const md = optimized([
      paragraph(
        t('x'),
        { type: 'superscript', children: [t('2')] },
        t(' H'),
        { type: 'subscript', children: [t('2')] },
        t('O'),
      ),
    ]);
    expect(md).toBe('x<sup>2</sup> H<sub>2</sub>O\n');
  });

  it('When the model holds raw Markdown, then the string pass optimises it', () => {
    const md = optimized([{ type: 'raw', markdown: '| x  |  y |\n| --- | --- |\n\n<!-- note -->' }]);
    expect(md).toBe('|x|y|\n|-|-|\n');
  });
});
