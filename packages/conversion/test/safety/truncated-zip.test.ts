import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { strToU8, zipSync } from 'fflate';
import { convertDocument } from '../../src';

const std = { enhanced: false };

/** The package as a download cut off at `end` (a byte offset, or before its central directory). */
function cut(zip: Buffer, end?: number): Buffer {
  return zip.subarray(0, end ?? zip.indexOf('PK\u0001\u0002', 0, 'latin1'));
}

async function report(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Sales grew in every region.'),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

describe('zip packages cut short', () => {
  it('When a DOCX ends before its zip directory (a download cut off), then it is read from its local headers', async () => {
    const { markdown } = await convertDocument(cut(await report()), 'docx', std);
    expect(markdown).toBe('# Quarterly report\n\nSales grew in every region.\n');
  });

  it('When the cut runs through a member after the document part, then what was stored whole before it is read', async () => {
    const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const zip = Buffer.from(
      zipSync({
        'word/document.xml': strToU8(
          `<w:document ${ns}><w:body><w:p><w:r><w:t>Kept</w:t></w:r></w:p></w:body></w:document>`,
        ),
        'word/media/image1.bin': [new Uint8Array(4096).fill(7), { level: 0 }],
      }),
    );
    const { markdown } = await convertDocument(cut(zip, zip.length - 2000), 'docx', std);
    expect(markdown).toBe('Kept\n');
  });

  it('When what remains of a cut package lacks its main part, then the error says the file is cut short', async () => {
    const zip = Buffer.from(
      zipSync({
        '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
        'xl/workbook.xml': strToU8('<workbook/>'),
      }),
    );
    const at = zip.indexOf('xl/workbook.xml', 0, 'latin1');
    await expect(convertDocument(cut(zip, at + 20), 'xlsx', std)).rejects.toThrow(
      /^The .xlsx file is cut short \(its end, with the zip directory, is missing\) and the part that remains cannot be read\.$/,
    );
  });

  it('When a cut package holds a member that inflates far beyond its size (a zip bomb), then it is refused as one', async () => {
    const zip = Buffer.from(zipSync({ 'word/document.xml': new Uint8Array(8 * 1024 * 1024) }, { level: 9 }));
    await expect(convertDocument(cut(zip), 'docx', std)).rejects.toMatchObject({ code: 'too_large' });
  });
});
