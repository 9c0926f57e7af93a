import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';

/** Large media inputs for `pnpm bench`: a 300 dpi page image, a 10-page scanned PDF, 5 minutes of speech. */
const PARAGRAPH =
  'The committee approved the annual budget on Tuesday morning after a long debate about the costs of the new ' +
  'library building. Members asked the treasurer to publish a quarterly report so that residents can follow how ' +
  'the money is spent each season.';

/** An A4 page at 300 dpi: 11 pt serif text in paragraphs, slightly rotated as a scanner leaves it. */
async function scannedPage(): Promise<Buffer> {
  const [width, height, px] = [2480, 3508, 46];
  const lines: string[] = [];
  for (let p = 0; lines.length < 60; p++) {
    let line = '';
    for (const word of PARAGRAPH.split(' ')) {
      if ((line + word).length > 80) {
        lines.push(line.trim());
        line = '';
      }
      line += `${word} `;
    }
    lines.push(line.trim(), '');
  }
  const text = lines
    .map((l, i) => `<text x="200" y="${250 + i * px * 1.45}" font-family="DejaVu Serif" font-size="${px}">${l}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).rotate(0.8, { background: 'white' }).greyscale().png().toBuffer();
}

/** Minutes of clear synthetic speech (flite), encoded by ffmpeg into the container of `ext`. */
function speech(minutes: number, ext: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-audio-'));
  try {
    // flite reads about 13 of these paragraphs a minute.
    const script = path.join(dir, 'script.txt');
    fs.writeFileSync(
      script,
      Array(Math.ceil(minutes * 13))
        .fill(PARAGRAPH)
        .join('\n\n'),
    );
    const wav = path.join(dir, 'speech.wav');
    execFileSync('flite', ['-voice', 'slt', '-f', script, '-o', wav]);
    const out = path.join(dir, `out.${ext}`);
    execFileSync('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-i',
      wav,
      '-ar',
      '44100',
      '-t',
      String(minutes * 60),
      out,
    ]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const benchCases = [
  { label: 'png page 300 dpi', ext: 'png', make: scannedPage },
  {
    label: 'jpg page 300 dpi',
    ext: 'jpg',
    make: async () =>
      sharp(await scannedPage())
        .jpeg({ quality: 85 })
        .toBuffer(),
  },
  {
    label: 'pdf 10 scanned pages',
    ext: 'pdf',
    units: { count: 10, name: 'page' },
    make: async () => {
      const page = await scannedPage();
      const doc = new PDFDocument({ size: 'A4', margin: 0, autoFirstPage: false });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
      for (let i = 0; i < 10; i++) doc.addPage().image(page, 0, 0, { width: 595, height: 842 });
      doc.end();
      await done;
      return Buffer.concat(chunks);
    },
  },
  { label: 'wav 5 min speech', ext: 'wav', units: { count: 5, name: 'minute' }, make: async () => speech(5, 'wav') },
  { label: 'mp3 5 min speech', ext: 'mp3', units: { count: 5, name: 'minute' }, make: async () => speech(5, 'mp3') },
  { label: 'm4a 5 min speech', ext: 'm4a', units: { count: 5, name: 'minute' }, make: async () => speech(5, 'm4a') },
];
