import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { median } from '../../src/readers/shared/ocr/boxes';
import { closeOcrEngine, prepareImage, recognise } from '../../src/readers/shared/ocr/engine';
import { unreadInkShare } from '../../src/readers/shared/ocr/ink';
import {
  BANDED,
  bandedPage,
  FORM,
  formImage,
  REPORT,
  reportPage,
  sentenceRecall,
  SENTENCE,
  textImage,
  twoColumnPage,
} from '../media-fixtures';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'packages', 'conversion', 'src', 'cli', 'convert.ts');

afterAll(() => closeConversionWorkers());
afterAll(() => closeOcrEngine());
const limits = { timeoutMs: 120_000, maxMemoryMb: 1536 };
const std = { enhanced: false };
const paragraphsOf = (markdown: string): string[] => markdown.trim().split('\n\n');

describe('page layout analysis of scanned pages (standard mode)', () => {
  it('When a page has a large light-blue title above a heading and body text, then all three are read in order, the title and the heading as headings by their size', async () => {
    const { markdown } = await convertIsolated(await reportPage(), 'png', std, limits);
    expect(paragraphsOf(markdown)).toEqual([`# ${REPORT.title}`, `## ${REPORT.heading}`, REPORT.body]);
  });

  it('When a heading is set in white letters on a dark band, then it is read as a heading before the text below it', async () => {
    const { markdown } = await convertIsolated(await bandedPage(), 'png', std, limits);
    expect(paragraphsOf(markdown)).toEqual([`# ${BANDED.band}`, BANDED.body]);
  });

  it('When a form sets labels and values in two pairs of columns, then each row is read across, label before value, as a table', async () => {
    const { markdown } = await convertIsolated(await formImage(), 'png', std, limits);
    const table = FORM.map((row) => `| ${row.join(' | ')} |`);
    expect(paragraphsOf(markdown)).toEqual([
      '# CUSTOMER DETAILS',
      [table[0], '| --- | --- | --- | --- |', ...table.slice(1)].join('\n'),
    ]);
  });

  it('When a table has only rules above and below its header (no vertical lines) and is scanned at low resolution, then standard mode keeps its rows and cells', async () => {
    const rows = [
      ['Station', 'Rainfall', 'Days'],
      ['Harbor Point', '82 mm', '11'],
      ['Lake Ridge', '47 mm', '6'],
      ['Mill Valley', '120 mm', '15'],
    ];
    const text = (x: number, y: number, value: string, bold = false): string =>
      `<text x="${x}" y="${y}" font-size="30" font-family="DejaVu Sans"${bold ? ' font-weight="bold"' : ''}>${value}</text>`;
    const rule = (y: number): string => `<rect x="40" y="${y}" width="1000" height="3" fill="black"/>`;
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="560"><rect width="100%" height="100%" fill="white"/>' +
      text(40, 60, 'Rainfall in March by station') +
      rule(100) +
      rows.map((row, r) => row.map((cell, c) => text(50 + c * 380, 145 + r * 60, cell, r === 0)).join('')).join('') +
      rule(165) +
      rule(350) +
      text(40, 420, 'Readings are taken at noon every day.') +
      '</svg>';
    // Drawn large, then shrunk to about 120 dpi, as a low-resolution scan.
    const input = await sharp(Buffer.from(svg)).resize({ width: 660 }).png().toBuffer();
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    const table = rows.map((row) => `| ${row.join(' | ')} |`);
    expect(paragraphsOf(markdown)).toEqual([
      'Rainfall in March by station',
      [table[0], '| --- | --- | --- |', ...table.slice(1)].join('\n'),
      'Readings are taken at noon every day.',
    ]);
  });

  it('When a scan of a table is covered in specks, then the specks are filtered out and its rows and cells are read', async () => {
    const rows = [
      ['Batch', 'Weight', 'Grade'],
      ['North Farm', '410 kg', 'A'],
      ['River Bend', '385 kg', 'B'],
      ['Oak Hill', '502 kg', 'A'],
    ];
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="420"><rect width="100%" height="100%" fill="white"/>' +
      rows
        .map((row, r) =>
          row
            .map(
              (cell, c) =>
                `<text x="${60 + c * 460}" y="${80 + r * 90}" font-size="40" font-family="DejaVu Sans">${cell}</text>`,
            )
            .join(''),
        )
        .join('') +
      '</svg>';
    const { data, info } = await sharp(Buffer.from(svg))
      .greyscale()
      .blur(0.8)
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Pepper noise: 3 % of the pixels (a fixed pseudo-random sequence) turned dark grey, then saved as JPEG.
    let seed = 11;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      if (seed % 100 < 3) data[i] = Math.min(data[i]!, 90);
    }
    const input = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .jpeg({ quality: 60 })
      .toBuffer();
    const { markdown } = await convertIsolated(input, 'jpg', std, limits);
    const table = rows.map((row) => `| ${row.join(' | ')} |`);
    expect(markdown.trim()).toBe([table[0], '| --- | --- | --- |', ...table.slice(1)].join('\n'));
  });

  it('When a scanned page holds a table and text with hyphens between words, then the hyphens stay (only speck-like marks are dropped)', async () => {
    const rows = [
      ['Test', 'Result', 'Flag'],
      ['Glucose', '118 mg/dL', 'HIGH'],
      ['Sodium', '140 mmol/L', 'NORMAL'],
      ['Potassium', '4.1 mmol/L', 'NORMAL'],
    ];
    const text = (x: number, y: number, value: string) =>
      `<text x="${x}" y="${y}" font-size="40" font-family="DejaVu Sans">${value}</text>`;
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="700"><rect width="100%" height="100%" fill="white"/>' +
      text(60, 70, 'Family history: Father - heart disease; Mother - diabetes') +
      rows.map((row, r) => row.map((cell, c) => text(60 + c * 480, 200 + r * 90, cell)).join('')).join('') +
      text(60, 640, 'Hypertension (2019) - controlled with diet') +
      '</svg>';
    const input = await sharp(Buffer.from(svg)).png().toBuffer();
    const { markdown } = await convertIsolated(input, 'png', std, limits);
    expect(markdown).toContain('| Glucose | 118 mg/dL | HIGH |');
    expect(markdown).toContain('Father - heart disease; Mother - diabetes');
    expect(markdown).toContain('(2019) - controlled');
  });

  it('When a scanned image has two columns of running text, then standard mode reads them one after the other', async () => {
    const { markdown } = await convertIsolated(await twoColumnPage(), 'png', std, limits);
    expect(sentenceRecall(markdown)).toBe(1);
  });

  it('When an image without a resolution is read as a page, then nothing is printed on stderr', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-ocr-layout-'));
    try {
      const file = path.join(dir, 'report.png');
      fs.writeFileSync(file, await reportPage());
      const { stdout, stderr } = await run(TSX, [CLI, file], { timeout: 120_000 });
      expect([stdout.split('\n')[0], stderr]).toEqual([`# ${REPORT.title}`, '']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lines of ink the layout analysis left unread', () => {
  it('When every line of an image has its words recognised, then no ink is unread', async () => {
    const image = await prepareImage(await textImage([SENTENCE, 'and asked for a second review in March'], 16));
    const { words } = await recognise(image);
    expect(unreadInkShare(image, words, median(words.map((w) => w.y1 - w.y0)))).toBe(0);
  });

  it('When the words of one of two lines are missing, then half of the lines of ink are unread', async () => {
    // One strip wide enough for the whole short line: each line of text is one band of ink.
    const image = await prepareImage(await textImage(['Budget approved', 'Review in March'], 16));
    const { words } = await recognise(image);
    const firstLine = Math.min(...words.map((w) => w.line));
    const kept = words.filter((w) => w.line !== firstLine);
    const share = unreadInkShare(image, kept, median(words.map((w) => w.y1 - w.y0)));
    expect(share).toBe(0.5);
  });

  it('When the unread text sits inside a table drawn with ruling lines, then it is not counted (its cells are read one by one)', async () => {
    const rules = [60, 120, 180]
      .map((y) => `<rect x="20" y="${y}" width="760" height="3" fill="black"/>`)
      .concat([20, 400, 777].map((x) => `<rect x="${x}" y="60" width="3" height="123" fill="black"/>`))
      .join('');
    const cells = ['North', '120', 'South', '95']
      .map(
        (t, i) =>
          `<text x="${i % 2 ? 420 : 40}" y="${i < 2 ? 102 : 162}" font-size="28" font-family="DejaVu Sans">${t}</text>`,
      )
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="220"><rect width="100%" height="100%" fill="white"/>${rules}${cells}</svg>`;
    const image = await prepareImage(await sharp(Buffer.from(svg)).png().toBuffer());
    expect(unreadInkShare(image, [], 40)).toBe(0);
  });
});
