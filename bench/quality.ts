import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { closeConversionWorkers, convertIsolated } from '../packages/conversion/src';
import {
  SENTENCE,
  sentenceRecall,
  tableCellF1,
  tableImage,
  textImage,
  twoColumnPage,
  wordAccuracy,
} from '../packages/conversion/test/media-fixtures';

/**
 * `pnpm bench quality`: accuracy figures for the offline media pipeline, each beside its
 * baseline from the same run: OCR word accuracy by text size, standard against enhanced mode on
 * a two-column scanned page and a table image, and word error rate of speech transcription.
 */
const limits = { timeoutMs: 300_000, maxMemoryMb: 1536 };
const std = { enhanced: false };
const enh = { enhanced: true };

const SPEECH = [
  'Please send the quarterly report to the finance team by Friday.',
  'The meeting starts at nine in the morning in the large room.',
  'Our new office opens next month near the central station.',
  'Remember to bring your badge and a copy of the contract.',
  'The weather will be cold and windy for the rest of the week.',
];

function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (s: string) =>
    s
      .toLowerCase()
      .replace(/\[\d\d:\d\d\]/g, ' ')
      .replace(/[^a-z0-9' ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const ref = words(reference);
  const hyp = words(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[hyp.length]! / ref.length;
}

function speech(text: string, voice: string): { wav: Buffer; seconds: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-quality-'));
  try {
    const raw = path.join(dir, 'raw.wav');
    const wav = path.join(dir, 'speech.wav');
    if (voice === 'espeak-ng') execFileSync('espeak-ng', ['-s', '150', '-w', raw, text]);
    else execFileSync('flite', ['-voice', voice, '-t', text, '-o', raw]);
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', wav]);
    const seconds = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav], {
        encoding: 'utf8',
      }),
    );
    return { wav: fs.readFileSync(wav), seconds };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await f();
  return [value, performance.now() - start];
}

function scannedPdf(image: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4', layout: 'landscape' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.image(image, 30, 30, { width: 780 });
    doc.end();
  });
}

const MODEL = '/usr/share/pocketsphinx/model/en-us';
/**
 * pocketsphinx_continuous settings compared on the same clips (the converter now decodes stretches
 * with pocketsphinx_batch: `pnpm bench speech` compares the two and more variants).
 */
const DECODERS: Array<[label: string, flags: string[]]> = [
  ['default flags', []],
  ['wide beams', ['-beam', '1e-80', '-wbeam', '1e-60', '-lw', '6.5']],
  ['narrow beams (faster)', ['-beam', '1e-40', '-wbeam', '1e-30', '-pbeam', '1e-40']],
  ['no noise removal', ['-remove_noise', 'no']],
];

/**
 * The one offline recogniser Debian and npm ship with a model (PocketSphinx en-US), under the
 * settings above, on clean and noisy 16 kHz clips of the same sentences: WER and real-time factor.
 */
function compareDecoderSettings(): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-decoders-'));
  try {
    const clips: Array<{ text: string; file: string; seconds: number; noisy: boolean }> = [];
    SPEECH.forEach((text, i) => {
      const { wav, seconds } = speech(text, 'slt');
      const clean = path.join(dir, `clean${i}.wav`);
      fs.writeFileSync(clean, wav);
      const noisy = path.join(dir, `noisy${i}.wav`);
      execFileSync('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-i',
        clean,
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=color=pink:amplitude=0.04:sample_rate=16000',
        '-filter_complex',
        'amix=inputs=2:duration=first',
        '-ar',
        '16000',
        '-ac',
        '1',
        noisy,
      ]);
      clips.push({ text, file: clean, seconds, noisy: false }, { text, file: noisy, seconds, noisy: true });
    });
    const rows = ['| PocketSphinx setting | WER clean | WER pink noise | real-time factor |', '|---|---|---|---|'];
    for (const [label, flags] of DECODERS) {
      const wer = { clean: 0, noisy: 0 };
      let spent = 0;
      let audio = 0;
      for (const clip of clips) {
        const start = performance.now();
        const hyp = execFileSync(
          'pocketsphinx_continuous',
          [
            '-infile',
            clip.file,
            '-hmm',
            `${MODEL}/en-us`,
            '-lm',
            `${MODEL}/en-us.lm.bin`,
            '-dict',
            `${MODEL}/cmudict-en-us.dict`,
            '-logfn',
            '/dev/null',
            ...flags,
          ],
          { encoding: 'utf8' },
        );
        spent += (performance.now() - start) / 1000;
        audio += clip.seconds;
        wer[clip.noisy ? 'noisy' : 'clean'] += wordErrorRate(clip.text, hyp) / SPEECH.length;
      }
      rows.push(`| ${label} | ${wer.clean.toFixed(2)} | ${wer.noisy.toFixed(2)} | ${(spent / audio).toFixed(2)} |`);
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runQualityBench(): Promise<string> {
  const out: string[] = ['## Offline media quality (same run, this machine)', ''];
  // Warm the worker's OCR engine so the first timing is not the engine's start-up.
  await convertIsolated(await textImage([SENTENCE], 16), 'png', std, limits);

  out.push('| OCR of rendered text | word accuracy | time per image |', '|---|---|---|');
  const text = `${SENTENCE} and asked for a second review in March`;
  for (const pt of [8, 10, 12, 16]) {
    const image = await textImage([SENTENCE, 'and asked for a second review in March'], pt);
    const [result, ms] = await timed(() => convertIsolated(image, 'png', std, limits));
    out.push(`| ${pt} pt | ${wordAccuracy(text, result.markdown).toFixed(2)} | ${(ms / 1000).toFixed(2)} s |`);
  }

  out.push('', '| enhanced against standard | figure | standard | enhanced |', '|---|---|---|---|');
  const page = await twoColumnPage();
  for (const [label, ext, input] of [
    ['two-column scanned page (png)', 'png', page],
    ['two-column scanned page (pdf)', 'pdf', await scannedPdf(page)],
  ] as const) {
    const a = await convertIsolated(input, ext, std, limits);
    const b = await convertIsolated(input, ext, enh, limits);
    out.push(
      `| ${label} | sentence recall | ${sentenceRecall(a.markdown).toFixed(2)} | ${sentenceRecall(b.markdown).toFixed(2)} |`,
    );
  }
  const table = await tableImage();
  const a = await convertIsolated(table, 'png', std, limits);
  const b = await convertIsolated(table, 'png', enh, limits);
  out.push(
    `| table image | table cell F1 | ${tableCellF1(a.markdown).toFixed(2)} | ${tableCellF1(b.markdown).toFixed(2)} |`,
  );

  out.push(
    '',
    '| speech (5 sentences each, PocketSphinx en-us) | WER | audio s | time s | real-time factor |',
    '|---|---|---|---|---|',
  );
  for (const voice of ['slt', 'kal', 'espeak-ng']) {
    let errors = 0;
    let audio = 0;
    let spent = 0;
    for (const sentence of SPEECH) {
      const { wav, seconds } = speech(sentence, voice);
      const [result, ms] = await timed(() => convertIsolated(wav, 'wav', std, limits));
      errors += wordErrorRate(sentence, result.markdown);
      audio += seconds;
      spent += ms / 1000;
    }
    out.push(
      `| ${voice === 'espeak-ng' ? 'espeak-ng' : `flite ${voice}`} | ${(errors / SPEECH.length).toFixed(2)} | ${audio.toFixed(1)} | ${spent.toFixed(1)} | ${(spent / audio).toFixed(2)} |`,
    );
  }
  out.push('', ...compareDecoderSettings());
  await closeConversionWorkers();
  return `${out.join('\n')}\n`;
}
