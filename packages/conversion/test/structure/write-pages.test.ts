import { text as textNode, type Block } from '../../src/document/model';
import { groupByPage, writePages, type PageBlocks } from '../../src/writers/pages';

/** A page of one paragraph block whose written text is `text`, joined as the join callback returns it. */
function page(number: number, text: string): PageBlocks {
  const block: Block = { type: 'paragraph', text: [textNode(text)] };
  return { number, blocks: text ? [block] : [], written: text ? [text] : [] };
}

describe('writePages (E1: the document is the join of its pages)', () => {
  it('When one page is written, then the document is its Markdown and one line break', () => {
    const { pages, markdown } = writePages([page(1, 'Alpha\n\nBeta')], (_, written) => `${written.join('\n\n')}\n`);
    expect(pages).toEqual([{ number: 1, markdown: 'Alpha\n\nBeta' }]);
    expect(markdown).toBe('Alpha\n\nBeta\n');
  });

  it('When the one page’s join has white space at its edges, then the document is its trimmed Markdown and one line break', () => {
    const { pages, markdown } = writePages([page(1, 'Alpha')], () => '\n  Alpha \n\n');
    expect(pages).toEqual([{ number: 1, markdown: 'Alpha' }]);
    expect(markdown).toBe('Alpha\n');
  });

  it('When pages are written and one is empty, then the document joins the others with a blank line', () => {
    const { pages, markdown } = writePages(
      [page(1, 'One'), page(2, ''), page(3, 'Three')],
      (_, written) => `${written.join('\n\n')}\n`,
    );
    expect(pages).toEqual([
      { number: 1, markdown: 'One' },
      { number: 2, markdown: '' },
      { number: 3, markdown: 'Three' },
    ]);
    expect(markdown).toBe('One\n\nThree\n');
  });

  it('When no page has any text, then the document is empty', () => {
    expect(writePages([page(1, '')], () => '').markdown).toBe('');
  });
});

describe('groupByPage (E1: each block on the page it comes from)', () => {
  const block = (name: string, page?: number): Block => ({ type: 'paragraph', text: [textNode(name)], page });
  const grouped = (blocks: Block[], numbers?: number[]) =>
    groupByPage(
      blocks,
      blocks.map((_, i) => `w${i}`),
      numbers,
    ).map((p) => ({ number: p.number, written: p.written }));

  it('When every block is on one page, then that page holds them all and every other page read is there empty, in order', () => {
    expect(grouped([block('a', 2), block('b'), block('c', 2)], [3, 2, 1])).toEqual([
      { number: 1, written: [] },
      { number: 2, written: ['w0', 'w1', 'w2'] },
      { number: 3, written: [] },
    ]);
  });

  it('When no page list is given and the first block has no page, then it is on page 1, and a page a later block names is its own', () => {
    expect(grouped([block('a'), block('b', 3)])).toEqual([
      { number: 1, written: ['w0'] },
      { number: 3, written: ['w1'] },
    ]);
    expect(grouped([block('a'), block('b')])).toEqual([{ number: 1, written: ['w0', 'w1'] }]);
  });

  it('When no block has a page and no page list is given (HTML, text), then page 1 holds them, and is there with no block too', () => {
    expect(grouped([block('a'), block('b'), block('c')])).toEqual([{ number: 1, written: ['w0', 'w1', 'w2'] }]);
    expect(grouped([])).toEqual([{ number: 1, written: [] }]);
    expect(grouped([], [])).toEqual([{ number: 1, written: [] }]);
  });

  it('When blocks before any page are followed by blocks of the first page read, then all are on that page', () => {
    expect(grouped([block('a'), block('b', 4)], [4, 5])).toEqual([
      { number: 4, written: ['w0', 'w1'] },
      { number: 5, written: [] },
    ]);
  });

  it('When a block names a page the reader did not list, then that page is added in order', () => {
    expect(grouped([block('a', 7)], [1, 2])).toEqual([
      { number: 1, written: [] },
      { number: 2, written: [] },
      { number: 7, written: ['w0'] },
    ]);
  });
});
