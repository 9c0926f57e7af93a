import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { strToU8, zipSync } from 'fflate';
import * as XLSX from '@e965/xlsx';
import { convertDocument } from '../../src';
import { DIAGRAM_DATA_REL, SMARTART_GRAPHIC, smartArtData } from '../smartart';
import { CHARTEX_REL, chartExGraphic, chartExPart } from '../chartex';

const std = { enhanced: false };

async function docx(
  children: Array<Paragraph | Table>,
  props: { title?: string; creator?: string } = {},
): Promise<Buffer> {
  const doc = new Document({
    ...props,
    numbering: {
      config: [
        {
          reference: 'numbers',
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }],
        },
      ],
    },
    sections: [{ children }],
  });
  return Packer.toBuffer(doc);
}

/** A bare WordprocessingML package: the body's paragraphs and a numbering part. */
function numberedDocx(body: string, numbering: string): Buffer {
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return Buffer.from(
    zipSync({
      'word/document.xml': strToU8(`<w:document ${ns}><w:body>${body}</w:body></w:document>`),
      'word/numbering.xml': strToU8(`<w:numbering ${ns}>${numbering}</w:numbering>`),
    }),
  );
}

/** A paragraph numbered by instance `numId` at level `ilvl`. */
const numberedItem = (numId: string, ilvl: number, text: string) =>
  `<w:p><w:pPr><w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;

describe('DOCX', () => {
  it('When the document part is written in UTF-16, then its text is read as in UTF-8', async () => {
    const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const xml = `<?xml version="1.0" encoding="UTF-16"?><w:document ${ns}><w:body><w:p><w:r><w:t>Grüße, 世界</w:t></w:r></w:p></w:body></w:document>`;
    for (const bytes of [Buffer.from(`\ufeff${xml}`, 'utf16le'), Buffer.from(xml, 'utf16le').swap16()]) {
      const { markdown } = await convertDocument(Buffer.from(zipSync({ 'word/document.xml': bytes })), 'docx', std);
      expect(markdown).toBe('Grüße, 世界\n');
    }
  });

  it('When each nested list is a numbering of its own at level 0, set further right by its paragraphs (AbiWord), then the lists nest as drawn', async () => {
    const decimal = (id: string) =>
      `<w:abstractNum w:abstractNumId="${id}"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>` +
      `<w:num w:numId="${id}"><w:abstractNumId w:val="${id}"/></w:num>`;
    const item = (numId: string, left: number, text: string) =>
      `<w:p><w:pPr><w:ind w:hanging="432"/><w:ind w:left="${left}"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="${numId}"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const body =
      item('1', 720, 'Inventory') +
      item('2', 1440, 'Racks') +
      item('3', 2160, 'Power') +
      item('3', 2160, 'Panels') +
      item('2', 1440, 'Assets') +
      item('1', 720, 'Databases');
    const { markdown } = await convertDocument(
      numberedDocx(body, decimal('1') + decimal('2') + decimal('3')),
      'docx',
      std,
    );
    expect(markdown).toBe('1. Inventory\n   1. Racks\n      1. Power\n      2. Panels\n   2. Assets\n2. Databases\n');
  });

  it("When items use Word's built-in List Bullet 2 and 3 styles (each its own list at level 0, as python-docx and Word's template write them), then they nest under the item before", async () => {
    const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const style = (id: string, name: string, numId: string) =>
      `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:pPr><w:numPr><w:numId w:val="${numId}"/></w:numPr></w:pPr></w:style>`;
    const bullets = (id: string) =>
      `<w:abstractNum w:abstractNumId="${id}"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum>`;
    const item = (styleId: string, text: string) =>
      `<w:p><w:pPr><w:pStyle w:val="${styleId}"/></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const input = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${ns}><w:body>${item('ListBullet', 'Instruments')}${item('ListBullet2', 'Rangefinder')}` +
            `${item('ListBullet3', 'Battery')}${item('ListBullet', 'Safety')}</w:body></w:document>`,
        ),
        'word/styles.xml': strToU8(
          `<w:styles ${ns}>${style('ListBullet', 'List Bullet', '1')}${style('ListBullet2', 'List Bullet 2', '2')}` +
            `${style('ListBullet3', 'List Bullet 3', '3')}</w:styles>`,
        ),
        'word/numbering.xml': strToU8(
          `<w:numbering ${ns}>${bullets('0')}${bullets('1')}${bullets('2')}` +
            '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>' +
            '<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num></w:numbering>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'docx', std);
    expect(markdown).toBe('- Instruments\n  - Rangefinder\n    - Battery\n- Safety\n');
  });

  it('When a package has no styles part and paragraphs cite Heading1 and Heading2 by id (a script-written file), then they are headings of those levels', async () => {
    const body =
      '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Invoice Summary</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Delivery Notes</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:pStyle w:val="BodyText"/></w:pPr><w:r><w:t>Leave parcels at the desk.</w:t></w:r></w:p>';
    const { markdown } = await convertDocument(numberedDocx(body, ''), 'docx', std);
    expect(markdown).toBe('# Invoice Summary\n\n## Delivery Notes\n\nLeave parcels at the desk.\n');
  });

  it('When a heading paragraph is bold all through by its runs own formatting (AbiWord, scripts), then the heading carries no emphasis; bold on part of it stays', async () => {
    const body =
      '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>Harbour Notes</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t xml:space="preserve">The </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>second</w:t></w:r><w:r><w:t xml:space="preserve"> page</w:t></w:r></w:p>';
    const { markdown } = await convertDocument(numberedDocx(body, ''), 'docx', std);
    expect(markdown).toBe('# Harbour Notes\n\n## The **second** page\n');
  });

  it("When a DOCX embeds a worksheet as an OLE object, then the worksheet's table comes where the object sits instead of its preview picture, its empty sheets left out", async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['Item', 'Qty'],
        ['Tea', 2],
      ]),
      'Orders',
    );
    // Its empty sheets are left out (a sheet of its own shows "(empty sheet)").
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([]), 'Spare');
    const sheet = new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const ns =
      'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml" ' +
      'xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const object =
      '<w:object><v:shape><v:imagedata r:id="rId4"/></v:shape><o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" r:id="rId5"/></w:object>';
    const para = (inner: string) => `<w:p>${inner}</w:p>`;
    const rels =
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.emf"/>' +
      '<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/package" Target="embeddings/Microsoft_Excel_Worksheet.xlsx"/>' +
      '</Relationships>';
    const docx = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${ns}><w:body>${para('<w:r><w:t>Orders this week:</w:t></w:r>')}${para(`<w:r>${object}</w:r>`)}${para('<w:r><w:t>Thanks.</w:t></w:r>')}</w:body></w:document>`,
        ),
        'word/_rels/document.xml.rels': strToU8(rels),
        'word/media/image1.emf': new Uint8Array(16),
        'word/embeddings/Microsoft_Excel_Worksheet.xlsx': sheet,
      }),
    );
    expect((await convertDocument(docx, 'docx', std)).markdown).toBe(
      'Orders this week:\n\n## Orders\n\n| Item | Qty |\n| --- | --- |\n| Tea | 2 |\n\nThanks.\n',
    );
  });

  it('When a table holds all its content in one cell beside empty margin cells (a page laid out in a table), then that cell reads as the document: paragraphs, headings and lists', async () => {
    const para = (text: string, style = '') =>
      `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t>${text}</w:t></w:r></w:p>`;
    const empty = '<w:tc><w:p/></w:tc>';
    const body =
      `<w:tbl><w:tr>${empty}<w:tc>${para('Lesson 5', 'Heading1')}${para('Aims of the lesson.')}${para('Worked examples.')}</w:tc>${empty}</w:tr>` +
      `<w:tr>${empty}${empty}${empty}</w:tr></w:tbl>`;
    expect((await convertDocument(numberedDocx(body, ''), 'docx', std)).markdown).toBe(
      '# Lesson 5\n\nAims of the lesson.\n\nWorked examples.\n',
    );
  });

  it('When table rows sit inside nested content controls (a repeating section) and a cell inside a drop-down control, then their text is read', async () => {
    const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const control = (inner: string, placeholder = false) =>
      `<w:sdt><w:sdtPr>${placeholder ? '<w:showingPlcHdr/>' : ''}</w:sdtPr><w:sdtContent>${inner}</w:sdtContent></w:sdt>`;
    const body =
      `<w:tbl><w:tr>${cell('Note')}${cell('Details')}</w:tr>` +
      control(control(control(`<w:tr>${control(cell('Yes'))}${cell('Sample entry')}</w:tr>`))) +
      control(`<w:tr>${control(cell('Choose an item.'), true)}${cell('Second entry')}</w:tr>`) +
      `</w:tbl>`;
    expect((await convertDocument(numberedDocx(body, ''), 'docx', std)).markdown).toBe(
      '| Note | Details |\n| --- | --- |\n| Yes | Sample entry |\n|  | Second entry |\n',
    );
  });

  it("When a content control shows its placeholder, then Word's prompt is left out and entered text is kept", async () => {
    const control = (inner: string, placeholder: boolean) =>
      `<w:sdt><w:sdtPr>${placeholder ? '<w:showingPlcHdr/>' : ''}</w:sdtPr><w:sdtContent>${inner}</w:sdtContent></w:sdt>`;
    const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const body =
      control(`<w:p>${run('[Job Title]')}</w:p>`, true) +
      `<w:p>${run('Name: ')}${control(run('Click or tap here to enter text.'), true)}</w:p>` +
      `<w:p>${run('Role: ')}${control(run('Engineer'), false)}</w:p>`;
    expect((await convertDocument(numberedDocx(body, ''), 'docx', std)).markdown).toBe('Name:\n\nRole: Engineer\n');
  });

  it('When text carries ruby (furigana), then the base text is read and its reading left out', async () => {
    const body =
      '<w:p><w:r><w:t xml:space="preserve">Tokyo: </w:t></w:r><w:r><w:ruby><w:rubyPr><w:hps w:val="11"/></w:rubyPr>' +
      '<w:rt><w:r><w:t>とうきょう</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>東京</w:t></w:r></w:rubyBase></w:ruby></w:r></w:p>';
    expect((await convertDocument(numberedDocx(body, ''), 'docx', std)).markdown).toBe('Tokyo: 東京\n');
  });

  it('When a legacy form has text fields and check boxes (FORMTEXT, FORMCHECKBOX), then the fields show their text and the boxes their state', async () => {
    const checkBox = (state: string, label: string) =>
      `<w:p><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Check1"/><w:checkBox><w:sizeAuto/>${state}</w:checkBox></w:ffData></w:fldChar></w:r>` +
      `<w:r><w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> ${label}</w:t></w:r></w:p>`;
    const input = numberedDocx(
      '<w:p><w:r><w:t xml:space="preserve">Name: </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:textInput/></w:ffData></w:fldChar></w:r>' +
        '<w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>' +
        '<w:r><w:t>Samuel Okafor</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>' +
        checkBox('<w:default w:val="1"/>', 'Weekend shifts') +
        checkBox('<w:default w:val="0"/>', 'Driving') +
        checkBox('<w:default w:val="0"/><w:checked/>', 'First aid'),
      '',
    );
    const { markdown } = await convertDocument(input, 'docx', std);
    expect(markdown).toBe('Name: Samuel Okafor\n\n☒ Weekend shifts\n\n☐ Driving\n\n☒ First aid\n');
  });

  it('When a document has headings, emphasis, a link, lists and a table, then the Markdown keeps each', async () => {
    const input = await docx(
      [
        new Paragraph({ text: 'Annual Report', heading: HeadingLevel.HEADING_1 }),
        new Paragraph({
          children: [
            new TextRun('Plain, '),
            new TextRun({ text: 'bold', bold: true }),
            new TextRun(' and '),
            new TextRun({ text: 'italic', italics: true }),
            new TextRun('.'),
          ],
        }),
        new Paragraph({
          children: [new ExternalHyperlink({ link: 'https://example.com/', children: [new TextRun('Example')] })],
        }),
        new Paragraph({ text: 'Details', heading: HeadingLevel.HEADING_2 }),
        new Paragraph({ text: 'First point', bullet: { level: 0 } }),
        new Paragraph({ text: 'Nested point', bullet: { level: 1 } }),
        new Paragraph({ text: 'Step one', numbering: { reference: 'numbers', level: 0 } }),
        new Table({
          rows: [
            new TableRow({
              children: [
                new TableCell({ children: [new Paragraph('Name')] }),
                new TableCell({ children: [new Paragraph('Qty')] }),
              ],
            }),
            new TableRow({
              children: [
                new TableCell({ children: [new Paragraph('Çay')] }),
                new TableCell({ children: [new Paragraph('3')] }),
              ],
            }),
          ],
        }),
      ],
      { title: 'The Report', creator: 'Zoë' },
    );
    const { markdown, metadata } = await convertDocument(input, 'docx', std);
    expect(markdown).toContain('# Annual Report\n');
    expect(markdown).toContain('Plain, **bold** and *italic*.');
    expect(markdown).toContain('[Example](https://example.com/)');
    expect(markdown).toContain('## Details\n');
    expect(markdown).toMatch(/- First point\n\s+- Nested point/);
    expect(markdown).toContain('1. Step one');
    expect(markdown).toMatch(/\| Name \| Qty \|\n\| -+ \| -+ \|\n\| Çay \| 3 \|/);
    expect(metadata).toEqual({ title: 'The Report', author: 'Zoë', page_count: 0 });
  });

  it('When runs combine bold, italic and strike, split mid-word, with a footnote, then one marker pair each and the note at the end', async () => {
    const doc = new Document({
      footnotes: { 1: { children: [new Paragraph({ children: [new TextRun({ text: 'Source', italics: true })] })] } },
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Mix '),
                new TextRun({ text: 'al', bold: true, italics: true }),
                new TextRun({ text: 'l ', bold: true, italics: true }),
                new TextRun({ text: 'gone', strike: true }),
                new TextRun({ text: ' 2*3', bold: true }),
                new FootnoteReferenceRun(1),
              ],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('Mix ***all*** ~~gone~~ **2\\*3**[^1]\n\n[^1]: *Source*\n');
  });

  it('When runs are raised or lowered, directly or by a character style, then <sup>/<sub> are kept, in a cell too, and a note mark stays a reference', async () => {
    const doc = new Document({
      styles: {
        characterStyles: [
          { id: 'Exponent', name: 'Exponent', run: { superScript: true } },
          { id: 'RedExponent', name: 'Red exponent', basedOn: 'Exponent', run: { color: 'FF0000' } },
        ],
      },
      footnotes: { 1: { children: [new Paragraph('Source')] } },
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('x'),
                new TextRun({ text: '2', superScript: true }),
                new TextRun(' and H'),
                new TextRun({ text: '2', subScript: true }),
                new TextRun('O, e'),
                new TextRun({ text: 'i', style: 'Exponent' }),
                new TextRun({ text: 'π', style: 'RedExponent' }),
                new TextRun(', '),
                new TextRun({ text: 'm', bold: true }),
                new TextRun({ text: '3', bold: true, superScript: true }),
                new TextRun(' claim'),
                new FootnoteReferenceRun(1),
              ],
            }),
            new Table({
              rows: [
                new TableRow({ children: [new TableCell({ children: [new Paragraph('Gas')] })] }),
                new TableRow({
                  children: [
                    new TableCell({
                      children: [
                        new Paragraph({ children: [new TextRun('CO'), new TextRun({ text: '2', subScript: true })] }),
                      ],
                    }),
                  ],
                }),
              ],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe(
      'x<sup>2</sup> and H<sub>2</sub>O, e<sup>iπ</sup>, **m<sup>3</sup>** claim[^1]\n\n| Gas |\n| --- |\n| CO<sub>2</sub> |\n\n[^1]: Source\n',
    );
  });

  it('When a footnote has two paragraphs and a table cell holds a list and two paragraphs, then the note keeps both paragraphs and the cell stays one line', async () => {
    const doc = new Document({
      footnotes: {
        1: {
          children: [
            new Paragraph('First *note* part.'),
            new Paragraph({ children: [new TextRun({ text: 'Second', bold: true })] }),
          ],
        },
      },
      numbering: {
        config: [
          {
            reference: 'numbers',
            levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }],
          },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({ children: [new TextRun('Claim'), new FootnoteReferenceRun(1)] }),
            new Table({
              rows: [
                new TableRow({
                  children: [
                    new TableCell({ children: [new Paragraph('Head')] }),
                    new TableCell({ children: [new Paragraph('Other')] }),
                  ],
                }),
                new TableRow({
                  children: [
                    new TableCell({
                      children: [
                        new Paragraph({ text: 'one', numbering: { reference: 'numbers', level: 0 } }),
                        new Paragraph({ text: 'two', numbering: { reference: 'numbers', level: 0 } }),
                      ],
                    }),
                    new TableCell({
                      children: [
                        new Paragraph({ children: [new TextRun({ text: 'a', italics: true })] }),
                        new Paragraph('b|c'),
                      ],
                    }),
                  ],
                }),
              ],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe(
      'Claim[^1]\n\n| Head | Other |\n| --- | --- |\n| 1. one 2. two | *a* b\\|c |\n\n[^1]: First \\*note\\* part.\n\n    **Second**\n',
    );
  });

  it('When the text is Japanese and Arabic, then it comes through unchanged', async () => {
    const input = await docx([new Paragraph('日本語のテキスト'), new Paragraph('مرحبا بالعالم')]);
    const { markdown } = await convertDocument(input, 'docx', std);
    expect(markdown).toBe('日本語のテキスト\n\nمرحبا بالعالم\n');
  });

  it('When the document is empty, then the Markdown is empty', async () => {
    const { markdown } = await convertDocument(await docx([]), 'docx', std);
    expect(markdown).toBe('');
  });

  it('When the file is not a zip, then it fails as a corrupt file', async () => {
    await expect(convertDocument(Buffer.from('not a docx'), 'docx', std)).rejects.toMatchObject({
      code: 'corrupt_file',
    });
  });

  it('When a zip entry declares a huge inflated size, then it is refused as a zip bomb before inflating', async () => {
    const zip = Buffer.from(zipSync({ 'word/document.xml': new Uint8Array(40 * 1024 * 1024) }, { level: 9 }));
    await expect(convertDocument(zip, 'docx', std)).rejects.toMatchObject({ code: 'too_large' });
  });

  it('When the package holds a 1.5 MB picture that packs 700:1 (a metafile), then it converts: only entries over 16 MB are judged by their ratio', async () => {
    const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const picture = new Uint8Array(1536 * 1024);
    picture.set(strToU8(' EMF'), 40);
    const zip = Buffer.from(
      zipSync(
        {
          'word/document.xml': strToU8(
            `<w:document ${ns}><w:body><w:p><w:r><w:t>Quarterly chart</w:t></w:r></w:p></w:body></w:document>`,
          ),
          'word/media/image1.emf': picture,
        },
        { level: 9 },
      ),
    );
    expect(picture.length / zip.length).toBeGreaterThan(200);
    expect((await convertDocument(zip, 'docx', std)).markdown).toBe('Quarterly chart\n');
  });

  it('When the document imports HTML chunks (w:altChunk: an HTML part, and a web archive as html-docx-js writes one), then their content is read where each sits', async () => {
    const ns =
      'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const chunkRel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk';
    const mht = [
      'MIME-Version: 1.0',
      'Content-Type: multipart/related; type="text/html"; boundary="NEXT.ITEM-boundary"',
      '',
      '--NEXT.ITEM-boundary',
      'Content-Type: text/html; charset="utf-8"',
      'Content-Transfer-Encoding: quoted-printable',
      'Content-Location: file:///C:/fake/document.html',
      '',
      '<html><body><h2>Terms</h2><ul><li>Pay within 30 days</li><li>Ship by r=',
      'oad</li></ul><p>Signed: Jos=C3=A9</p></body></html>',
      '',
      '--NEXT.ITEM-boundary--',
      '',
    ].join('\r\n');
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${ns}><w:body><w:p><w:r><w:t>Cover letter</w:t></w:r></w:p><w:altChunk r:id="html1"/>` +
            '<w:p><w:r><w:t>Between the chunks</w:t></w:r></w:p><w:altChunk r:id="mht1"/></w:body></w:document>',
        ),
        'word/_rels/document.xml.rels': strToU8(
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
            `<Relationship Id="html1" Type="${chunkRel}" Target="/word/chunk.html"/>` +
            `<Relationship Id="mht1" Type="${chunkRel}" Target="afchunk.mht"/></Relationships>`,
        ),
        'word/chunk.html': strToU8(
          '<html><body><p>Dear <b>client</b>,</p><table><tr><th>Item</th><th>Cost</th></tr><tr><td>Desk</td><td>90</td></tr></table></body></html>',
        ),
        'word/afchunk.mht': strToU8(mht),
      }),
    );
    expect((await convertDocument(zip, 'docx', std)).markdown).toBe(
      'Cover letter\n\nDear **client**,\n\n| Item | Cost |\n| --- | --- |\n| Desk | 90 |\n\nBetween the chunks\n\n' +
        '## Terms\n\n- Pay within 30 days\n- Ship by road\n\nSigned: José\n',
    );
  });

  it('When the package has no document part, then it fails with a clear message', async () => {
    const zip = Buffer.from(zipSync({ '[Content_Types].xml': strToU8('<Types/>') }));
    await expect(convertDocument(zip, 'docx', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message: 'The DOCX file has no document part (word/document.xml).',
    });
  });

  it('When styles and numbering use another prefix and carry latent styles, then headings, code and list numbers still come from them', async () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const styles =
      `<x:styles ${ns}><x:latentStyles><x:lsdException x:name="heading 1" x:uiPriority="9"/></x:latentStyles>` +
      '<x:style x:type="paragraph" x:default="1" x:styleId="Normal"><x:name x:val="Normal"/></x:style>' +
      '<x:style x:type="paragraph" x:styleId="Title1"><x:name x:val="Report &amp; Title"/><x:basedOn x:val="Normal"/>' +
      '<x:pPr><x:outlineLvl x:val="0"/></x:pPr></x:style>' +
      '<x:style x:type="paragraph" x:styleId="Src"><x:name x:val="Source"/><x:rPr><x:rFonts x:ascii="Courier New"/></x:rPr></x:style>' +
      '<x:style x:type="paragraph" x:styleId="Steps"><x:name x:val="Steps"/><x:pPr><x:numPr><x:numId x:val="7"/></x:numPr></x:pPr></x:style>' +
      '</x:styles>';
    const numbering =
      `<x:numbering ${ns}><x:abstractNum x:abstractNumId="3"><x:lvl x:ilvl="0"><x:start x:val="1"/>` +
      '<x:numFmt x:val="decimal"/><x:lvlText x:val="%1."/></x:lvl></x:abstractNum>' +
      '<x:num x:numId="7"><x:abstractNumId x:val="3"/><x:lvlOverride x:ilvl="0"><x:startOverride x:val="4"/></x:lvlOverride></x:num>' +
      '</x:numbering>';
    const para = (style: string, text: string) =>
      `<x:p><x:pPr><x:pStyle x:val="${style}"/></x:pPr><x:r><x:t xml:space="preserve">${text}</x:t></x:r></x:p>`;
    const body =
      para('Title1', 'Budget') +
      para('Steps', 'Approve') +
      para('Steps', 'Publish') +
      para('Src', 'SELECT total FROM budget;');
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(`<x:document ${ns}><x:body>${body}</x:body></x:document>`),
        'word/styles.xml': strToU8(styles),
        'word/numbering.xml': strToU8(numbering),
      }),
    );
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe('# Budget\n\n4. Approve\n5. Publish\n\n```\nSELECT total FROM budget;\n```\n');
  });

  it("When a list's first item uses a restarting numbering instance and the rest the plain one, as LibreOffice writes it, then the items are one list until the next restart", async () => {
    const restart = '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>';
    const numbering =
      '<w:abstractNum w:abstractNumId="2">' +
      '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>' +
      '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl></w:abstractNum>' +
      '<w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num>' +
      `<w:num w:numId="4"><w:abstractNumId w:val="2"/>${restart}</w:num>` +
      `<w:num w:numId="5"><w:abstractNumId w:val="2"/>${restart}</w:num>`;
    const body =
      numberedItem('4', 0, 'Select the sites.') +
      numberedItem('2', 1, 'Urban first.') +
      numberedItem('2', 0, 'Visit each site.') +
      numberedItem('2', 0, 'Write the report.') +
      '<w:p><w:r><w:t>Second round</w:t></w:r></w:p>' +
      numberedItem('5', 0, 'Call the owners.') +
      numberedItem('2', 0, 'Book the visits.');
    const zip = numberedDocx(body, numbering);
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe(
      '1. Select the sites.\n   1. Urban first.\n2. Visit each site.\n3. Write the report.\n\n' +
        'Second round\n\n1. Call the owners.\n2. Book the visits.\n',
    );
  });

  it('When each nesting level has its own restarting instance of one numbering, as pandoc writes it, then the outer list resumes after the nested one', async () => {
    const restart = [0, 1]
      .map((l) => `<w:lvlOverride w:ilvl="${l}"><w:startOverride w:val="1"/></w:lvlOverride>`)
      .join('');
    const numbering =
      '<w:abstractNum w:abstractNumId="9">' +
      '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>' +
      '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%2."/></w:lvl></w:abstractNum>' +
      `<w:num w:numId="1002"><w:abstractNumId w:val="9"/>${restart}</w:num>` +
      `<w:num w:numId="1003"><w:abstractNumId w:val="9"/>${restart}</w:num>`;
    const body =
      numberedItem('1002', 0, 'Budget approved.') +
      numberedItem('1002', 0, 'Audit monthly.') +
      numberedItem('1003', 1, 'First in April.') +
      numberedItem('1002', 0, 'Website redesigned.');
    const zip = numberedDocx(body, numbering);
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe('1. Budget approved.\n2. Audit monthly.\n   1. First in April.\n3. Website redesigned.\n');
  });

  it('When a paragraph has runs of spaces and no-break spaces, then each run is one space, or one no-break space when it holds one', async () => {
    const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const text = 'Total:   12\u00a0 \u00a0000 and  more';
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${ns}><w:body><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:body></w:document>`,
        ),
      }),
    );
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe('Total: 12\u00a0000 and more\n');
  });

  it('When styles.xml is not well-formed, then the document still converts with the styles that could be read', async () => {
    const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${ns}><w:body><w:p><w:pPr><w:pStyle w:val="H"/></w:pPr><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>`,
        ),
        'word/styles.xml': strToU8(
          `<w:styles ${ns}><w:style w:styleId="H"><w:name w:val="heading 1"/></w:styl></w:styles>`,
        ),
      }),
    );
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe('# Hi\n');
  });

  it('When the notes and comments parts are damaged but the body refers to none of them, then the document converts without reading them', async () => {
    const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    // Entity declarations fail any part that is parsed: these parts are read only when referred to.
    const refused = (root: string) => strToU8(`<!DOCTYPE w:${root} [<!ENTITY x "y">]><w:${root} ${ns}/>`);
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${ns}><w:background/><w:body><w:p><w:r><w:t>Plain text</w:t></w:r></w:p></w:body></w:document>`,
        ),
        'word/footnotes.xml': refused('footnotes'),
        'word/endnotes.xml': refused('endnotes'),
        'word/comments.xml': refused('comments'),
      }),
    );
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe('Plain text\n');
  });

  it('When a paragraph style is bold through the style it is based on, then its runs are strong and a run with bold turned off directly is plain', async () => {
    const doc = new Document({
      styles: {
        paragraphStyles: [
          { id: 'Loud', name: 'Loud', run: { bold: true } },
          { id: 'Louder', name: 'Louder', basedOn: 'Loud', run: { color: 'FF0000' } },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({
              style: 'Louder',
              children: [new TextRun('Warning: '), new TextRun({ text: 'read this', bold: false })],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('**Warning:** read this\n');
  });

  it('When a character style is based on an italic one and a paragraph style is superscript, then the runs are emphasised and raised', async () => {
    const doc = new Document({
      styles: {
        paragraphStyles: [{ id: 'Raised', name: 'Raised', run: { superScript: true } }],
        characterStyles: [
          { id: 'Slant', name: 'Slant', run: { italics: true } },
          { id: 'Term', name: 'Term', basedOn: 'Slant', run: { color: '0000FF' } },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({
              children: [new TextRun('A '), new TextRun({ text: 'term', style: 'Term' }), new TextRun('.')],
            }),
            new Paragraph({ style: 'Raised', children: [new TextRun('up')] }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('A *term*.\n\n<sup>up</sup>\n');
  });

  it('When a bold character style is used in a bold paragraph style, then the toggle rule leaves that run plain', async () => {
    const doc = new Document({
      styles: {
        paragraphStyles: [{ id: 'Loud', name: 'Loud', run: { bold: true } }],
        characterStyles: [{ id: 'Stress', name: 'Stress', run: { bold: true } }],
      },
      sections: [
        {
          children: [
            new Paragraph({
              style: 'Loud',
              children: [new TextRun('Bold '), new TextRun({ text: 'not', style: 'Stress' })],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('**Bold** not\n');
  });

  it('When the document defaults are italic, then body runs are emphasised unless a run turns italic off', async () => {
    const doc = new Document({
      styles: { default: { document: { run: { italics: true } } } },
      sections: [
        {
          children: [
            new Paragraph({ children: [new TextRun('Quiet '), new TextRun({ text: 'upright', italics: false })] }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('*Quiet* upright\n');
  });

  it('When a heading style is bold, then the heading has no strong markers and only a run bold of its own is strong', async () => {
    const doc = new Document({
      styles: { default: { heading1: { run: { bold: true } } } },
      sections: [
        {
          children: [
            new Paragraph({
              heading: HeadingLevel.HEADING_1,
              children: [new TextRun('Results '), new TextRun({ text: 'now', bold: true })],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('# Results **now**\n');
  });

  it('When a quote style is italic, then the quote has no emphasis markers', async () => {
    const doc = new Document({
      styles: { paragraphStyles: [{ id: 'Quote', name: 'Quote', run: { italics: true } }] },
      sections: [{ children: [new Paragraph({ style: 'Quote', children: [new TextRun('Less is more.')] })] }],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('> Less is more.\n');
  });

  it("When a paragraph is in LibreOffice's Quotations style (an HTML blockquote saved as DOCX), then it is a block quote", async () => {
    const doc = new Document({
      styles: { paragraphStyles: [{ id: 'Quotations', name: 'Quotations' }] },
      sections: [
        {
          children: [
            new Paragraph('The mayor said:'),
            new Paragraph({ style: 'Quotations', children: [new TextRun('It is the busiest crossing in the city.')] }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('The mayor said:\n\n> It is the busiest crossing in the city.\n');
  });

  it("When a paragraph is in Word's Block Text style (pandoc's DOCX of a block quote), then it is a block quote", async () => {
    const doc = new Document({
      styles: { paragraphStyles: [{ id: 'BlockText', name: 'Block Text' }] },
      sections: [
        {
          children: [
            new Paragraph('The mayor said:'),
            new Paragraph({ style: 'BlockText', children: [new TextRun('It is the busiest crossing in the city.')] }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('The mayor said:\n\n> It is the busiest crossing in the city.\n');
  });

  it("When paragraphs are in LibreOffice's List Heading / List Contents or pandoc's Definition Term / Definition styles, then each term is a bold item with its definitions under it", async () => {
    const doc = new Document({
      styles: {
        paragraphStyles: [
          { id: 'ListHeading', name: 'List Heading' },
          { id: 'ListContents', name: 'List Contents' },
          { id: 'DefinitionTerm', name: 'Definition Term', run: { bold: true } },
          { id: 'Definition', name: 'Definition' },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({ style: 'ListHeading', text: 'Boiler' }),
            new Paragraph({ style: 'ListContents', text: 'A closed vessel.' }),
            new Paragraph({ style: 'ListContents', text: 'Heats water.' }),
            new Paragraph({ style: 'ListHeading', text: 'Damper' }),
            new Paragraph({ style: 'ListContents', text: 'A plate in a duct.' }),
            new Paragraph('Between.'),
            new Paragraph({ style: 'DefinitionTerm', children: [new TextRun({ text: 'Valve', bold: true })] }),
            new Paragraph({ style: 'Definition', text: 'Controls flow.' }),
            new Paragraph({ style: 'ListHeading', text: 'Alone' }),
            new Paragraph('After.'),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe(
      '- **Boiler**\n  - A closed vessel.\n  - Heats water.\n- **Damper**\n  - A plate in a duct.\n\nBetween.\n\n' +
        '- **Valve**\n  - Controls flow.\n\nAlone\n\nAfter.\n',
    );
  });

  it('When heading styles carry localised names and no outline level, then they are headings of their number', async () => {
    const doc = new Document({
      styles: {
        paragraphStyles: [
          { id: 'Titel', name: 'Titel', run: { size: 48 } },
          { id: 'Titre2', name: 'Titre 2', run: { size: 28, bold: true } },
          { id: 'berschrift3', name: 'Überschrift 3', run: { bold: true } },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({ style: 'Titel', text: 'Rapport annuel' }),
            new Paragraph({ style: 'Titre2', text: 'Méthode' }),
            new Paragraph({ style: 'berschrift3', text: 'Ablauf' }),
            new Paragraph('Text.'),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('# Rapport annuel\n\n## Méthode\n\n### Ablauf\n\nText.\n');
  });

  it("When runs are in pandoc's Verbatim Char or LibreOffice's Source Text style (or Source_Text, pandoc's ODT name kept), then they are inline code, spaces kept and bold around", async () => {
    const doc = new Document({
      styles: {
        characterStyles: [
          { id: 'VerbatimChar', name: 'Verbatim Char', run: { font: 'Consolas' } },
          { id: 'SourceText', name: 'Source Text', run: { font: 'Liberation Mono' } },
          { id: 'SourceText2', name: 'Source_Text', run: { font: 'Liberation Mono' } },
        ],
      },
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Run '),
                new TextRun({ text: 'make  all', style: 'VerbatimChar' }),
                new TextRun(' and edit '),
                new TextRun({ text: 'config.yml', style: 'SourceText', bold: true }),
                new TextRun(', then '),
                new TextRun({ text: 'ls', style: 'SourceText2' }),
                new TextRun('.'),
              ],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe('Run `make  all` and edit **`config.yml`**, then `ls`.\n');
  });

  it('When short monospaced lines without code characters stand beside monospaced code (a python-docx script), then they are lines of its block, and a monospaced sentence is not', async () => {
    const mono = (text: string) => new Paragraph({ children: [new TextRun({ text, font: 'Consolas' })] });
    const body = [
      mono('#!/bin/sh'),
      mono('for db in $(list); do'),
      mono('  dump "$db"'),
      mono('done'),
      new Paragraph({ children: [new TextRun({ text: 'A note set in a typewriter face.', font: 'Courier New' })] }),
      mono('done'),
    ];
    const { markdown } = await convertDocument(await docx(body), 'docx', std);
    expect(markdown).toBe(
      '```\n#!/bin/sh\nfor db in $(list); do\n  dump "$db"\ndone\n```\n\nA note set in a typewriter face.\n\ndone\n',
    );
  });

  it('When a paragraph holds a SmartArt diagram, then its text follows as a list nested as its outline', async () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const WP = 'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"';
    const drawing = `<w:drawing><wp:inline ${WP}><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Diagram 1"/>${SMARTART_GRAPHIC}</wp:inline></w:drawing>`;
    const body = `<w:p><w:r><w:t>Our process:</w:t></w:r></w:p><w:p><w:r>${drawing}</w:r></w:p><w:p><w:r><w:t>Done.</w:t></w:r></w:p>`;
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
        'word/_rels/document.xml.rels': strToU8(
          `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${DIAGRAM_DATA_REL}</Relationships>`,
        ),
        'word/diagrams/data1.xml': strToU8(smartArtData()),
      }),
    );
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe('Our process:\n\n- Plan\n- Build\n  - Test the parts\n- Ship\n\nDone.\n');
  });
  it('When a paragraph breaks its lines (w:br, w:cr: an address, a transcript), then each break is a hard line break, and a page break is not', async () => {
    const r = (inner: string) => `<w:r>${inner}</w:r>`;
    const body =
      `<w:p>${r('<w:t>0:0:0.0 --&gt; 0:0:1.510</w:t><w:br/><w:t>Some Body</w:t><w:cr/><w:t>OK.</w:t>')}</w:p>` +
      `<w:p>${r('<w:t>Before</w:t><w:br w:type="page"/><w:t>after</w:t>')}${r('<w:br/>')}</w:p>` +
      `<w:tbl><w:tr><w:tc><w:p>${r('<w:t>a</w:t><w:br/><w:t>b</w:t>')}</w:p></w:tc></w:tr><w:tr><w:tc><w:p>${r('<w:t>c</w:t>')}</w:p></w:tc></w:tr></w:tbl>`;
    const { markdown } = await convertDocument(numberedDocx(body, ''), 'docx', std);
    expect(markdown).toBe('0:0:0.0 --> 0:0:1.510\\\nSome Body\\\nOK.\n\nBefore after\n\n| a b |\n| --- |\n| c |\n');
  });

  it("When a DOCX holds charts (inline, anchored inside mc:AlternateContent, in a table cell), then each chart's title, kind and data follow its paragraph, or its table, as a slide's chart reads", async () => {
    const W =
      'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';
    const NS =
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
      'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const graphic = (id: string) =>
      `<wp:docPr id="${id}" name="Chart ${id}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rId${id}"/></a:graphicData></a:graphic>`;
    const inline = (id: string) => `<w:drawing><wp:inline ${NS}>${graphic(id)}</wp:inline></w:drawing>`;
    const anchored = (id: string) =>
      `<mc:AlternateContent><mc:Choice Requires="c14"><w:drawing><wp:anchor ${NS}>${graphic(id)}</wp:anchor></w:drawing></mc:Choice>` +
      '<mc:Fallback><w:pict/></mc:Fallback></mc:AlternateContent>';
    const p = (inner: string) => `<w:p>${inner}</w:p>`;
    const r = (inner: string) => `<w:r>${inner}</w:r>`;
    const t = (text: string) => r(`<w:t xml:space="preserve">${text}</w:t>`);
    const cell = (inner: string) => `<w:tc>${p(inner)}</w:tc>`;
    const body =
      p(t('Sales rose ') + r(inline('1')) + t('in spring.')) +
      p(r(anchored('2')) + t('Rain by month.')) +
      `<w:tbl><w:tr>${cell(t('Figure 3'))}${cell(r(inline('3')))}</w:tr></w:tbl>` +
      p(t('End.'));
    const points = (values: string[]) =>
      `<c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}`;
    const chart = (kind: string, title: string, categories: string[], series: Array<[string, string[]]>) =>
      `<c:chartSpace ${NS}><c:chart>` +
      (title ? `<c:title><c:tx><c:rich><a:p><a:r><a:t>${title}</a:t></a:r></a:p></c:rich></c:tx></c:title>` : '') +
      `<c:plotArea><c:${kind}>` +
      series
        .map(
          ([name, values], i) =>
            `<c:ser><c:idx val="${i}"/><c:tx><c:strRef><c:f>Sheet1!$${'BC'[i]}$1</c:f><c:strCache>${points([name])}</c:strCache></c:strRef></c:tx>` +
            `<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$3</c:f><c:strCache>${points(categories)}</c:strCache></c:strRef></c:cat>` +
            `<c:val><c:numRef><c:f>Sheet1!$B$2:$B$3</c:f><c:numCache>${points(values)}</c:numCache></c:numRef></c:val></c:ser>`,
        )
        .join('') +
      `</c:${kind}></c:plotArea></c:chart></c:chartSpace>`;
    const rel = (id: string) =>
      `<Relationship Id="rId${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart${id}.xml"/>`;
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
        'word/_rels/document.xml.rels': strToU8(
          `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('1')}${rel('2')}${rel('3')}</Relationships>`,
        ),
        'word/charts/chart1.xml': strToU8(
          chart(
            'barChart',
            'Sales',
            ['March', 'April'],
            [
              ['North', ['5', '8']],
              ['South', ['3', '4']],
            ],
          ),
        ),
        'word/charts/chart2.xml': strToU8(chart('lineChart', '', ['May', 'June'], [['Rain', ['12.5', '7']]])),
        'word/charts/chart3.xml': strToU8(chart('pieChart', 'Share', ['East', 'West'], [['Part', ['60', '40']]])),
      }),
    );
    const { markdown } = await convertDocument(zip, 'docx', std);
    expect(markdown).toBe(
      'Sales rose in spring.\n\n**Sales**\n\n*Bar chart*\n\n|  | North | South |\n| --- | --- | --- |\n| March | 5 | 3 |\n| April | 8 | 4 |\n\n' +
        'Rain by month.\n\n*Line chart*\n\n|  | Rain |\n| --- | --- |\n| May | 12.5 |\n| June | 7 |\n\n' +
        '| Figure 3 |  |\n| --- | --- |\n\n**Share**\n\n*Pie chart*\n\n|  | Part |\n| --- | --- |\n| East | 60 |\n| West | 40 |\n\nEnd.\n',
    );
  });
  it("When a footnote holds a hyperlink, then its address is the footnotes part's relationship, not the body's", async () => {
    const doc = new Document({
      footnotes: {
        1: {
          children: [
            new Paragraph({
              children: [
                new TextRun('See '),
                new ExternalHyperlink({ link: 'https://example.org/notes', children: [new TextRun('the notes')] }),
              ],
            }),
          ],
        },
      },
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new ExternalHyperlink({ link: 'https://example.com/body', children: [new TextRun('Body link')] }),
                new FootnoteReferenceRun(1),
              ],
            }),
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(await Packer.toBuffer(doc), 'docx', std);
    expect(markdown).toBe(
      '[Body link](https://example.com/body)[^1]\n\n[^1]: See [the notes](https://example.org/notes)\n',
    );
  });

  it('When a comment is on letters inside a word, then its mark follows the whole word; a mark after a word stays', async () => {
    const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const run = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
    const mark = (id: string) => `<w:r><w:commentReference w:id="${id}"/></w:r>`;
    const comment = (id: string, t: string) =>
      `<w:comment w:id="${id}" w:author="Ana"><w:p>${run(t)}</w:p></w:comment>`;
    const input = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${w}><w:body><w:p>${run('The [t')}${mark('0')}${run('es')}<w:r><w:rPr><w:b/></w:rPr><w:t>t</w:t></w:r>` +
            `${mark('1')}${run('] ends here')}${mark('2')}${run('. Sp')}${mark('3')}${run('elled out.')}</w:p></w:body></w:document>`,
        ),
        'word/comments.xml': strToU8(
          `<w:comments ${w}>${comment('0', 'Lowercase?')}${comment('1', 'Bold?')}${comment('2', 'Fine')}${comment('3', 'Typo')}</w:comments>`,
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'docx', std);
    expect(markdown.split('\n')[0]).toBe('The \\[tes**t**[^c1][^c2]\\] ends here[^c3]. Spelled[^c4] out.');
  });

  it('When a comment and a footnote each name relationship rId1 of their own part, then each link goes where its part says', async () => {
    const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const r = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const rels = (target: string) =>
      strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${target}" TargetMode="External"/></Relationships>`,
      );
    const link = '<w:hyperlink r:id="rId1"><w:r><w:t>link</w:t></w:r></w:hyperlink>';
    const input = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${w} ${r}><w:body><w:p>${link}<w:r><w:footnoteReference w:id="1"/></w:r>` +
            '<w:commentRangeStart w:id="0"/><w:r><w:t xml:space="preserve"> text</w:t></w:r><w:commentRangeEnd w:id="0"/>' +
            '<w:r><w:commentReference w:id="0"/></w:r></w:p></w:body></w:document>',
        ),
        'word/_rels/document.xml.rels': rels('https://example.com/body'),
        'word/footnotes.xml': strToU8(
          `<w:footnotes ${w} ${r}><w:footnote w:id="1"><w:p><w:r><w:t xml:space="preserve">Note </w:t></w:r>${link}</w:p></w:footnote></w:footnotes>`,
        ),
        'word/_rels/footnotes.xml.rels': rels('https://example.com/note'),
        'word/comments.xml': strToU8(
          `<w:comments ${w} ${r}><w:comment w:id="0" w:author="Ana"><w:p><w:r><w:t xml:space="preserve">Comment </w:t></w:r>${link}</w:p></w:comment></w:comments>`,
        ),
        'word/_rels/comments.xml.rels': rels('https://example.com/comment'),
      }),
    );
    const { markdown } = await convertDocument(input, 'docx', std);
    expect(markdown).toContain('[link](https://example.com/body)');
    expect(markdown).toContain('[^1]: Note [link](https://example.com/note)');
    expect(markdown).toContain('Comment by Ana: Comment [link](https://example.com/comment)');
  });
  it("When a symbol is inserted from the Symbol font (w:sym) or text is typed in it, then its Greek letters and signs are read; another symbol font's stays out", async () => {
    const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const run = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
    const body =
      `<w:p>${run('x ')}<w:r><w:sym w:font="Symbol" w:char="F0B3"/></w:r>${run(' 5, ')}` +
      '<w:r><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr><w:t>a+b</w:t></w:r>' +
      `${run(' and ')}<w:r><w:sym w:font="Webdings" w:char="F0FC"/></w:r>${run('end')}</w:p>`;
    const input = Buffer.from(
      zipSync({ 'word/document.xml': strToU8(`<w:document ${w}><w:body>${body}</w:body></w:document>`) }),
    );
    expect((await convertDocument(input, 'docx', std)).markdown).toBe('x ≥ 5, α+β and end\n');
  });
});

describe('DOCX Wingdings marks', () => {
  it("When check marks, boxes and bullets are typed or inserted in Wingdings (ü, þ, §), then they read as ✓, ☑ and a list's bullet; Wingdings pictures stay out", async () => {
    const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const wingdings = (t: string) =>
      `<w:r><w:rPr><w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/></w:rPr><w:t xml:space="preserve">${t}</w:t></w:r>`;
    const run = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
    const cell = (inner: string) => `<w:tc><w:p>${inner}</w:p></w:tc>`;
    const body =
      `<w:tbl><w:tr>${cell(run('Feature'))}${cell(run('Ours'))}</w:tr><w:tr>${cell(run('Export'))}${cell(wingdings('ü'))}</w:tr>` +
      `<w:tr>${cell(run('Import'))}${cell('<w:r><w:sym w:font="Wingdings" w:char="F0FE"/></w:r>')}</w:tr></w:tbl>` +
      `<w:p>${wingdings('§')}<w:r><w:tab/><w:t>Tent</w:t></w:r></w:p><w:p>${wingdings('§')}<w:r><w:tab/><w:t>Stove</w:t></w:r></w:p>` +
      `<w:p>${run('Good ')}${wingdings('C')}${run('work')}</w:p>`;
    const input = Buffer.from(
      zipSync({ 'word/document.xml': strToU8(`<w:document ${w}><w:body>${body}</w:body></w:document>`) }),
    );
    expect((await convertDocument(input, 'docx', std)).markdown).toBe(
      '| Feature | Ours |\n| --- | --- |\n| Export | ✓ |\n| Import | ☑ |\n\n- Tent\n- Stove\n\nGood work\n',
    );
  });
});

describe('DOCX lists typed as text', () => {
  it('When paragraphs open with a typed bullet and a tab (or with numbers counting up), then they are lists without the typed markers; a row of choices and a lone number stay paragraphs', async () => {
    const typed = (marker: string, text: string, font?: string) =>
      new Paragraph({ children: [new TextRun({ text: marker, font }), new TextRun({ text: `\t${text}` })] });
    const input = await docx([
      new Paragraph('Pack:'),
      typed('•', 'Tent'),
      typed('\uf0b7', 'Stove', 'Symbol'),
      new Paragraph('Then:'),
      typed('1.', 'Pitch the tent.'),
      typed('2.', 'Light the stove.'),
      new Paragraph('○ Yes ○ No'),
      typed('1.', 'A lone number.'),
    ]);
    expect((await convertDocument(input, 'docx', std)).markdown).toBe(
      'Pack:\n\n- Tent\n- Stove\n\nThen:\n\n1. Pitch the tent.\n2. Light the stove.\n\n○ Yes ○ No\n\n1\\. A lone number.\n',
    );
  });
});

describe('DOCX Office 2016 charts', () => {
  it('When a DOCX holds a waterfall chart (a chartEx part in mc:Choice, a picture as its fallback), then its title, kind and data follow its paragraph', async () => {
    const W =
      'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ' +
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
    const body =
      '<w:p><w:r><w:t>Cash over the year.</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="cx1">' +
      `<w:drawing><wp:inline><wp:docPr id="1" name="Chart 1"/>${chartExGraphic('rId7')}</wp:inline></w:drawing></mc:Choice>` +
      '<mc:Fallback><w:drawing><wp:inline><wp:docPr id="2" name="Chart 1"/><a:graphic><a:graphicData><a:blip/></a:graphicData></a:graphic></wp:inline></w:drawing></mc:Fallback>' +
      '</mc:AlternateContent></w:r></w:p><w:p><w:r><w:t>End.</w:t></w:r></w:p>';
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
        'word/_rels/document.xml.rels': strToU8(
          `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId7" Type="${CHARTEX_REL}" Target="charts/chartEx1.xml"/></Relationships>`,
        ),
        'word/charts/chartEx1.xml': strToU8(
          chartExPart({
            title: 'Cash flow',
            layout: 'waterfall',
            levels: [['Opening', 'Sales', 'Costs', 'Closing']],
            series: [{ name: 'Change', values: ['100', '40', '-25.000000000000004', '115'] }],
          }),
        ),
      }),
    );
    expect((await convertDocument(zip, 'docx', std)).markdown).toBe(
      'Cash over the year.\n\n**Cash flow**\n\n*Waterfall chart*\n\n|  | Change |\n| --- | --- |\n| Opening | 100 |\n| Sales | 40 |\n| Costs | -25 |\n| Closing | 115 |\n\nEnd.\n',
    );
  });
});
