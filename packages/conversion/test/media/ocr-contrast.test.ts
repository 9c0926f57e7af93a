import sharp from 'sharp';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { closeOcrEngine } from '../../src/readers/shared/ocr/engine';
import { seeded } from '../seeded-random';

afterAll(() => closeConversionWorkers());
afterAll(() => closeOcrEngine());
const limits = { timeoutMs: 120_000, maxMemoryMb: 1536 };
const std = { enhanced: false };

/** A line of text drawn through SVG (DejaVu Sans), `px` high. */
function text(x: number, y: number, value: string, px: number, style = ''): string {
  return `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${px}" ${style}>${value}</text>`;
}

/** An image of the given size, white, with SVG elements drawn on it. */
function image(width: number, height: number, body: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('text on tinted backgrounds', () => {
  it('When notes on light tinted boxes are most of a sparse page, then the text on the boxes is read', async () => {
    // Little text on a large page: under 1 % of the pixels are ink, and the boxes are the next darkest thing.
    const notes = [
      ['#d1ecf1', 'Note: First aid kits are located beside each exit door.'],
      ['#f8d7da', 'Danger: Do not operate machinery without a supervisor.'],
    ];
    const boxes = notes
      .map(
        ([fill, note], i) =>
          `<rect x="100" y="${300 + i * 160}" width="1500" height="90" fill="${fill}"/>` +
          text(130, 355 + i * 160, note!, 24),
      )
      .join('');
    const { markdown } = await convertIsolated(
      await image(1700, 1400, text(100, 200, 'Safety Briefing', 40, 'font-weight="bold"') + boxes),
      'png',
      std,
      limits,
    );
    expect(markdown).toContain(notes[0]![1]);
    expect(markdown).toContain(notes[1]![1]);
  });

  it('When one line of text (a tiny share of the page) sits in a box of faint grey grain, then the line is read and the grain is not', async () => {
    const [width, height] = [1700, 1300];
    const random = seeded(38);
    const pixels = Buffer.alloc(width * height, 255);
    // A box whose background is near-white grain (levels 244-253), as a scanned or JPEG'd slide has.
    for (let y = 350; y < 800; y++)
      for (let x = 60; x < 1640; x++) pixels[y * width + x] = 244 + Math.floor(random() * 10);
    const line = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
        '<text x="110" y="430" font-family="DejaVu Sans Mono" font-size="30">Happy New Year 2003!</text>' +
        '</svg>',
    );
    const page = await sharp(pixels, { raw: { width, height, channels: 1 } })
      .composite([{ input: line }])
      .png()
      .toBuffer();
    const { markdown } = await convertIsolated(page, 'png', std, limits);
    expect(markdown).toBe('Happy New Year 2003!\n');
  });
});
