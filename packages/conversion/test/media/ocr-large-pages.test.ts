import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { MAX_RENDER_PIXELS, renderDpi } from '../../src/readers/shared/ocr/scanned-pdf';

afterAll(() => closeConversionWorkers());
jest.setTimeout(180_000);
const limits = { timeoutMs: 180_000, maxMemoryMb: 1536 };
const std = { enhanced: false };

/** White image of `width` x `height` px with lines of black text (DejaVu Sans, `size` px) from the top. */
function textImage(width: number, height: number, lines: string[], size: number): Promise<Buffer> {
  const texts = lines
    .map((t, i) => `<text x="40" y="${(i + 2) * size * 1.6}" font-family="DejaVu Sans" font-size="${size}">${t}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${texts}</svg>`;
  return sharp(Buffer.from(svg), { limitInputPixels: false }).png().toBuffer();
}

/** A one-page PDF of `points` x `points` whose page is the image, as a scanner or capture tool saves it. */
function scannedPdf(scan: Buffer, points: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: [points, points], margin: 0 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.image(scan, 0, 0, { width: points, height: points });
    doc.end();
  });
}

describe('OCR of large pages and images', () => {
  it('When a scanned page is larger than the image limit at 200 dpi (a 42-inch poster scanned at 72 ppi), then it is rendered at its scan’s resolution and read, not refused', async () => {
    const scan = await textImage(3000, 3000, ['Regional planning poster', 'Open house on Friday'], 80);
    const { markdown } = await convertIsolated(await scannedPdf(scan, 3000), 'pdf', std, limits);
    expect(markdown.replace(/\s+/g, ' ').trim()).toBe('Regional planning poster Open house on Friday');
  });

  it('When a page is rendered for OCR, then the resolution is 200 dpi, no finer than a screen-resolution scan and within the pixel budget', () => {
    const letter = { number: 1, width: 612, height: 792 };
    const a0 = { number: 1, width: 2384, height: 3370 };
    const dpi = renderDpi(a0, undefined);
    const dpis = [renderDpi(letter, undefined), renderDpi(letter, 300), renderDpi(letter, 150), renderDpi(letter, 96)];
    expect([...dpis, dpi]).toEqual([200, 200, 200, 96, 127]);
    expect((((a0.width / 72) * a0.height) / 72) * dpi * dpi).toBeLessThanOrEqual(MAX_RENDER_PIXELS);
  });

  it('When an image is taller than Tesseract reads (36,000 px), then it is scaled down to that and read, not failed', async () => {
    const top = await textImage(400, 2000, ['Receipt 4471', 'Total paid'], 28);
    const image = await sharp(top).extend({ bottom: 34_000, background: 'white' }).png().toBuffer();
    const { markdown } = await convertIsolated(image, 'png', std, limits);
    expect(markdown.replace(/\s+/g, ' ').trim()).toBe('Receipt 4471 Total paid');
  });
});
