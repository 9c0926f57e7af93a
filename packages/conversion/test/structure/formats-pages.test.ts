import * as XLSX from '@e965/xlsx';
import { Document, HeadingLevel, Packer, PageBreak, Paragraph, TextRun } from 'docx';
import { strToU8, zipSync } from 'fflate';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';
import { chunkSchema, documentSchema } from '@markwright/contracts/src/structure';
import { closeConversionWorkers, convertDocument, convertIsolated, countTokens } from '../../src';
import { makeSamples } from '../samples';
import { buildDoc, para } from '../word97';
import { joinRuleHolds } from './structure-helpers';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 120_000, maxMemoryMb: 768 };
const all = { enhanced: false, includePages: true, chunkMaxTokens: 64, includeDocument: true };

/** Speech is left out: the offline engine takes long and its one-page rule is the same as text's. */
const SKIPPED = new Set(['wav', 'mp3', 'm4a']);

describe('E1, E3, E4 on every format', () => {
  let samples: Record<string, Buffer>;
  beforeAll(async () => {
    samples = await makeSamples();
  });

  it('When pages, chunks and the document are asked for, then the join rule holds exactly, chunks fit and join back, the document validates, and the Markdown is as without them', async () => {
    for (const [ext, bytes] of Object.entries(samples)) {
      if (SKIPPED.has(ext)) continue;
      const plain = await convertIsolated(bytes, ext, { enhanced: false }, limits);
      const result = await convertIsolated(bytes, ext, all, limits);
      expect({ ext, same: result.markdown }).toEqual({ ext, same: plain.markdown });
      expect({ ext, join: joinRuleHolds(result.markdown, result.pages!) }).toEqual({ ext, join: true });
      expect(result.pages!.length).toBeGreaterThanOrEqual(1);
      for (const chunk of result.chunks!) {
        expect(chunkSchema.parse(chunk)).toEqual(chunk);
        expect(chunk.tokens).toBe(countTokens(chunk.markdown));
        expect(chunk.tokens).toBeLessThanOrEqual(64);
      }
      expect(
        result
          .chunks!.map((c) => c.markdown)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ).toBe(result.markdown.replace(/\s+/g, ' ').trim());
      expect(() => documentSchema.parse(result.document)).not.toThrow();
    }
  }, 300_000);

  it('When an OCR’d image’s document is asked for, then its blocks carry boxes within the image, in its pixels', async () => {
    const result = await convertIsolated(samples.png!, 'png', { enhanced: false, includeDocument: true }, limits);
    const document = documentSchema.parse(result.document);
    const size = document.pages![0]!;
    expect(size.number).toBe(1);
    const boxed = document.blocks.filter((b) => b.bbox);
    expect(boxed.length).toBeGreaterThan(0);
    for (const b of boxed) {
      const [x0, y0, x1, y1] = b.bbox!;
      expect(0 <= x0 && x0 < x1 && x1 <= size.width && 0 <= y0 && y0 < y1 && y1 <= size.height).toBe(true);
    }
  });
});

async function presentation(slides: number): Promise<Buffer> {
  const pptx = new PptxGenJS();
  for (let i = 1; i <= slides; i++) pptx.addSlide().addText(`Text of slide ${i}`, { x: 1, y: 1, w: 6, h: 1 });
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

function workbook(sheets: number, bookType: 'xlsx' | 'xls' | 'ods'): Buffer {
  const wb = XLSX.utils.book_new();
  for (let i = 1; i <= sheets; i++) {
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([[`Head ${i}`], [`value ${i}`]]), `Sheet${i}`);
  }
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
}

/** An ODP of `n` pages (slides), each with a title. */
function odp(n: number): Buffer {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';
  const pages = Array.from(
    { length: n },
    (_, i) =>
      `<draw:page draw:name="p${i + 1}"><draw:frame presentation:class="title"><draw:text-box><text:p>Slide title ${i + 1}</text:p></draw:text-box></draw:frame></draw:page>`,
  ).join('');
  return Buffer.from(
    zipSync({
      'content.xml': strToU8(
        `<office:document-content ${ns}><office:body><office:presentation>${pages}</office:presentation></office:body></office:document-content>`,
      ),
    }),
  );
}

describe('E1 pages and E2 page_range of presentations and spreadsheets', () => {
  it('When a presentation is converted with pages, then there is one page per slide and page_count is the slide count', async () => {
    const result = await convertIsolated(
      await presentation(4),
      'pptx',
      { enhanced: false, includePages: true },
      limits,
    );
    expect(result.metadata.page_count).toBe(4);
    expect(result.pages!.map((p) => p.number)).toEqual([1, 2, 3, 4]);
    expect(result.pages![2]!.markdown).toContain('Text of slide 3');
    expect(joinRuleHolds(result.markdown, result.pages!)).toBe(true);
  });

  it('When slides 2-3 of a PPTX are selected, then only they are read: a damaged slide outside the range does not matter', async () => {
    const zip = await JSZip.loadAsync(await presentation(4));
    zip.file('ppt/slides/slide4.xml', '<p:sld this is not XML');
    const damaged = await zip.generateAsync({ type: 'nodebuffer' });
    await expect(convertIsolated(damaged, 'pptx', { enhanced: false }, limits)).rejects.toThrow();
    const result = await convertIsolated(
      damaged,
      'pptx',
      { enhanced: false, includePages: true, pageRange: [[2, 3]] },
      limits,
    );
    expect(result.pages!.map((p) => p.number)).toEqual([2, 3]);
    expect(result.metadata.page_count).toBe(4);
    expect(result.markdown).toContain('Text of slide 2');
    expect(result.markdown).not.toContain('Text of slide 1');
    await expect(convertIsolated(damaged, 'pptx', { enhanced: false, pageRange: [[5, 8]] }, limits)).rejects.toThrow(
      'The page range selects no page: the file has 4 pages.',
    );
  });

  it('When an ODP is converted with a range past its end, then the slides that exist are read', async () => {
    const result = await convertIsolated(
      odp(3),
      'odp',
      { enhanced: false, includePages: true, pageRange: [[2, 9]] },
      limits,
    );
    expect(result.pages!.map((p) => p.number)).toEqual([2, 3]);
    expect(result.metadata.page_count).toBe(3);
    expect(result.markdown).toBe('# Slide title 2\n\n# Slide title 3\n');
  });

  it.each(['xlsx', 'xls', 'ods'] as const)(
    'When a %s workbook is converted with pages, then there is one page per sheet, page_count is the sheet count, and a range selects sheets',
    async (ext) => {
      const bytes = workbook(4, ext);
      const whole = await convertIsolated(bytes, ext, { enhanced: false, includePages: true }, limits);
      expect(whole.metadata.page_count).toBe(4);
      expect(whole.pages!.map((p) => p.number)).toEqual([1, 2, 3, 4]);
      expect(whole.pages![1]!.markdown).toBe('## Sheet2\n\n| Head 2 |\n| --- |\n| value 2 |');
      const part = await convertIsolated(
        bytes,
        ext,
        {
          enhanced: false,
          includePages: true,
          pageRange: [
            [1, 1],
            [3, 3],
          ],
        },
        limits,
      );
      expect(part.pages!.map((p) => p.number)).toEqual([1, 3]);
      expect(part.metadata.page_count).toBe(4);
      expect(part.markdown).not.toContain('Sheet2');
    },
  );
});

describe('E1 pages of flow documents', () => {
  it('When a DOCX records hard page breaks and a section break, then it is split there, an empty page kept', async () => {
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Title one', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ children: [new TextRun('Ends page one.'), new PageBreak()] }),
            new Paragraph('Second page text.'),
            new Paragraph({ children: [new PageBreak()] }),
            new Paragraph({ children: [new PageBreak()] }),
            new Paragraph('Fourth page.'),
          ],
        },
        { children: [new Paragraph('New section page.')] },
      ],
    });
    const result = await convertIsolated(
      await Packer.toBuffer(doc),
      'docx',
      { enhanced: false, includePages: true },
      limits,
    );
    expect(result.pages).toEqual([
      { number: 1, markdown: '# Title one\n\nEnds page one.' },
      { number: 2, markdown: 'Second page text.' },
      { number: 3, markdown: '' },
      { number: 4, markdown: 'Fourth page.' },
      { number: 5, markdown: 'New section page.' },
    ]);
    expect(joinRuleHolds(result.markdown, result.pages!)).toBe(true);
  });

  it('When a DOCX has Word’s last-rendered page breaks, then it is split there, and one right after a hard break is the same break', async () => {
    const docx = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph('One.'),
              new Paragraph('Two.'),
              new Paragraph({ children: [new TextRun('Three.'), new PageBreak()] }),
              new Paragraph('Four.'),
            ],
          },
        ],
      }),
    );
    const zip = await JSZip.loadAsync(docx);
    const xml = await zip.file('word/document.xml')!.async('string');
    // Word lays out "Two." at the top of page 2, and marks "Four." (after the hard break) as rendered on a new page too.
    const marked = xml
      .replace(/<w:r>(<w:rPr>(?:(?!<\/w:rPr>).)*<\/w:rPr>)?<w:t xml:space="preserve">Two\./, (m) =>
        m.replace('<w:r>', '<w:r><w:lastRenderedPageBreak/>'),
      )
      .replace(/<w:r>(<w:rPr>(?:(?!<\/w:rPr>).)*<\/w:rPr>)?<w:t xml:space="preserve">Four\./, (m) =>
        m.replace('<w:r>', '<w:r><w:lastRenderedPageBreak/>'),
      );
    expect(marked.match(/lastRenderedPageBreak/g)).toHaveLength(2);
    zip.file('word/document.xml', marked);
    const result = await convertDocument(await zip.generateAsync({ type: 'nodebuffer' }), 'docx', {
      enhanced: false,
      includePages: true,
    });
    expect(result.pages).toEqual([
      { number: 1, markdown: 'One.' },
      { number: 2, markdown: 'Two.\n\nThree.' },
      { number: 3, markdown: 'Four.' },
    ]);
  });

  it('When an ODT has a paragraph style that breaks the page and soft page breaks, then it is split there', async () => {
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"';
    const content =
      `<office:document-content ${ns}><office:automatic-styles>` +
      '<style:style style:name="P1" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>' +
      '</office:automatic-styles><office:body><office:text>' +
      '<text:p>First page.</text:p><text:soft-page-break/><text:p>Second page.</text:p>' +
      '<text:p text:style-name="P1">Third page.</text:p><text:soft-page-break/><text:p text:style-name="P1">Fourth page.</text:p>' +
      '</office:text></office:body></office:document-content>';
    const odt = Buffer.from(zipSync({ 'content.xml': strToU8(content) }));
    const result = await convertIsolated(odt, 'odt', { enhanced: false, includePages: true }, limits);
    expect(result.pages).toEqual([
      { number: 1, markdown: 'First page.' },
      { number: 2, markdown: 'Second page.' },
      { number: 3, markdown: 'Third page.' },
      { number: 4, markdown: 'Fourth page.' },
    ]);
  });

  it('When an RTF has hard page breaks, then it is split there, an empty page kept, and a list over a break stays on its first page', async () => {
    const rtf = Buffer.from(
      '{\\rtf1\\ansi First page.\\par Still first.\\page Second page.\\par\\page\\page Fourth page.\\par ' +
        '{\\pntext - }Item one\\par\\page{\\pntext - }Item two\\par After the list.\\par}',
    );
    const result = await convertIsolated(rtf, 'rtf', { enhanced: false, includePages: true }, limits);
    expect(result.pages!.map((p) => p.number)).toEqual([1, 2, 3, 4, 5]);
    expect(result.pages!.slice(0, 3)).toEqual([
      { number: 1, markdown: 'First page.\n\nStill first.' },
      { number: 2, markdown: 'Second page.' },
      { number: 3, markdown: '' },
    ]);
    expect(result.pages![3]!.markdown).toMatch(/^Fourth page\.\n\n- Item one\n- Item two$/);
    expect(result.pages![4]).toEqual({ number: 5, markdown: 'After the list.' });
    expect(joinRuleHolds(result.markdown, result.pages!)).toBe(true);
  });

  it('When a DOC has page breaks (form feeds), then it is split there, an empty page kept', async () => {
    const doc = buildDoc({ body: [para('Title', 'heading 1'), para('One.'), para('\fTwo.'), para('\f\fFour.')] });
    const result = await convertIsolated(doc, 'doc', { enhanced: false, includePages: true }, limits);
    expect(result.pages).toEqual([
      { number: 1, markdown: '# Title\n\nOne.' },
      { number: 2, markdown: 'Two.' },
      { number: 3, markdown: '' },
      { number: 4, markdown: 'Four.' },
    ]);
    expect(result.markdown).toBe('# Title\n\nOne.\n\nTwo.\n\nFour.\n');
  });

  it('When an EPUB has two spine documents, then each is a page', async () => {
    const epub = Buffer.from(
      zipSync({
        'META-INF/container.xml': strToU8(
          '<container><rootfiles><rootfile full-path="book.opf"/></rootfiles></container>',
        ),
        'book.opf': strToU8(
          '<package><manifest><item id="a" href="a.xhtml"/><item id="b" href="b.xhtml"/></manifest><spine><itemref idref="a"/><itemref idref="b"/></spine></package>',
        ),
        'a.xhtml': strToU8('<html><body><h1>Chapter A</h1><p>Alpha text.</p></body></html>'),
        'b.xhtml': strToU8('<html><body><h1>Chapter B</h1><p>Beta text.</p></body></html>'),
      }),
    );
    const result = await convertIsolated(epub, 'epub', { enhanced: false, includePages: true }, limits);
    expect(result.pages).toEqual([
      { number: 1, markdown: '# Chapter A\n\nAlpha text.' },
      { number: 2, markdown: '# Chapter B\n\nBeta text.' },
    ]);
  });

  it('When an empty binary file is converted with pages, then there is one empty page and no other field', async () => {
    const result = await convertDocument(Buffer.alloc(0), 'docx', { enhanced: false, includePages: true });
    expect(Object.keys(result).sort()).toEqual(['blocks', 'markdown', 'metadata', 'pages']);
    expect(result.pages).toEqual([{ number: 1, markdown: '' }]);
    await expect(convertDocument(Buffer.alloc(0), 'pdf', { enhanced: false, pageRange: [[1, 1]] })).rejects.toThrow(
      'The page range selects no page: the file has 0 pages.',
    );
  });

  it('When a text format is converted with pages, then it is one page', async () => {
    const result = await convertIsolated(
      Buffer.from('# A\n\nText.\n'),
      'md',
      { enhanced: false, includePages: true },
      limits,
    );
    expect(result.pages).toEqual([{ number: 1, markdown: '# A\n\nText.' }]);
  });
});
