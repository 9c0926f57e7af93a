import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeConversionWorkers, convertIsolated } from '../packages/conversion/src';
import {
  CJK_SAMPLES,
  cjkTextImage,
  phraseRecall,
  SENTENCE,
  textImage,
} from '../packages/conversion/test/media-fixtures';

const RUNS = Number(process.env.BENCH_OCR_RUNS ?? 3);
const limits = { timeoutMs: 180_000, maxMemoryMb: 1536 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * OCR in other scripts (issue 13): per script, an image drawn with a CJK font (the same generators
 * the tests use), read through the worker pool with the script detected by itself; phrase recall
 * and time per image (median of warm runs), beside the tesseract CLI told the language, on the
 * same image in the same run.
 */
export async function runOcrScriptsBench(): Promise<string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-ocr-'));
  const words = SENTENCE.split(' ');
  const samples = [
    { name: 'English', lang: 'eng', phrases: words, make: () => textImage([SENTENCE], 16) },
    {
      name: 'Chinese',
      lang: 'chi_sim',
      ...CJK_SAMPLES.chinese,
      make: () => cjkTextImage(CJK_SAMPLES.chinese.lines, 40),
    },
    {
      name: 'Japanese',
      lang: 'jpn',
      ...CJK_SAMPLES.japanese,
      make: () => cjkTextImage(CJK_SAMPLES.japanese.lines, 40),
    },
    {
      name: 'Japanese, vertical',
      lang: 'jpn_vert',
      ...CJK_SAMPLES.verticalJapanese,
      make: () => cjkTextImage(CJK_SAMPLES.verticalJapanese.lines, 32, true),
    },
    { name: 'Korean', lang: 'kor', ...CJK_SAMPLES.korean, make: () => cjkTextImage(CJK_SAMPLES.korean.lines, 40) },
  ];
  const cli = spawnSync('sh', ['-c', 'command -v tesseract']).status === 0;
  const lines = [
    'OCR per script: the script detected by Markwright itself; the tesseract CLI is told the language.',
    '',
    '| script | phrase recall | Markwright ms/image | tesseract CLI ms/image | ratio |',
    '|---|---|---|---|---|',
  ];
  try {
    for (const s of samples) {
      const image = await s.make();
      const file = path.join(tmp, `${s.lang}.png`);
      fs.writeFileSync(file, image);
      const ours: number[] = [];
      const theirs: number[] = [];
      let markdown = (await convertIsolated(image, 'png', { enhanced: false }, limits)).markdown;
      for (let i = 0; i < RUNS; i++) {
        let started = performance.now();
        markdown = (await convertIsolated(image, 'png', { enhanced: false }, limits)).markdown;
        ours.push(performance.now() - started);
        if (!cli) continue;
        started = performance.now();
        execFileSync('tesseract', [file, '-', '-l', s.lang], { stdio: ['ignore', 'ignore', 'ignore'] });
        theirs.push(performance.now() - started);
      }
      const mine = median(ours);
      const tool = cli ? median(theirs) : undefined;
      lines.push(
        `| ${s.name} | ${phraseRecall(s.phrases, markdown).toFixed(2)} | ${mine.toFixed(0)} | ${tool?.toFixed(0) ?? '–'} | ${tool ? `${(mine / tool).toFixed(2)}×` : '–'} |`,
      );
      process.stderr.write(`OCR ${s.name}: done\n`);
    }
  } finally {
    await closeConversionWorkers();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return `${lines.join('\n')}\n`;
}
