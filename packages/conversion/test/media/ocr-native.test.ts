import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { closeOcrEngine, ocrImage, prepareImage } from '../../src/readers/shared/ocr/engine';
import { ocrEngineSetting } from '../../src/readers/shared/ocr/engine-choice';
import { isNativeTesseractInstalled, pgm, readNative } from '../../src/readers/shared/ocr/native-tesseract';
import { SYSTEM_TESSDATA } from '../../src/readers/shared/ocr/scripts';
import { phraseRecall, SENTENCE, textImage, wordAccuracy } from '../media-fixtures';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
/** tsx's CLI run by node itself: its shell launcher needs sed and dirname, which the test's PATH leaves out. */
const TSX_CLI = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const CJK_FONT = 'WenQuanYi Zen Hei';
const LATIN_FONT = 'DejaVu Sans';

afterAll(() => closeOcrEngine());
jest.setTimeout(180_000);

/** A page of lines, each in its own font, size and script, drawn top to bottom. */
async function page(lines: Array<{ text: string; font: string; px: number }>, turn = 0): Promise<Buffer> {
  let y = 40;
  const body = lines
    .map((l) => {
      y += Math.round(l.px * 1.8);
      return `<text x="40" y="${y}" font-family="${l.font}" font-size="${l.px}">${l.text}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="${y + 60}"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).rotate(turn).png().toBuffer();
}

const text = (result: { paragraphs: string[] }): string => result.paragraphs.join('\n');

describe('the native tesseract engine', () => {
  it('When Debian tesseract is installed (setup-system.sh), then it is found', () => {
    expect(isNativeTesseractInstalled()).toBe(true);
  });

  it('When a page is read by the native engine, then its words and confidence come back from the TSV', async () => {
    const image = await prepareImage(await textImage([SENTENCE], 16));
    const reading = await readNative(pgm(image.pixels, image.width, image.height), 'eng', 6, {
      tessdata: SYSTEM_TESSDATA,
    });
    const words = reading.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
    expect(words.map((w) => w.text).join(' ')).toBe(SENTENCE);
    expect(reading.confidence).toBeGreaterThan(80);
    expect(words[0]!.bbox.x1).toBeGreaterThan(words[0]!.bbox.x0);
  });

  it('When a page takes longer than its deadline, then its tesseract process is killed and the reading fails', async () => {
    const image = await prepareImage(await textImage([SENTENCE, SENTENCE, SENTENCE], 16));
    await expect(
      readNative(pgm(image.pixels, image.width, image.height), 'eng', 3, { tessdata: SYSTEM_TESSDATA, timeoutMs: 1 }),
    ).rejects.toThrow(/tesseract was stopped \(SIGKILL\)/);
  });

  it('When the conversion is cancelled, then its tesseract process is stopped and the reading fails', async () => {
    const image = await prepareImage(await textImage([SENTENCE], 16));
    const cancel = new AbortController();
    const reading = readNative(pgm(image.pixels, image.width, image.height), 'eng', 3, {
      tessdata: SYSTEM_TESSDATA,
      signal: cancel.signal,
    });
    cancel.abort();
    await expect(reading).rejects.toThrow(/abort/i);
  });

  it('When the English engines are compared on the same image, then native and WebAssembly read it equally well', async () => {
    const input = await textImage([SENTENCE], 14);
    const native = text(await ocrImage(input));
    process.env.OCR_ENGINE = 'wasm';
    try {
      const wasm = text(await ocrImage(input));
      expect(wordAccuracy(SENTENCE, wasm)).toBeGreaterThanOrEqual(0.95);
    } finally {
      delete process.env.OCR_ENGINE;
    }
    expect(wordAccuracy(SENTENCE, native)).toBeGreaterThanOrEqual(0.95);
  });

  it('When OCR_ENGINE names no engine, then OCR refuses with a message naming the variable', () => {
    process.env.OCR_ENGINE = 'fastest';
    try {
      expect(() => ocrEngineSetting()).toThrow('OCR_ENGINE must be one of auto, wasm (got "fastest").');
    } finally {
      delete process.env.OCR_ENGINE;
    }
  });

  it('When tesseract is not on PATH, then OCR falls back to the WebAssembly engine and still reads the page', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-no-tesseract-'));
    try {
      const image = path.join(dir, 'text.png');
      fs.writeFileSync(image, await textImage([SENTENCE], 16));
      // A PATH with node alone: no tesseract program to find.
      fs.symlinkSync(process.execPath, path.join(dir, 'node'));
      const out = execFileSync(process.execPath, [TSX_CLI, path.join(__dirname, 'ocr-fallback-child.ts'), image], {
        encoding: 'utf8',
        timeout: 150_000,
        env: { ...process.env, PATH: dir },
      });
      const report = JSON.parse(out.trim().split('\n').pop()!) as { native: boolean; text: string };
      expect(report.native).toBe(false);
      expect(wordAccuracy(SENTENCE, report.text)).toBeGreaterThanOrEqual(0.95);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scripts and orientation found per region', () => {
  // Known gap: Tesseract's script detector names Hangul set in WenQuanYi Zen Hei "Latin" at 1× and 2×, so
  // this page is not read in Korean yet (the held-out Nanum and Noto pages are). Turns red when fixed.
  it.failing(
    'When a page holds a Korean paragraph and an English one, then both are read, each in its own script',
    async () => {
      const input = await page([
        { text: '다음 주 월요일부터 수영장 공사가 시작됩니다', font: CJK_FONT, px: 34 },
        { text: '주민 여러분의 양해를 부탁드립니다', font: CJK_FONT, px: 34 },
        { text: 'The swimming pool closes for repairs next Monday', font: LATIN_FONT, px: 28 },
      ]);
      const result = text(await ocrImage(input));
      expect(phraseRecall(['월요일부터', '수영장', '공사가', '시작됩니다', '양해를'], result)).toBeGreaterThanOrEqual(
        0.8,
      );
      expect(result).toContain('The swimming pool closes for repairs next Monday');
    },
  );

  it('When English lines sit above a page of Chinese, then the Chinese is read in order below them', async () => {
    const input = await page([
      { text: 'Annual report of the water board', font: LATIN_FONT, px: 28 },
      { text: '委员会在星期二上午批准了年度预算', font: CJK_FONT, px: 36 },
      { text: '会议讨论了新的教育政策和交通计划', font: CJK_FONT, px: 36 },
    ]);
    const result = text(await ocrImage(input));
    expect(result.indexOf('Annual report of the water board')).toBe(0);
    expect(phraseRecall(['委员会', '星期二', '预算', '教育政策', '交通计划'], result)).toBeGreaterThanOrEqual(0.8);
  });

  it('When a page is upside down, then it is turned upright and read', async () => {
    const input = await page(
      [
        { text: 'The committee approved the annual budget', font: LATIN_FONT, px: 30 },
        { text: 'on Tuesday morning after a long debate', font: LATIN_FONT, px: 30 },
      ],
      180,
    );
    const result = text(await ocrImage(input));
    expect(
      wordAccuracy('The committee approved the annual budget on Tuesday morning after a long debate', result),
    ).toBeGreaterThanOrEqual(0.9);
  });

  // Known gap: Tesseract's script detector names Hangul set in WenQuanYi Zen Hei "Latin" at 1× and 2×, so
  // this page is not read in Korean yet (the held-out Nanum and Noto pages are). Turns red when fixed.
  it.failing('When Korean is turned a quarter turn, then it is turned upright and read in Korean', async () => {
    const input = await page(
      [
        { text: '위원회는 화요일 아침에 연간 예산을 승인했습니다', font: CJK_FONT, px: 36 },
        { text: '새로운 교육 정책에 대해 논의했습니다', font: CJK_FONT, px: 36 },
      ],
      90,
    );
    const result = text(await ocrImage(input));
    expect(
      phraseRecall(['위원회는', '화요일', '예산을', '승인했습니다', '교육', '논의했습니다'], result),
    ).toBeGreaterThanOrEqual(0.8);
  });

  it('When Chinese is set in traditional characters, then it is read as traditional Chinese', async () => {
    const input = await page([
      { text: '圖書館每週六上午九點開門', font: CJK_FONT, px: 38 },
      { text: '歡迎市民借閱新書', font: CJK_FONT, px: 38 },
    ]);
    const result = await ocrImage(input);
    expect(result.language).toBe('chi_tra');
    expect(phraseRecall(['圖書館', '每週六', '九點', '開門', '歡迎', '借閱新書'], text(result))).toBeGreaterThanOrEqual(
      0.8,
    );
  });
});

describe('image preparation', () => {
  it('When text is already set large, then the image is not enlarged', async () => {
    const input = await page([{ text: '委员会在星期二上午批准了年度预算', font: CJK_FONT, px: 38 }]);
    const { width } = await prepareImage(input);
    expect(width).toBe(1100);
  });

  it('When text is set small, then the image is enlarged towards lines about 36 px high', async () => {
    const input = await textImage([SENTENCE], 9);
    const original = (await sharp(input).metadata()).width!;
    const { width } = await prepareImage(input);
    expect(width / original).toBeGreaterThan(1.8);
  });
});
