import { strToU8, zipSync } from 'fflate';
import PDFDocument from 'pdfkit';
import PptxGenJS from 'pptxgenjs';
import * as XLSX from '@e965/xlsx';
import { convertDocument, type Block } from '../../src';

const std = { enhanced: false };

/** Each block's page and a little of its text, in document order. */
function pagesOf(blocks: Block[]): [number | undefined, string][] {
  return blocks.map((b) => [b.page, JSON.stringify(b).match(/"text":"([^"]*)"/)?.[1] ?? b.type]);
}

function twoPagePdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.fontSize(24).text('First page heading');
    doc.fontSize(11).text('A paragraph that stays on the first page of this document.');
    doc.addPage();
    doc.fontSize(11).text('A paragraph that opens the second page of this document.');
    doc.end();
  });
}

describe('Blocks record the page they come from', () => {
  it('When a PDF has two pages, then each block carries the page it starts on', async () => {
    const { blocks } = await convertDocument(await twoPagePdf(), 'pdf', std);
    expect(pagesOf(blocks)).toEqual([
      [1, 'First page heading'],
      [1, 'A paragraph that stays on the first page of this document.'],
      [2, 'A paragraph that opens the second page of this document.'],
    ]);
  });

  it('When a presentation has two slides, then every block of a slide carries its number', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('One', { x: 1, y: 1, w: 6, h: 1 });
    pptx.addSlide().addText('Two', { x: 1, y: 1, w: 6, h: 1 });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { blocks } = await convertDocument(input, 'pptx', std);
    expect(blocks.map((b) => b.page)).toEqual(blocks.map((b) => b.page).sort());
    expect(new Set(blocks.map((b) => b.page))).toEqual(new Set([1, 2]));
  });

  it("When a workbook has a hidden sheet, then each shown sheet's blocks carry its number among all sheets", async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['a'], ['1']]), 'First');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['b'], ['2']]), 'Hidden');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['c'], ['3']]), 'Third');
    wb.Workbook = { Sheets: [{ Hidden: 0 }, { Hidden: 1 }, { Hidden: 0 }] };
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    const { blocks } = await convertDocument(input, 'xlsx', std);
    expect(blocks.map((b) => [b.type, b.page])).toEqual([
      ['heading', 1],
      ['table', 1],
      ['heading', 3],
      ['table', 3],
    ]);
  });

  it('When an EPUB has two spine documents, then their blocks carry 1 and 2', async () => {
    const xhtml = (body: string) => strToU8(`<html xmlns="http://www.w3.org/1999/xhtml"><body>${body}</body></html>`);
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/epub+zip'),
        'META-INF/container.xml': strToU8(
          '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
        ),
        'content.opf': strToU8(
          '<package><manifest><item id="a" href="a.xhtml"/><item id="b" href="b.xhtml"/></manifest>' +
            '<spine><itemref idref="a"/><itemref idref="b"/></spine></package>',
        ),
        'a.xhtml': xhtml('<h1>One</h1><p>First chapter.</p>'),
        'b.xhtml': xhtml('<h1>Two</h1>'),
      }),
    );
    const { blocks } = await convertDocument(input, 'epub', std);
    expect(pagesOf(blocks)).toEqual([
      [1, 'One'],
      [1, 'First chapter.'],
      [2, 'Two'],
    ]);
  });

  it('When a format has no pages (HTML), then its blocks carry none', async () => {
    const { blocks } = await convertDocument(Buffer.from('<h1>T</h1><p>x</p>'), 'html', std);
    expect(blocks.map((b) => b.page)).toEqual([undefined, undefined]);
  });
});
