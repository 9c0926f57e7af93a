import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { closeOcrEngine, ocrImage } from '../src/readers/shared/ocr/engine';
import { CJK_SAMPLES, cjkTextImage, phraseRecall, SENTENCE, wordAccuracy } from '../test/media-fixtures';

const RUNS = Number(process.env.BENCH_OCR_RUNS ?? 3);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A page of running English text as a 200 dpi scan would hold it (10 pt, 30 lines). */
async function englishPage(): Promise<Buffer> {
  const line = `${SENTENCE} after a long debate about the new library`;
  const body = Array.from(
    { length: 30 },
    (_, i) => `<text x="150" y="${200 + i * 48}" font-family="DejaVu Serif" font-size="28">${line}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1700" height="2200"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * The OCR engines side by side on the same images in the same run (issue 22 point 2): Markwright
 * with Debian's native tesseract per page (the default where it is installed), Markwright with
 * the WebAssembly engine (OCR_ENGINE=wasm, the fallback), and the tesseract CLI told the language,
 * one thread. Each in a warm process, interleaved so load that comes and goes hits all three;
 * medians of RUNS runs. Accuracy: word accuracy (English) or phrase recall. Ratios are what to
 * read; absolute times only mean something on a quiet machine.
 */
export async function runOcrEnginesBench(): Promise<string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-engines-'));
  const cli = spawnSync('sh', ['-c', 'command -v tesseract']).status === 0;
  const samples = [
    {
      name: 'English page, 200 dpi',
      lang: 'eng',
      make: englishPage,
      score: (t: string) => wordAccuracy(SENTENCE, t),
    },
    {
      name: 'Chinese',
      lang: 'chi_sim',
      make: () => cjkTextImage(CJK_SAMPLES.chinese.lines, 40),
      score: (t: string) => phraseRecall(CJK_SAMPLES.chinese.phrases, t),
    },
    {
      name: 'Korean',
      lang: 'kor',
      make: () => cjkTextImage(CJK_SAMPLES.korean.lines, 40),
      score: (t: string) => phraseRecall(CJK_SAMPLES.korean.phrases, t),
    },
    {
      name: 'Japanese, vertical',
      lang: 'jpn_vert',
      make: () => cjkTextImage(CJK_SAMPLES.verticalJapanese.lines, 32, true),
      score: (t: string) => phraseRecall(CJK_SAMPLES.verticalJapanese.phrases, t),
    },
  ];
  const lines = [
    `OCR engines, same images, same run (median of ${RUNS}, interleaved); accuracy: word accuracy (English) or phrase recall.`,
    '',
    '| image | native: accuracy | wasm: accuracy | CLI: accuracy | native ÷ wasm (time) | native ÷ CLI (time) | wasm ÷ CLI (time) |',
    '|---|---|---|---|---|---|---|',
  ];
  const read = async (image: Buffer, engine: 'auto' | 'wasm'): Promise<string> => {
    process.env.OCR_ENGINE = engine;
    try {
      return (await ocrImage(image)).paragraphs.join('\n');
    } finally {
      delete process.env.OCR_ENGINE;
    }
  };
  try {
    for (const s of samples) {
      const image = await s.make();
      const file = path.join(tmp, `${s.lang}.png`);
      fs.writeFileSync(file, image);
      const runCli = (): string =>
        execFileSync('tesseract', [file, '-', '-l', s.lang], {
          env: { ...process.env, OMP_THREAD_LIMIT: '1' },
          stdio: ['ignore', 'pipe', 'ignore'],
        }).toString();
      const text = { native: await read(image, 'auto'), wasm: await read(image, 'wasm'), cli: cli ? runCli() : '' };
      const times = { native: [] as number[], wasm: [] as number[], cli: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        let started = performance.now();
        await read(image, 'auto');
        times.native.push(performance.now() - started);
        started = performance.now();
        await read(image, 'wasm');
        times.wasm.push(performance.now() - started);
        if (!cli) continue;
        started = performance.now();
        runCli();
        times.cli.push(performance.now() - started);
      }
      const [native, wasm] = [median(times.native), median(times.wasm)];
      const tool = cli ? median(times.cli) : undefined;
      const ratio = (a: number, b?: number): string => (b ? `${(a / b).toFixed(2)}×` : '–');
      lines.push(
        `| ${s.name} | ${s.score(text.native).toFixed(2)} | ${s.score(text.wasm).toFixed(2)} | ${cli ? s.score(text.cli).toFixed(2) : '–'} | ${ratio(native, wasm)} | ${ratio(native, tool)} | ${ratio(wasm, tool)} |`,
      );
      process.stderr.write(`OCR engines ${s.name}: done\n`);
    }
  } finally {
    await closeOcrEngine();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return `${lines.join('\n')}\n`;
}
