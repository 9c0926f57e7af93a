import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { closeConversionWorkers, convertIsolated } from '../../src';
import {
  CELLS,
  SENTENCE,
  sentenceRecall,
  tableCellF1,
  tableImage,
  textImage,
  twoColumnPage,
  wordAccuracy,
} from '../media-fixtures';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 120_000, maxMemoryMb: 1536 };
// A test waits longer than its conversion may run: OCR and speech on a busy machine took over jest's
// default 60 s and failed as timeouts, while the conversion's own deadline (above) is what is tested.
jest.setTimeout(limits.timeoutMs + 60_000);
const std = { enhanced: false };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-media-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('images by OCR', () => {
  it.each([10, 12, 16])(
    'When clean text is rendered at %i pt, then at least 95%% of its words are recovered',
    async (pt) => {
      const input = await textImage([SENTENCE, 'and asked for a second review in March'], pt);
      const { markdown, metadata } = await convertIsolated(input, 'png', std, limits);
      expect(wordAccuracy(`${SENTENCE} and asked for a second review in March`, markdown)).toBeGreaterThanOrEqual(0.95);
      expect(metadata).toEqual({ title: '', author: '', page_count: 1 });
    },
  );

  it('When the text is slightly rotated and saved as JPEG, then it is still read', async () => {
    const png = await textImage([SENTENCE], 14, 2);
    const input = await sharp(png).jpeg({ quality: 85 }).toBuffer();
    const { markdown } = await convertIsolated(input, 'jpg', std, limits);
    expect(wordAccuracy(SENTENCE, markdown)).toBeGreaterThanOrEqual(0.9);
  });

  it('When paragraphs are separated by a blank line, then each becomes its own Markdown paragraph', async () => {
    const second = 'The minutes were sent to every member';
    const input = await textImage([SENTENCE, '', second], 14);
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(markdown).toBe(`${SENTENCE}\n\n${second}\n`);
  });

  it('When an image holds a table drawn with ruling lines, then standard mode keeps it as a table between the text', async () => {
    const [x0, y0, colW, rowH] = [40, 100, 240, 56];
    const cells = CELLS.flatMap((row, r) =>
      row.map(
        (cell, c) =>
          `<text x="${x0 + 16 + c * colW}" y="${y0 + 38 + r * rowH}" font-size="26" font-family="DejaVu Sans">${cell}</text>`,
      ),
    ).join('');
    const right = x0 + colW * CELLS[0]!.length;
    const bottom = y0 + rowH * CELLS.length;
    const hLines = CELLS.map((_, r) => y0 + r * rowH)
      .concat(bottom)
      .map((y) => `<line x1="${x0}" y1="${y}" x2="${right}" y2="${y}" stroke="black" stroke-width="3"/>`);
    const vLines = CELLS[0]!
      .map((_, c) => x0 + c * colW)
      .concat(right)
      .map((x) => `<line x1="${x}" y1="${y0}" x2="${x}" y2="${bottom}" stroke="black" stroke-width="3"/>`);
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${right + 60}" height="${bottom + 110}"><rect width="100%" height="100%" fill="white"/>` +
      `<text x="${x0}" y="60" font-size="26" font-family="DejaVu Sans">Sales by region this spring</text>` +
      cells +
      hLines.join('') +
      vLines.join('') +
      `<text x="${x0}" y="${bottom + 70}" font-size="26" font-family="DejaVu Sans">Figures in euros</text></svg>`;
    const input = await sharp(Buffer.from(svg)).png().toBuffer();
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(markdown).toBe(
      'Sales by region this spring\n\n| Region | Units | Revenue |\n| --- | --- | --- |\n| North | 120 | 4300 |\n| South | 95 | 3100 |\n| West | 210 | 7800 |\n\nFigures in euros\n',
    );
  });

  it('When the image is not decodable, then it fails with corrupt_file', async () => {
    await expect(convertIsolated(Buffer.from('not an image'), 'png', std, limits)).rejects.toMatchObject({
      code: 'corrupt_file',
    });
  });

  it('When the image declares more pixels than the limit, then it fails with too_large before decoding', async () => {
    const header = await sharp({ create: { width: 10000, height: 7000, channels: 3, background: 'white' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await expect(convertIsolated(header, 'png', std, limits)).rejects.toMatchObject({ code: 'too_large' });
  });
});

describe('scanned PDF pages', () => {
  it('When a PDF page is only an image of text, then the page is OCR-ed', async () => {
    const image = await textImage([SENTENCE], 14);
    const input = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ size: 'A4' });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.image(image, 40, 40, { width: 500 });
      doc.end();
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(wordAccuracy(SENTENCE, markdown)).toBeGreaterThanOrEqual(0.9);
  });
});

describe('audio by offline transcription', () => {
  const speech = (text: string, ext: string, tags: string[] = []): Buffer => {
    const wav = path.join(tmp, `speech-${ext}.wav`);
    execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', wav]);
    const out = path.join(tmp, `speech.${ext}`);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, ...tags, out]);
    return fs.readFileSync(out);
  };

  it.each(['wav', 'mp3', 'm4a'])(
    'When clear speech is a .%s file, then the key words come back with a timestamp',
    async (ext) => {
      const input = speech('Hello world. This is a test of speech recognition.', ext);
      const { markdown } = await convertIsolated(input, ext, std, limits);
      expect(markdown.startsWith('[00:00] ')).toBe(true);
      for (const word of ['hello', 'world', 'test', 'speech', 'recognition'])
        expect(markdown.toLowerCase()).toContain(word);
    },
  );

  it('When speech runs on for more than half a minute, then it is split into timestamped paragraphs at pauses', async () => {
    const sentence = 'Please send the quarterly report to the finance team by Friday.';
    const input = speech(Array(12).fill(sentence).join(' '), 'wav');
    const { markdown } = await convertIsolated(input, 'wav', std, limits);
    const stamps = markdown.split('\n\n').map((p) => /^\[(\d\d):(\d\d)\] /.exec(p));
    expect(stamps.length).toBeGreaterThanOrEqual(2);
    expect(stamps.every(Boolean)).toBe(true);
    expect(stamps.map((m) => Number(m![1]) * 60 + Number(m![2]))).toEqual(
      [...stamps.map((m) => Number(m![1]) * 60 + Number(m![2]))].sort((a, b) => a - b),
    );
    expect(markdown.toLowerCase()).toContain('quarterly report');
  });

  it('When numbers are said one by one with pauses over pink noise, then each of them is transcribed', async () => {
    // Each word alone at 16 kHz, 0.7 s of silence between, speech at -22 dBFS RMS, pink noise about 16 dB under it.
    const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
    const pcm = words.map((w) => {
      const wav = path.join(tmp, 'word.wav');
      execFileSync('flite', ['-voice', 'slt', '-t', w, '-o', wav]);
      const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', wav, '-ar', '16000', '-ac', '1', '-f', 's16le', '-']);
      const samples = new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
      const rms = Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / samples.length) / 32768;
      const scaled = Int16Array.from(samples, (x) => Math.round((x * 10 ** (-22 / 20)) / rms));
      return Buffer.concat([Buffer.from(scaled.buffer), Buffer.alloc(0.7 * 16000 * 2)]);
    });
    const out = path.join(tmp, 'numbers.wav');
    execFileSync(
      'ffmpeg',
      [
        ...['-v', 'error', '-y', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', '-'],
        ...['-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.06:sample_rate=16000:seed=7'],
        ...['-filter_complex', '[0][1]amix=inputs=2:duration=first:normalize=0', out],
      ],
      { input: Buffer.concat([Buffer.alloc(0.6 * 16000 * 2), ...pcm]) },
    );
    const { markdown } = await convertIsolated(fs.readFileSync(out), 'wav', std, limits);
    const said = markdown.toLowerCase().split(/[^a-z]+/);
    expect(words.filter((w) => !said.includes(w))).toEqual([]);
  });

  it('When the audio has title and artist tags, then they are the metadata title and author', async () => {
    const input = speech('Hello world.', 'mp3', ['-metadata', 'title=Greeting', '-metadata', 'artist=Ada']);
    const { metadata } = await convertIsolated(input, 'mp3', std, limits);
    expect(metadata).toEqual({ title: 'Greeting', author: 'Ada', page_count: 1 });
  });

  it('When the audio file is garbage, then it fails with corrupt_file', async () => {
    await expect(convertIsolated(Buffer.from('nope'), 'mp3', std, limits)).rejects.toMatchObject({
      code: 'corrupt_file',
    });
  });
});

describe('enhanced mode on images', () => {
  it('When an image holds a table without ruling lines, then both modes rebuild it from the alignment (table cell F1)', async () => {
    const input = await tableImage();
    for (const options of [std, { enhanced: true }]) {
      const { markdown } = await convertIsolated(input, 'png', options, limits);
      expect(tableCellF1(markdown)).toBeGreaterThanOrEqual(0.9);
      expect(markdown.split('\n')[0]).toBe('| Region | Units | Revenue |');
    }
  });

  it('When a table sits between lines of text, then enhanced mode keeps the text around it and lists stay lists', async () => {
    const row = (cells: string[], y: number): string =>
      cells
        .map((c, i) => `<text x="${40 + i * 260}" y="${y}" font-size="28" font-family="DejaVu Sans">${c}</text>`)
        .join('');
    const line = (text: string, y: number): string =>
      `<text x="40" y="${y}" font-size="28" font-family="DejaVu Sans">${text}</text>`;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="620"><rect width="100%" height="100%" fill="white"/>` +
      line('Sales summary for the spring quarter', 60) +
      CELLS.map((r, i) => row(r, 140 + i * 55)).join('') +
      line('• Figures are rounded to units', 420) +
      line('• Revenue is shown in euros', 470) +
      line('Prepared by the finance office', 560) +
      '</svg>';
    const input = await sharp(Buffer.from(svg)).png().toBuffer();
    const { markdown } = await convertIsolated(input, 'png', { enhanced: true }, limits);
    expect(tableCellF1(markdown)).toBeGreaterThanOrEqual(0.9);
    expect(markdown).toMatch(/^Sales summary for the spring quarter\n\n\| Region \| Units \| Revenue \|/);
    expect(markdown).toContain('- Figures are rounded to units\n- Revenue is shown in euros');
    expect(markdown.trim().endsWith('Prepared by the finance office')).toBe(true);
  });
});

describe('enhanced mode on a two-column scanned page', () => {
  it('When a scanned image has two columns, then enhanced mode reads them one after the other without making a table', async () => {
    const enhanced = await convertIsolated(await twoColumnPage(), 'png', { enhanced: true }, limits);
    expect([sentenceRecall(enhanced.markdown), enhanced.markdown.includes('|')]).toEqual([1, false]);
  });

  it('When a scanned PDF page has two columns, then enhanced mode reads them in order too', async () => {
    const image = await twoColumnPage();
    const input = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ size: 'A4', layout: 'landscape' });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.image(image, 30, 30, { width: 780 });
      doc.end();
    });
    const enhanced = await convertIsolated(input, 'pdf', { enhanced: true }, limits);
    expect(sentenceRecall(enhanced.markdown)).toBe(1);
  });
});

describe('enhanced mode on embedded images', () => {
  /** A document of each format holding one picture of SENTENCE (alt text "scan") after a line of text. */
  const withPicture: Record<string, (picture: Buffer) => Promise<Buffer>> = {
    docx: async (picture) => {
      const { Document, ImageRun, Packer, Paragraph } = await import('docx');
      return Packer.toBuffer(
        new Document({
          sections: [
            {
              children: [
                new Paragraph('Before the picture.'),
                new Paragraph({
                  children: [
                    new ImageRun({
                      type: 'png',
                      data: picture,
                      transformation: { width: 600, height: 60 },
                      altText: { name: 'scan', description: 'scan', title: 'scan' },
                    }),
                  ],
                }),
              ],
            },
          ],
        }),
      );
    },
    pptx: async (picture) => {
      const { default: PptxGenJS } = await import('pptxgenjs');
      const pptx = new PptxGenJS();
      const slide = pptx.addSlide();
      slide.addText('Before the picture.', { x: 0.5, y: 0.3, w: 8, h: 0.6 });
      slide.addImage({
        data: `data:image/png;base64,${picture.toString('base64')}`,
        x: 0.5,
        y: 1.2,
        w: 8,
        h: 0.8,
        altText: 'scan',
      });
      return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    },
    epub: async (picture) => {
      const { strToU8, zipSync } = await import('fflate');
      return Buffer.from(
        zipSync({
          mimetype: strToU8('application/epub+zip'),
          'META-INF/container.xml': strToU8(
            '<container><rootfiles><rootfile full-path="OPS/content.opf"/></rootfiles></container>',
          ),
          'OPS/content.opf': strToU8(
            '<package><manifest><item id="c1" href="text/ch1.xhtml"/><item id="i1" href="images/scan.png"/></manifest><spine><itemref idref="c1"/></spine></package>',
          ),
          'OPS/text/ch1.xhtml': strToU8(
            '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Before the picture.</p><p><img src="../images/scan.png" alt="scan"/></p></body></html>',
          ),
          'OPS/images/scan.png': new Uint8Array(picture),
        }),
      );
    },
    pdf: (picture) =>
      new Promise<Buffer>((resolve) => {
        const doc = new PDFDocument({ size: 'A4' });
        const chunks: Buffer[] = [];
        doc.on('data', (c: Buffer) => chunks.push(c));
        doc.on('end', () => resolve(Buffer.concat(chunks)));
        doc.fontSize(12).text('Before the picture.', 40, 40);
        doc.image(picture, 40, 80, { width: 500 });
        doc.end();
      }),
  };

  it.each(Object.keys(withPicture))(
    'When a %s holds a picture of text, then enhanced mode adds the text it reads and standard keeps only the text around it',
    async (ext) => {
      const input = await withPicture[ext]!(await textImage([SENTENCE], 14));
      const standard = await convertIsolated(input, ext, std, limits);
      const enhanced = await convertIsolated(input, ext, { enhanced: true }, limits);
      expect(standard.markdown).toContain('Before the picture.');
      expect(wordAccuracy(SENTENCE, standard.markdown)).toBeLessThan(0.3);
      expect(enhanced.markdown).toContain('Before the picture.');
      expect(wordAccuracy(SENTENCE, enhanced.markdown)).toBeGreaterThanOrEqual(0.9);
    },
  );
});
