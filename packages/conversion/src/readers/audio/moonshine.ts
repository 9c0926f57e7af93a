import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Moonshine tiny (English, MIT licence): ONNX weights shipped inside the `@moonshine-ai/moonshine-js`
 * npm package, run on the CPU by onnxruntime-node, tokens read with llama-tokenizer-js (Moonshine's
 * vocabulary is Llama's). Nothing is fetched: the model is installed with the dependencies. It
 * halved PocketSphinx's word error rate on the speech bench at a third of its time
 * (docs/performance.md, "Speech (offline)").
 *
 * It runs in a child process (`moonshine-child.ts`), as PocketSphinx does: onnxruntime's native code
 * aborts the whole process when a worker thread is terminated during a run (a conversion's timeout).
 */

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;
type Tensor = import('onnxruntime-node').Tensor;

const MODEL_PACKAGE = '@moonshine-ai/moonshine-js';
const MODEL_FILES = 'dist/model/tiny/quantized';
/** The tiny model's decoder: layers, key/value heads and head size of its cache. */
const DECODER_SHAPE = { layers: 6, heads: 8, headSize: 36 };
const START_TOKEN = 1;
const END_TOKEN = 2;
/** Speech rarely exceeds this many tokens a second; the cap stops a decoder that repeats itself. */
const MAX_TOKENS_PER_SECOND = 6;
/** Tokens always allowed beyond that, so a one-word stretch can be written out. */
const MIN_TOKENS = 8;
const SAMPLE_RATE = 16_000;
/** Silence (seconds) around each utterance: measured on 238 clips of 0.5-7.6 s, 0.1 s beat none, 0.15 and 0.25 s. */
const UTTERANCE_SILENCE_SECONDS = 0.1;

export interface Moonshine {
  /** Text said in 16 kHz mono samples (-1…1), one utterance of at most about 30 s. */
  transcribe(samples: Float32Array): Promise<string>;
}

const run = promisify(execFile);
/**
 * A build runs the bundled child (dist/moonshine-child.js) with plain node; sources run the TypeScript
 * file through tsx. `__dirname` is this source folder in both (scripts/build.js keeps it so).
 */
const CHILD =
  process.env.MARKWRIGHT_BUNDLE === 'true'
    ? [path.join(__dirname, '..', '..', '..', 'dist', 'moonshine-child.js')]
    : ['--require', require.resolve('tsx/cjs'), path.join(__dirname, 'moonshine-child.ts')];
const CHILD_TIMEOUT_MS = 10 * 60_000;

/** Whether the model's package is installed (else PocketSphinx transcribes). */
export function moonshineInstalled(): boolean {
  return modelDir() !== undefined;
}

/**
 * Moonshine's text for each [start, end) range of 10 ms frames of a 16 kHz mono WAV, from one
 * child process (the model loads once per chunk, about half a second).
 */
export async function moonshineStretches(wav: string, stretches: Array<[number, number]>): Promise<string[]> {
  const list = `${wav}.stretches.json`;
  await fs.promises.writeFile(list, JSON.stringify(stretches));
  try {
    const { stdout } = await run(process.execPath, [...CHILD, wav, list], {
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    const texts = JSON.parse(stdout) as unknown;
    if (!Array.isArray(texts) || texts.length !== stretches.length) throw new Error('Moonshine gave no transcript');
    return texts.map(String);
  } finally {
    await fs.promises.rm(list, { force: true });
  }
}

/**
 * Samples with UTTERANCE_SILENCE_SECONDS of digital silence added before and after. Without it, speech
 * that starts at the first sample misleads the model ("Hello world." read as "Hila, in world," in a
 * one-second MP3); with more, a short word drowns in silence and the model writes nothing.
 */
export function withSilenceAround(samples: Float32Array): Float32Array {
  const pad = Math.round(UTTERANCE_SILENCE_SECONDS * SAMPLE_RATE);
  const out = new Float32Array(samples.length + 2 * pad);
  out.set(samples, pad);
  return out;
}

let loading: Promise<Moonshine | undefined> | undefined;

/** The model, loaded once per process (about half a second); undefined when its runtime or files are not installed. */
export function loadMoonshine(): Promise<Moonshine | undefined> {
  loading ??= load().catch(() => undefined);
  return loading;
}

async function load(): Promise<Moonshine | undefined> {
  const dir = modelDir();
  if (!dir) return undefined;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const ort = require('onnxruntime-node') as Ort;
  const tokenizer = (require('llama-tokenizer-js') as typeof import('llama-tokenizer-js')).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  // One thread: each conversion slot is given one core (docs/decisions.md).
  const options: import('onnxruntime-node').InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    logSeverityLevel: 3,
  };
  const encoder = await ort.InferenceSession.create(path.join(dir, 'encoder_model.onnx'), options);
  const decoder = await ort.InferenceSession.create(path.join(dir, 'decoder_model_merged.onnx'), options);
  const vocabulary = tokenizer.vocabById.length;
  return {
    async transcribe(samples) {
      const tokens = await decode(ort, encoder, decoder, withSilenceAround(samples));
      return tokenizer.decode(tokens.filter((t) => t < vocabulary && t > END_TOKEN)).trim();
    },
  };
}

/** The model's folder inside the installed package (its exports map names no file we could resolve). */
function modelDir(): string | undefined {
  for (const base of require.resolve.paths(MODEL_PACKAGE) ?? []) {
    const dir = path.join(base, MODEL_PACKAGE, MODEL_FILES);
    if (fs.existsSync(path.join(dir, 'encoder_model.onnx'))) return dir;
  }
  return undefined;
}

/** Greedy decoding with the decoder's key/value cache, as the package's own browser code does. */
async function decode(ort: Ort, encoder: Session, decoder: Session, samples: Float32Array): Promise<number[]> {
  const { last_hidden_state: hidden } = await encoder.run({
    input_values: new ort.Tensor('float32', samples, [1, samples.length]),
  });
  const past: Record<string, Tensor> = {};
  const { layers, heads, headSize } = DECODER_SHAPE;
  for (let layer = 0; layer < layers; layer++)
    for (const part of ['decoder', 'encoder'])
      for (const kind of ['key', 'value'])
        past[`past_key_values.${layer}.${part}.${kind}`] = new ort.Tensor('float32', new Float32Array(0), [
          0,
          heads,
          1,
          headSize,
        ]);
  const limit = Math.trunc((samples.length / SAMPLE_RATE) * MAX_TOKENS_PER_SECOND) + MIN_TOKENS;
  const tokens: number[] = [];
  let next = START_TOKEN;
  for (let step = 0; step < limit; step++) {
    const out = await decoder.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(next)), [1, 1]),
      encoder_hidden_states: hidden!,
      use_cache_branch: new ort.Tensor('bool', [step > 0], [1]),
      ...past,
    });
    next = argMaxOfLast(out.logits!);
    if (next === END_TOKEN) break;
    tokens.push(next);
    for (const [name, value] of Object.entries(out)) {
      if (!name.startsWith('present.')) continue;
      const key = name.replace('present.', 'past_key_values.');
      // The encoder's keys and values are computed on the first step only; later steps return them empty.
      if (step === 0 || key.includes('.decoder.')) past[key] = value;
    }
  }
  return tokens;
}

function argMaxOfLast(logits: Tensor): number {
  const data = logits.data as Float32Array;
  const size = logits.dims[logits.dims.length - 1]!;
  const from = data.length - size;
  let best = 0;
  for (let i = 1; i < size; i++) if (data[from + i]! > data[from + best]!) best = i;
  return best;
}
