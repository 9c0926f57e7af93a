import { chunkSchema, type Chunk } from '@markwright/contracts/src/structure';
import { closeConversionWorkers, convertDocument, convertIsolated } from '../../src';
import { receiveStructure, sendStructure, type ChunkColumns } from '../../src/isolation/structure-transfer';
import { recordChunkPlaces } from '../../src/writers/chunk-places';
import { makePdf } from '../pdf/make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 120_000, maxMemoryMb: 768 };

/** Chunk i's row of numbers in the columns, by name. */
function row(columns: ChunkColumns, i: number) {
  const [index, tokens, at, length, head, pages, headings] = columns.numbers.subarray(i * 7, i * 7 + 7);
  return { index, tokens, at, length, head, pages, headings };
}

const SENTENCE = 'Pilots guide the tankers past the lighthouse, and dock workers check every seal. ';

/** Headings, paragraphs longer than a chunk, a list and a table long enough to be split with its header repeated. */
function markdownDocument(): Buffer {
  const lines = ['# Harbour', '', SENTENCE.repeat(30), '', '## Cargo', ''];
  lines.push('| Ship | Tonnes | Berth |', '| --- | ---: | --- |');
  for (let i = 0; i < 120; i++) lines.push(`| Vessel ${i} | ${i * 137} | B${i % 7} |`);
  lines.push('', '- first item', '- second item', '', '## Closing', '', SENTENCE.repeat(3));
  return Buffer.from(lines.join('\n'));
}

async function threePagePdf(): Promise<Buffer> {
  return makePdf((doc) => {
    for (let page = 1; page <= 3; page++) {
      if (page > 1) doc.addPage();
      doc.font('Helvetica-Bold').fontSize(18).text(`Page ${page} heading`);
      doc.font('Helvetica').fontSize(11).text(SENTENCE.repeat(8));
    }
    doc.addPage();
  });
}

describe('Pages and chunks across the worker thread (sent by place in the Markdown)', () => {
  it.each([
    ['Markdown with a split table, chunks of 64 tokens', 'md', { includePages: true, chunkMaxTokens: 64 }],
    ['Markdown optimised for tokens, chunks of 100', 'md', { chunkMaxTokens: 100, optimizeTokens: true }],
    ['a PDF of three pages and an empty one', 'pdf', { includePages: true, chunkMaxTokens: 64 }],
  ] as const)(
    'When %s is sent and received, then the pages and chunks are the writers’ exactly, and their Markdown crossed by place',
    async (_, extension, options) => {
      const input = extension === 'pdf' ? await threePagePdf() : markdownDocument();
      const { blocks: _model, ...result } = await convertDocument(input, extension, { enhanced: false, ...options });
      const sent = sendStructure(result);
      // Every non-empty page, and every chunk (continuation chunks after their repeated header), is named by place.
      expect(sent.pages?.filter((p) => p.markdown !== undefined && p.markdown !== '') ?? []).toEqual([]);
      // In columns: no chunk crosses as an object of its own.
      expect(sent.chunks!.whole).toEqual([]);
      expect(sent.chunks!.numbers).toHaveLength(result.chunks!.length * 7);
      if (extension === 'md' && options.chunkMaxTokens === 64) {
        expect(result.chunks!.some((_c, i) => row(sent.chunks!, i).head! >= 0)).toBe(true);
      }
      const received = receiveStructure(structuredClone(sent));
      expect(JSON.stringify(received)).toBe(JSON.stringify(result));
      for (const chunk of received.chunks!) expect(chunkSchema.parse(chunk)).toEqual(chunk);
    },
  );

  it('When a page or chunk is not a stretch of the Markdown, then it is sent as it is and received the same', () => {
    const result = {
      markdown: 'Alpha beta.\n\nGamma delta.\n',
      metadata: { title: '', author: '', page_count: 2 },
      pages: [
        { number: 1, markdown: 'Alpha beta.' },
        { number: 2, markdown: 'Not in the document.' },
        { number: 3, markdown: '' },
      ],
      chunks: [
        { index: 0, markdown: 'Something else', tokens: 2, pages: [1], headings: [] },
        { index: 1, markdown: 'Gamma delta.', tokens: 3, pages: [2], headings: ['H'] },
      ],
    };
    const sent = sendStructure(result);
    expect(sent.pages).toEqual([
      { number: 1, at: 0, length: 11 },
      { number: 2, markdown: 'Not in the document.' },
      { number: 3, markdown: '' },
    ]);
    expect(sent.chunks!.whole).toEqual([result.chunks[0]]);
    expect(row(sent.chunks!, 0).at).toBe(-1);
    expect(row(sent.chunks!, 1)).toEqual({ index: 1, tokens: 3, at: 13, length: 12, head: -1, pages: 1, headings: 1 });
    expect(sent.chunks!.texts).toEqual(['H']);
    expect(JSON.stringify(receiveStructure(structuredClone(sent)))).toBe(JSON.stringify(result));
  });

  it('When the chunk writer recorded where its chunks stand, then they are sent by those places, not looked for', () => {
    const markdown = 'Alpha beta.\n\nAlpha beta.\n';
    const chunks = [
      { index: 0, markdown: 'Alpha beta.', tokens: 3, pages: [1], headings: [] },
      { index: 1, markdown: '| a |\n| --- |\nAlpha beta.', tokens: 9, pages: [1], headings: [] },
    ];
    // Both chunks read as the second paragraph (looked for, the first would be found at 0).
    recordChunkPlaces(chunks, {
      document: markdown,
      places: [
        { at: 13, length: 11, head: '' },
        { at: 13, length: 11, head: '| a |\n| --- |\n' },
      ],
    });
    const sent = sendStructure({ markdown, chunks });
    expect(row(sent.chunks!, 0)).toEqual({ index: 0, tokens: 3, at: 13, length: 11, head: -1, pages: 1, headings: 0 });
    expect(row(sent.chunks!, 1)).toEqual({ index: 1, tokens: 9, at: 13, length: 11, head: 0, pages: 1, headings: 0 });
    expect(sent.chunks!.texts).toEqual(['| a |\n| --- |\n']);
    expect(JSON.stringify(receiveStructure(structuredClone(sent)))).toBe(JSON.stringify({ markdown, chunks }));
  });

  it('When chunks’ places were recorded in another document, then they are looked for in this one', () => {
    const markdown = 'Alpha beta.\n\nAlpha beta.\n';
    const chunks = [{ index: 0, markdown: 'Alpha beta.', tokens: 3, pages: [1], headings: [] }];
    recordChunkPlaces(chunks, { document: `${markdown}More.\n`, places: [{ at: 13, length: 11, head: '' }] });
    expect(row(sendStructure({ markdown, chunks }).chunks!, 0)).toEqual({
      index: 0,
      tokens: 3,
      at: 0,
      length: 11,
      head: -1,
      pages: 1,
      headings: 0,
    });
  });

  it('When neighbouring chunks share a list of pages or headings, then it crosses once and is received shared, the others each their own', () => {
    const markdown = 'One.\n\nTwo.\n\nThree.\n\nFour.\n';
    const outer = ['Part', 'Chapter'];
    const onePage = [1];
    const chunks: Chunk[] = [
      { index: 0, markdown: 'One.', tokens: 2, pages: onePage, headings: outer },
      { index: 1, markdown: 'Two.', tokens: 2, pages: onePage, headings: outer },
      { index: 2, markdown: 'Three.', tokens: 2, pages: [1, 2], headings: outer },
      { index: 3, markdown: 'Four.', tokens: 2, pages: [2], headings: ['Part', 'Appendix'] },
    ];
    const sent = sendStructure({ markdown, chunks });
    expect(Array.from(sent.chunks!.pageNumbers)).toEqual([1, 1, 2, 2]);
    expect(sent.chunks!.texts).toEqual(['Part', 'Chapter', 'Appendix']);
    expect(Array.from(sent.chunks!.headings)).toEqual([0, 1, 0, 2]);
    const received = receiveStructure(structuredClone(sent)).chunks!;
    expect(received).toEqual(chunks);
    expect(received[1]!.pages).toBe(received[0]!.pages);
    expect(received[2]!.headings).toBe(received[0]!.headings);
    expect(received[2]!.pages).not.toBe(received[1]!.pages);
    expect(received[3]!.headings).not.toBe(received[2]!.headings);
    expect(received[3]!.pages).not.toBe(received[2]!.pages);
  });

  it.each([
    ['tokens that are not a whole number', { tokens: 2.5 }],
    ['a page beyond 32-bit numbers', { pages: [2 ** 31] }],
    ['an index of -0', { index: -0 }],
    ['a heading that is not text', { headings: [7 as unknown as string] }],
  ])('When a chunk has %s, then it crosses as it is and is received the same', (_, odd) => {
    const markdown = 'One.\n\nTwo.\n\nThree.\n';
    const chunks: Chunk[] = [
      { index: 0, markdown: 'One.', tokens: 2, pages: [1], headings: ['H'] },
      { index: 1, markdown: 'Two.', tokens: 2, pages: [1], headings: ['H'], ...odd },
      { index: 2, markdown: 'Three.', tokens: 2, pages: [1], headings: ['H'] },
    ];
    const sent = sendStructure({ markdown, chunks });
    expect(sent.chunks!.whole).toEqual([chunks[1]]);
    expect([0, 1, 2].map((i) => row(sent.chunks!, i).at)).toEqual([0, -1, 12]);
    const received = receiveStructure(structuredClone(sent)).chunks!;
    expect(received).toEqual(chunks);
    expect(Object.is(received[1]!.index, chunks[1]!.index)).toBe(true);
  });

  it('When there are no chunks, then the columns are empty and nothing is received', () => {
    const sent = sendStructure({ markdown: '', chunks: [] });
    expect(sent.chunks!.numbers).toHaveLength(0);
    expect(receiveStructure(structuredClone(sent)).chunks).toEqual([]);
  });

  it('When a conversion with pages and chunks runs in a worker, then convertIsolated returns what convertDocument writes', async () => {
    const input = markdownDocument();
    const options = { enhanced: false, includePages: true, chunkMaxTokens: 64 } as const;
    const { blocks: _model, ...inProcess } = await convertDocument(input, 'md', options);
    const isolated = await convertIsolated(input, 'md', options, limits);
    expect(JSON.stringify(isolated)).toBe(JSON.stringify(inProcess));
  });
});
