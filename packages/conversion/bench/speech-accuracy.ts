import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SPEECH_WAV, transcribe, transcribeWithMoonshine } from '../src/readers/audio';
import { moonshineInstalled } from '../src/readers/audio/moonshine';

/**
 * `pnpm bench speech` (round 4), or `npx tsx packages/conversion/bench/speech-accuracy.ts round1|round2|round3|round4
 * [label,...]`: word error rate, word recall (longest common word sequence ÷ reference words) and
 * time of the offline speech path (ffmpeg → PocketSphinx) under pre-processing, segmenting and
 * decoder variants, each against the pipeline the converter had before, on the same recordings in
 * the same run (variants interleaved per recording, so machine load falls on all alike).
 *
 * The recordings are made here with known text, none from the eval corpus: flite (four voices)
 * and espeak-ng (three voice/speed settings) speak sentences, lists of numbers said one by one and
 * longer runs, joined with silence gaps; each recording then goes through one of five conditions
 * (clean 44.1 kHz stereo, pink noise at about 16 dB SNR, quiet with mains hum and rumble, a room
 * echo encoded as 32 kbit/s MP3, telephone band at 8 kHz).
 */

const MODEL = '/usr/share/pocketsphinx/model/en-us';
const RATE = 48_000;

const SENTENCES = [
  'Please send the quarterly report to the finance team by Friday.',
  'The meeting starts at nine in the morning in the large room.',
  'Our new office opens next month near the central station.',
  'Remember to bring your badge and a copy of the contract.',
  'The weather will be cold and windy for the rest of the week.',
  'She asked the doctor about the results of the blood test.',
  'We need three more chairs and a table for the guests.',
  'The train to the airport leaves every twenty minutes.',
  'He forgot his keys at home and had to call his sister.',
  'The children played in the park until it started to rain.',
  'Sales grew by twelve percent in the second quarter.',
  'The museum is closed on Mondays and public holidays.',
  'Could you turn off the lights when you leave the office.',
  'The price of coffee has gone up again this year.',
  'Our team will present the new design next Tuesday.',
  'The library keeps old newspapers in the basement.',
  'A strong wind knocked down two trees on our street.',
  'I would like to book a table for four people tonight.',
  'The software update fixes several problems with printing.',
  'They moved to a small town by the sea last summer.',
  'Check the tyres and the oil before the long drive.',
  'The bank will send a new card within five working days.',
];

const NUMBER_LISTS = [
  'one two three four five',
  'six seven eight nine ten',
  'three eight one nine four',
  'two five seven zero six',
  'ten twenty thirty forty fifty',
  'four nine two six one',
  'eight three five ten seven',
];

interface Voice {
  label: string;
  /** Writes the spoken text to a WAV file. */
  speak: (text: string, out: string) => void;
}

const flite =
  (voice: string): Voice['speak'] =>
  (text, out) =>
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', out]);
const espeak =
  (voice: string, wpm: number): Voice['speak'] =>
  (text, out) =>
    execFileSync('espeak-ng', ['-v', voice, '-s', String(wpm), '-w', out, text]);

const VOICES: Voice[] = [
  { label: 'flite slt', speak: flite('slt') },
  { label: 'flite kal16', speak: flite('kal16') },
  { label: 'flite awb', speak: flite('awb') },
  { label: 'flite rms', speak: flite('rms') },
  { label: 'espeak-ng en-us 150 wpm', speak: espeak('en-us', 150) },
  { label: 'espeak-ng en-us+f3 125 wpm', speak: espeak('en-us+f3', 125) },
  { label: 'espeak-ng en-gb+m3 185 wpm', speak: espeak('en-gb+m3', 185) },
];

interface Condition {
  label: string;
  ext: string;
  /** ffmpeg arguments after the speech input (48 kHz mono s16le on stdin): extra inputs, filters, output format. */
  args: string[];
}

const CONDITIONS: Condition[] = [
  { label: 'clean 44.1 kHz stereo', ext: 'wav', args: ['-ar', '44100', '-ac', '2'] },
  {
    label: 'pink noise ~16 dB SNR',
    ext: 'wav',
    args: [
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=color=pink:amplitude=0.06:sample_rate=${RATE}:seed=7`,
      '-filter_complex',
      '[0][1]amix=inputs=2:duration=first:normalize=0',
      '-ac',
      '2',
    ],
  },
  {
    label: 'quiet, 60 Hz hum and rumble',
    ext: 'wav',
    args: [
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=60:sample_rate=${RATE}`,
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=color=brown:amplitude=0.01:sample_rate=${RATE}:seed=3`,
      '-filter_complex',
      '[0]volume=-18dB[s];[1]volume=-34dB[h];[s][h][2]amix=inputs=3:duration=first:normalize=0',
    ],
  },
  {
    label: 'room echo, 32 kbit/s mp3',
    ext: 'mp3',
    args: ['-af', 'aecho=0.8:0.6:45|80:0.35|0.2', '-ar', '22050', '-b:a', '32k'],
  },
  { label: 'telephone band 8 kHz', ext: 'wav', args: ['-af', 'highpass=f=300,lowpass=f=3400', '-ar', '8000'] },
];

interface Recording {
  voice: string;
  condition: string;
  file: string;
  text: string;
  seconds: number;
}

/** 48 kHz mono s16le samples of the text, scaled to an RMS of -22 dBFS. */
function spoken(voice: Voice, text: string, dir: string): Int16Array {
  const wav = path.join(dir, 'piece.wav');
  voice.speak(text, wav);
  const raw = execFileSync(
    'ffmpeg',
    ['-nostdin', '-v', 'error', '-i', wav, '-ar', String(RATE), '-ac', '1', '-f', 's16le', '-'],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const pcm = new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
  const rms = Math.sqrt(pcm.reduce((sum, s) => sum + s * s, 0) / Math.max(1, pcm.length)) / 32768;
  const gain = rms > 0 ? 10 ** (-22 / 20) / rms : 1;
  return Int16Array.from(pcm, (s) => Math.max(-32768, Math.min(32767, Math.round(s * gain))));
}

function silence(seconds: number): Int16Array {
  return new Int16Array(Math.round(seconds * RATE));
}

/**
 * Three recordings per voice: three sentences with 1.5 s gaps; numbers said one by one with
 * 0.7 s gaps (two lists); two sentences run together, a 3 s gap, a third sentence.
 */
export function makeRecordings(dir: string): Recording[] {
  const recordings: Recording[] = [];
  VOICES.forEach((voice, v) => {
    const sentence = (k: number) => SENTENCES[(v * 3 + k) % SENTENCES.length]!;
    const plans: Array<{ pieces: Array<[string, number]>; text: string }> = [];
    plans.push({
      pieces: [
        [sentence(0), 1.5],
        [sentence(1), 1.5],
        [sentence(2), 0],
      ],
      text: [0, 1, 2].map(sentence).join(' '),
    });
    const lists = [NUMBER_LISTS[v % NUMBER_LISTS.length]!, NUMBER_LISTS[(v + 3) % NUMBER_LISTS.length]!];
    const numbers = lists.join(' ').split(' ');
    plans.push({ pieces: numbers.map((w, i) => [w, i === 4 ? 1.5 : 0.7]), text: numbers.join(' ') });
    plans.push({
      pieces: [
        [`${sentence(3)} ${sentence(4)}`, 3],
        [sentence(5), 0],
      ],
      text: [3, 4, 5].map(sentence).join(' '),
    });
    plans.forEach((plan, r) => {
      const parts: Int16Array[] = [silence(0.6)];
      for (const [text, gap] of plan.pieces) parts.push(spoken(voice, text, dir), silence(gap));
      parts.push(silence(0.8));
      const pcm = Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
      const condition = CONDITIONS[(v + r) % CONDITIONS.length]!;
      const file = path.join(dir, `rec-${v}-${r}.${condition.ext}`);
      execFileSync(
        'ffmpeg',
        [
          '-nostdin',
          '-v',
          'error',
          '-y',
          '-f',
          's16le',
          '-ar',
          String(RATE),
          '-ac',
          '1',
          '-i',
          '-',
          ...condition.args,
          file,
        ],
        { input: pcm },
      );
      recordings.push({
        voice: voice.label,
        condition: condition.label,
        file,
        text: plan.text,
        seconds: pcm.length / 2 / RATE,
      });
    });
  });
  return recordings;
}

export interface SpeechVariant {
  label: string;
  /** ffmpeg audio filters before the 16 kHz mono conversion. */
  filters?: string;
  /** Resampler options for ffmpeg's aresample (e.g. soxr). */
  resampler?: string;
  /** Decode with pocketsphinx_continuous over the whole chunk (its own voice detection), as the converter did before. */
  continuous?: boolean;
  /** Extra pocketsphinx flags. */
  flags?: string[];
  /** Shortest silence (seconds) between two stretches; Infinity decodes 30 s pieces whole. */
  silence?: number;
  /** Decode the stretches with Moonshine (the npm-shipped ONNX model) instead of PocketSphinx. */
  moonshine?: boolean;
}

const BEFORE: SpeechVariant = { label: 'continuous decoder (before)', continuous: true };
const CONVERTER: SpeechVariant = { label: 'converter: stretches between silences (now)' };

/**
 * Round 1: one change at a time against the pipeline the converter had before (ffmpeg to 16 kHz
 * mono, pocketsphinx_continuous with Debian's en-us model and default flags).
 */
const ROUND1: SpeechVariant[] = [
  BEFORE,
  { label: 'soxr resampler', continuous: true, resampler: 'resampler=soxr:precision=28' },
  { label: 'high-pass 100 Hz', continuous: true, filters: 'highpass=f=100' },
  { label: 'loudnorm', continuous: true, filters: 'loudnorm' },
  { label: 'dynaudnorm', continuous: true, filters: 'dynaudnorm' },
  { label: 'high-pass + dynaudnorm', continuous: true, filters: 'highpass=f=100,dynaudnorm' },
  { label: 'afftdn denoise', continuous: true, filters: 'afftdn' },
  CONVERTER,
  ...(
    [
      ['-remove_dc yes', ['-remove_dc', 'yes']],
      ['-remove_noise no', ['-remove_noise', 'no']],
      ['-remove_silence no', ['-remove_silence', 'no']],
      ['-lw 5', ['-lw', '5']],
      ['-lw 8', ['-lw', '8']],
      ['-lw 10', ['-lw', '10']],
      ['-wip 0.2', ['-wip', '0.2']],
      ['-wip 2', ['-wip', '2']],
      ['-pl_window 0', ['-pl_window', '0']],
      ['-pl_window 10', ['-pl_window', '10']],
      ['wide beams', ['-beam', '1e-60', '-wbeam', '1e-40', '-pbeam', '1e-60']],
      ['-vad_threshold 3', ['-vad_threshold', '3']],
      ['-vad_threshold 1.5', ['-vad_threshold', '1.5']],
    ] as Array<[string, string[]]>
  ).map(([label, flags]) => ({ label, continuous: true, flags })),
];

/** Round 2: the converter as it is now against the pipeline before, then changes on top of it. */
const ROUND2: SpeechVariant[] = [
  BEFORE,
  CONVERTER,
  { label: 'stretches + -remove_silence yes', flags: ['-remove_silence', 'yes'] },
  { label: 'stretches + dynaudnorm', filters: 'dynaudnorm' },
  { label: 'stretches + high-pass 100 Hz', filters: 'highpass=f=100' },
  { label: 'stretches + soxr resampler', resampler: 'resampler=soxr:precision=28' },
  { label: 'stretches + -cmn batch', flags: ['-cmn', 'batch'] },
  { label: 'stretches + -remove_noise no', flags: ['-remove_noise', 'no'] },
  { label: 'stretches + -lw 8', flags: ['-lw', '8'] },
  { label: 'stretches + -wip 0.2', flags: ['-wip', '0.2'] },
];

/** Round 3: how long a silence must be to end a stretch. */
const ROUND3: SpeechVariant[] = [
  BEFORE,
  CONVERTER,
  { label: 'stretches end at 0.6 s silences', silence: 0.6 },
  { label: 'stretches end at 1 s silences', silence: 1 },
  { label: 'no silence split (30 s pieces)', silence: Infinity },
];

/** Round 4: another engine, Moonshine tiny, on the same stretches, against PocketSphinx. */
const ROUND4: SpeechVariant[] = [
  BEFORE,
  { label: 'PocketSphinx on stretches (the converter before)' },
  { label: 'Moonshine tiny on stretches', moonshine: true },
];

export const ROUNDS: Record<string, SpeechVariant[]> = {
  round1: ROUND1,
  round2: ROUND2,
  round3: ROUND3,
  round4: ROUND4,
};

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** 16 kHz mono WAV with the converter's ffmpeg arguments, plus the variant's filters. */
function prepare(source: string, out: string, variant: SpeechVariant): void {
  const filters = [variant.filters, variant.resampler && `aresample=16000:${variant.resampler}`].filter(Boolean);
  run('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-i',
    source,
    ...(filters.length ? ['-af', filters.join(',')] : []),
    ...SPEECH_WAV,
    out,
  ]);
}

const DECODER = ['-hmm', `${MODEL}/en-us`, '-lm', `${MODEL}/en-us.lm.bin`, '-dict', `${MODEL}/cmudict-en-us.dict`];

/** Words of pocketsphinx_continuous -time output, fillers and silences dropped. */
function wordsOf(output: string): string[] {
  const words: string[] = [];
  for (const line of output.split('\n')) {
    const m = /^(\S+) (\d+\.\d+) (\d+\.\d+) [\d.]+$/.exec(line.trim());
    if (!m || /^<|^\[|^\+\+/.test(m[1]!)) continue;
    words.push(m[1]!.replace(/\(\d+\)$/, ''));
  }
  return words;
}

async function decode(wav: string, variant: SpeechVariant): Promise<string[]> {
  if (variant.moonshine) {
    if (!moonshineInstalled()) throw new Error('speech bench: Moonshine is not installed');
    return (await transcribeWithMoonshine(wav)).flatMap((w) => w.word.split(/\s+/));
  }
  if (!variant.continuous) return (await transcribe(wav, variant.flags ?? [], variant.silence)).map((w) => w.word);
  return wordsOf(
    run('pocketsphinx_continuous', [
      '-infile',
      wav,
      ...DECODER,
      '-time',
      'yes',
      '-logfn',
      '/dev/null',
      ...(variant.flags ?? []),
    ]),
  );
}

function normalise(s: string): string[] {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Edit distance and longest common subsequence of two word lists. */
function align(ref: string[], hyp: string[]): { errors: number; common: number } {
  let dist = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  let lcs = new Array<number>(hyp.length + 1).fill(0);
  for (let i = 1; i <= ref.length; i++) {
    const d = [i];
    const l = [0];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1];
      d.push(Math.min(dist[j]! + 1, d[j - 1]! + 1, dist[j - 1]! + (same ? 0 : 1)));
      l.push(same ? lcs[j - 1]! + 1 : Math.max(lcs[j]!, l[j - 1]!));
    }
    dist = d;
    lcs = l;
  }
  return { errors: dist[hyp.length]!, common: lcs[hyp.length]! };
}

interface Score {
  errors: number;
  common: number;
  refWords: number;
  ms: number;
}

export async function runSpeechBench(round = 'round4', only?: string[]): Promise<string> {
  const all = ROUNDS[round];
  if (!all) throw new Error(`speech bench: no round ${round} (${Object.keys(ROUNDS).join(', ')})`);
  const variants = only?.length ? all.filter((v) => v === BEFORE || only.includes(v.label)) : all;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-speech-'));
  try {
    const recordings = makeRecordings(dir);
    const audio = recordings.reduce((s, r) => s + r.seconds, 0);
    const scores = new Map<string, Map<string, Score>>(variants.map((v) => [v.label, new Map()]));
    for (const [n, rec] of recordings.entries()) {
      const ref = normalise(rec.text);
      for (const variant of variants) {
        const wav = path.join(dir, 'prepared.wav');
        const start = performance.now();
        prepare(rec.file, wav, variant);
        // Moonshine writes capitals and punctuation; the reference is compared as bare lower-case words.
        const hyp = normalise((await decode(wav, variant)).join(' '));
        const ms = performance.now() - start;
        const { errors, common } = align(ref, hyp);
        for (const key of ['all', rec.condition, rec.voice.startsWith('flite') ? 'flite' : 'espeak-ng']) {
          const byKey = scores.get(variant.label)!;
          const s = byKey.get(key) ?? { errors: 0, common: 0, refWords: 0, ms: 0 };
          byKey.set(key, {
            errors: s.errors + errors,
            common: s.common + common,
            refWords: s.refWords + ref.length,
            ms: s.ms + ms,
          });
        }
        if (process.env.SPEECH_BENCH_VERBOSE)
          process.stderr.write(`${variant.label} | ${rec.voice} | ${rec.condition} | ${hyp.join(' ')}\n`);
      }
      process.stderr.write(`speech bench: recording ${n + 1}/${recordings.length}\n`);
    }
    const base = scores.get(BEFORE.label)!.get('all')!;
    const out = [
      `## Speech (offline), ${round}: ${recordings.length} recordings, ${audio.toFixed(0)} s of audio, ${base.refWords} words`,
      '',
      '| variant | WER | recall | WER by condition (' +
        CONDITIONS.map((c) => c.label).join(' / ') +
        ') | time ÷ before |',
      '|---|---|---|---|---|',
    ];
    for (const variant of variants) {
      const byKey = scores.get(variant.label)!;
      const all = byKey.get('all')!;
      const per = CONDITIONS.map((c) => {
        const s = byKey.get(c.label);
        return s ? (s.errors / s.refWords).toFixed(2) : '-';
      }).join(' / ');
      out.push(
        `| ${variant.label} | ${(all.errors / all.refWords).toFixed(3)} | ${(all.common / all.refWords).toFixed(3)} | ${per} | ${(all.ms / base.ms).toFixed(2)} |`,
      );
    }
    return `${out.join('\n')}\n`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const only = process.argv[3]?.split(',').filter(Boolean);
  void runSpeechBench(process.argv[2], only).then((table) => process.stdout.write(table));
}
