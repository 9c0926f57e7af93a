import { documentSchema } from '@markwright/contracts/src/structure';
import { closeConversionWorkers, convertDocument, convertIsolated } from '../../src';
import { textImage, SENTENCE } from '../media-fixtures';
import { makePdf, ruledGrid } from '../pdf/make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 120_000, maxMemoryMb: 768 };

describe('E4 the document as data', () => {
  it('When a document has every kind of block, then the JSON has them with inline nodes, href, note_ref and a markdown block for raw content', async () => {
    const md = [
      '---',
      'title: Front',
      '---',
      '',
      '## Intro',
      '',
      'Some **bold** and *italic* text with `code`, a [link](https://example.com/a) and a note[^1].',
      '',
      '3. third',
      '4. fourth',
      '',
      '- [x] done',
      '',
      '| A | B |',
      '| --- | --- |',
      '| 1 | 2 |',
      '',
      '> quoted',
      '',
      '```ts',
      'let x = 1;',
      '```',
      '',
      '---',
      '',
      '[^1]: The note.',
    ].join('\n');
    const result = await convertDocument(Buffer.from(md), 'md', { enhanced: false, includeDocument: true });
    const document = documentSchema.parse(result.document);
    const types = document.blocks.map((b) => b.type);
    expect(types).toEqual([
      'markdown',
      'heading',
      'paragraph',
      'list',
      'list',
      'table',
      'quote',
      'code',
      'rule',
      'notes',
    ]);
    const [front, heading, paragraph, ordered, tasks, table, , code, , notes] = document.blocks;
    expect(front).toMatchObject({ type: 'markdown', markdown: expect.stringContaining('title: Front') });
    expect(heading).toEqual({ type: 'heading', level: 2, content: [{ type: 'text', text: 'Intro' }] });
    if (paragraph!.type !== 'paragraph') throw new Error('paragraph expected');
    expect(paragraph.content).toEqual(
      expect.arrayContaining([
        { type: 'strong', children: [{ type: 'text', text: 'bold' }] },
        { type: 'emphasis', children: [{ type: 'text', text: 'italic' }] },
        { type: 'code', text: 'code' },
        { type: 'link', href: 'https://example.com/a', children: [{ type: 'text', text: 'link' }] },
        { type: 'note_ref', id: '1' },
      ]),
    );
    expect(ordered).toMatchObject({ type: 'list', ordered: true, start: 3 });
    expect(tasks).toMatchObject({ type: 'list', ordered: false, items: [{ checked: true }] });
    expect(table).toEqual({
      type: 'table',
      header_rows: 1,
      rows: [
        [{ content: [{ type: 'text', text: 'A' }] }, { content: [{ type: 'text', text: 'B' }] }],
        [{ content: [{ type: 'text', text: '1' }] }, { content: [{ type: 'text', text: '2' }] }],
      ],
    });
    expect(code).toEqual({ type: 'code', text: 'let x = 1;', language: 'ts' });
    expect(notes).toMatchObject({ type: 'notes', notes: [{ id: '1' }] });
  });

  it('When a link has a target the Markdown would not write, then the JSON keeps its text only', async () => {
    const result = await convertDocument(Buffer.from('<p>A <a href="javascript:alert(1)">trap</a>.</p>'), 'html', {
      enhanced: false,
      includeDocument: true,
    });
    expect(JSON.stringify(result.document)).not.toContain('javascript');
    expect(JSON.stringify(result.document)).toContain('trap');
  });

  it('When a PDF table is drawn with rules, then its block’s box is the grid’s outer edges', async () => {
    const input = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(11).text('Prices', 72, 72);
      ruledGrid(
        doc,
        [72, 192, 312],
        [100, 124, 148, 172],
        [
          ['Fruit', 'Price'],
          ['Apple', '3'],
          ['Pear', '4'],
        ],
      );
      doc.text('After the table.', 72, 220);
    });
    const result = await convertIsolated(input, 'pdf', { enhanced: false, includeDocument: true }, limits);
    const document = documentSchema.parse(result.document);
    const table = document.blocks.find((b) => b.type === 'table')!;
    const [x0, y0, x1, y1] = table.bbox!;
    // Within a point: poppler states the page's height in whole points (A4's 841.89 as 841).
    [x0, y0, x1, y1].forEach((v, i) => expect(Math.abs(v - [72, 100, 312, 172][i]!)).toBeLessThanOrEqual(1));
  });

  it('When a PDF page is scanned, then its OCR blocks carry boxes in the page’s points', async () => {
    const picture = await textImage([SENTENCE], 28);
    const input = await makePdf((doc) => {
      doc.image(picture, 72, 300, { width: 450 });
    });
    const result = await convertIsolated(input, 'pdf', { enhanced: false, includeDocument: true }, limits);
    const document = documentSchema.parse(result.document);
    expect(result.markdown.toLowerCase()).toContain('annual budget');
    const page = document.pages!.find((p) => p.number === 1)!;
    const boxed = document.blocks.filter((b) => b.bbox && b.page === 1);
    expect(boxed.length).toBeGreaterThan(0);
    for (const b of boxed) {
      const [x0, y0, x1, y1] = b.bbox!;
      // The picture stands at x 72–522, from y 300 (points, top-left): the text's box lies inside it.
      expect(x0).toBeGreaterThanOrEqual(70);
      expect(x1).toBeLessThanOrEqual(525);
      expect(y0).toBeGreaterThanOrEqual(298);
      expect(y1).toBeLessThanOrEqual(page.height);
      expect(y1).toBeLessThan(420);
    }
  }, 120_000);
});
