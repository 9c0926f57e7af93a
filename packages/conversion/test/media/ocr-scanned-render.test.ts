import childProcess from 'node:child_process';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { closeOcrEngine } from '../../src/readers/shared/ocr/engine';
import { ocrPdfPages } from '../../src/readers/shared/ocr/scanned-pdf';

jest.mock('node:child_process', () => {
  const actual = jest.requireActual<typeof childProcess>('node:child_process');
  return { ...actual, execFile: jest.fn(actual.execFile) };
});

afterAll(() => closeOcrEngine());

describe('rendering scanned PDF pages for OCR', () => {
  it('When a scanned page is rendered for OCR, then pdftoppm writes it as uncompressed TIFF, not as a PNG it spends seconds compressing', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120"><rect width="100%" height="100%" fill="white"/>' +
      '<text x="20" y="70" font-family="DejaVu Sans" font-size="28">Scanned page of a report</text></svg>';
    const scan = await sharp(Buffer.from(svg)).jpeg().toBuffer();
    const pdf = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ size: [450, 90], margin: 0 });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.image(scan, 0, 0, { width: 450 });
      doc.end();
    });
    const words: string[] = [];
    await ocrPdfPages(
      pdf,
      [1],
      async (page) => {
        words.push(...page.words.map((w) => w.text));
        return [];
      },
      [{ number: 1, width: 450, height: 90 }],
    );
    const render = jest.mocked(childProcess.execFile).mock.calls.find(([program]) => program === 'pdftoppm');
    expect([render?.[1]?.slice(7, 10), words.join(' ')]).toEqual([
      ['-tiff', '-tiffcompression', 'none'],
      'Scanned page of a report',
    ]);
  });
});
