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
import { convertDocument } from '../../src';

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

describe('DOCX', () => {
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

  it('When the package has no document part, then it fails with a clear message', async () => {
    const zip = Buffer.from(zipSync({ '[Content_Types].xml': strToU8('<Types/>') }));
    await expect(convertDocument(zip, 'docx', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message: 'The DOCX file has no document part (word/document.xml).',
    });
  });
});
