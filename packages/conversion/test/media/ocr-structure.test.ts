import sharp from 'sharp';
import PDFDocument from 'pdfkit';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { closeOcrEngine } from '../../src/readers/shared/ocr/engine';

afterAll(() => closeConversionWorkers());
afterAll(() => closeOcrEngine());
const limits = { timeoutMs: 120_000, maxMemoryMb: 1536 };
const std = { enhanced: false };
const paragraphsOf = (markdown: string): string[] => markdown.trim().split('\n\n');

/** A line of text drawn through SVG (DejaVu Sans), `px` high. */
function text(x: number, y: number, value: string, px: number, style = ''): string {
  return `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${px}" ${style}>${value}</text>`;
}

/** An image of the given size, white, with SVG elements drawn on it. */
function image(width: number, height: number, body: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const INTRO = 'Please bring the following items to your first meeting at the hall.';
const ITEMS = [
  'Gloves and a small hand trowel',
  'A notebook for planting records',
  'Seeds you would like to swap with other members',
  'Water bottle and sun hat',
];

describe('lists in images', () => {
  it('When items are set behind round bullets one per line, then each is a list item without its bullet', async () => {
    // Bullets as drawn dots, the way a browser or a word processor draws them; lines at 1.5 pitch.
    const lines = ITEMS.map(
      (item, i) => `<circle cx="52" cy="${143 + i * 30}" r="3.5"/>` + text(70, 150 + i * 30, item, 20),
    );
    const { markdown } = await convertIsolated(
      await image(900, 290, text(30, 60, INTRO, 20) + lines.join('')),
      'png',
      std,
      limits,
    );
    expect(paragraphsOf(markdown)).toEqual([INTRO, ITEMS.map((item) => `- ${item}`).join('\n')]);
  });

  it('When numbered steps are set one per line, then each step is its own item', async () => {
    const steps = [
      'Choose a plot from the map at the shed door.',
      'Clear weeds and loosen the soil to a depth of twenty centimetres.',
      'Add two buckets of compost from the shared bins.',
      'Plant early crops such as peas, lettuce and radishes.',
    ];
    const lines = steps.map((step, i) => text(50, 150 + i * 30, `${i + 1}. ${step}`, 20));
    const { markdown } = await convertIsolated(
      await image(900, 290, text(30, 60, INTRO, 20) + lines.join('')),
      'png',
      std,
      limits,
    );
    expect(paragraphsOf(markdown)).toEqual([INTRO, steps.map((step, i) => `${i + 1}. ${step}`).join('\n')]);
  });
});

describe('paragraphs and headings in images', () => {
  const TITLE = 'The Return of the River Otter';
  // The first line has no letter that reaches below the line: its box is shorter, the gap under it wider.
  const LINES = [
    'For most of the last hundred seasons the river otter was absent from',
    'the lowland streams of the valley. Pollution from mills and the loss of',
    'bankside cover drove the animals upstream, and by the seventies only',
    'a handful of families survived in the headwaters of the river.',
  ];

  it('When a line of a paragraph has no descenders, then the paragraph is still one', async () => {
    const body = LINES.map((line, i) => text(30, 60 + i * 30, line, 20)).join('');
    const { markdown } = await convertIsolated(await image(900, 200, body), 'png', std, limits);
    expect(paragraphsOf(markdown)).toEqual([LINES.join(' ')]);
  });

  it('When a title in large type sits right above its body text, then the title is a heading of its own', async () => {
    const body =
      text(30, 55, TITLE, 34, 'font-weight="bold"') + LINES.map((line, i) => text(30, 100 + i * 30, line, 20)).join('');
    const { markdown } = await convertIsolated(await image(900, 240, body), 'png', std, limits);
    expect(paragraphsOf(markdown)).toEqual([`# ${TITLE}`, LINES.join(' ')]);
  });

  it('When a page has a title, section headings in two sizes and body text, then the headings are levelled by size', async () => {
    const body =
      text(30, 60, 'Annual Water Quality Report', 40, 'font-weight="bold"') +
      text(30, 130, 'Where Your Water Comes From', 28, 'font-weight="bold"') +
      text(30, 175, 'Most of the supply is drawn from the Harlow reservoir, fed by three', 20) +
      text(30, 205, 'mountain streams, and from two deep wells in dry months.', 20) +
      text(30, 260, 'Treatment Steps', 24, 'font-weight="bold"') +
      text(30, 300, 'Raw water passes through coagulation, sedimentation and sand filters.', 20);
    const { markdown } = await convertIsolated(await image(900, 330, body), 'png', std, limits);
    expect(paragraphsOf(markdown).filter((p) => p.startsWith('#'))).toEqual([
      '# Annual Water Quality Report',
      '## Where Your Water Comes From',
      '### Treatment Steps',
    ]);
  });

  it('When a short line of body text ends a paragraph, then it is not taken for a heading', async () => {
    const lines = [...LINES.slice(0, 3), 'upstream.'];
    const body = lines.map((line, i) => text(30, 60 + i * 30, line, 20)).join('');
    const { markdown } = await convertIsolated(await image(900, 200, body), 'png', std, limits);
    expect(markdown).not.toContain('#');
  });
});

describe('scanned PDF pages', () => {
  it('When a scanned PDF page has a title and a bulleted list, then the title is a heading and the bullets are list items', async () => {
    const lines = ITEMS.map(
      (item, i) => `<circle cx="62" cy="${213 + i * 30}" r="3.5"/>` + text(80, 220 + i * 30, item, 20),
    );
    const scan = await image(
      900,
      360,
      text(40, 70, 'Garden Club Notes', 36, 'font-weight="bold"') + text(40, 140, INTRO, 20) + lines.join(''),
    );
    const input = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ size: [900 * 0.75, 360 * 0.75], margin: 0 });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.image(scan, 0, 0, { width: 900 * 0.75 });
      doc.end();
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(paragraphsOf(markdown)).toEqual(['# Garden Club Notes', INTRO, ITEMS.map((item) => `- ${item}`).join('\n')]);
  });
});
