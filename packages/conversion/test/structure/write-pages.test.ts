import { text as textNode, type Block } from '../../src/document/model';
import { writePages, type PageBlocks } from '../../src/writers/pages';

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
