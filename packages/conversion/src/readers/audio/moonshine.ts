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

export interface Moonshine {
  /** Text said in 16 kHz mono samples (-1…1), one utterance of at most about 30 s. */
  transcribe(samples: Float32Array): Promise<Reading>;
}

export interface Reading {
  text: string;
  /** Mean log-probability of the tokens chosen, the end token included: the model's own confidence. */
  confidence: number;
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
 * child process (the model loads once per chunk, about half a second); `null` for a range whose
 * words were read together with the range before and are in its text.
 */
export async function moonshineStretches(
  wav: string,
  stretches: Array<[number, number]>,
): Promise<Array<string | null>> {
  const list = `${wav}.stretches.json`;
  await fs.promises.writeFile(list, JSON.stringify(stretches));
  try {
    const { stdout } = await run(process.execPath, [...CHILD, wav, list], {
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    const texts = JSON.parse(stdout) as unknown;
    if (!Array.isArray(texts) || texts.length !== stretches.length) throw new Error('Moonshine gave no transcript');
    return texts.map((t) => (t === null ? null : String(t)));
  } finally {
    await fs.promises.rm(list, { force: true });
  }
}

/**
 * Samples [from, to) as -1…1, with `pad` samples of digital silence added where the range touches the
 * file's start or end, as much as a stretch inside the file keeps on each side.
 */
export function withEdgeSilence(samples: Int16Array, from: number, to: number, pad: number): Float32Array {
  const end = Math.min(to, samples.length);
  const before = from <= 0 ? pad : 0;
  const after = to >= samples.length ? pad : 0;
  const out = new Float32Array(before + (end - from) + after);
  for (let i = from; i < end; i++) out[before + i - from] = samples[i]! / 32768;
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
      const { tokens, confidence } = await decode(ort, encoder, decoder, samples);
      return { text: tokenizer.decode(tokens.filter((t) => t < vocabulary && t > END_TOKEN)).trim(), confidence };
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
async function decode(
  ort: Ort,
  encoder: Session,
  decoder: Session,
  samples: Float32Array,
): Promise<{ tokens: number[]; confidence: number }> {
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
  let logProbability = 0;
  let chosen = 0;
  let next = START_TOKEN;
  for (let step = 0; step < limit; step++) {
    const out = await decoder.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(next)), [1, 1]),
      encoder_hidden_states: hidden!,
      use_cache_branch: new ort.Tensor('bool', [step > 0], [1]),
      ...past,
    });
    next = argMaxOfLast(out.logits!);
    logProbability += logProbabilityOf(out.logits!, next);
    chosen++;
    if (next === END_TOKEN) break;
    tokens.push(next);
    for (const [name, value] of Object.entries(out)) {
      if (!name.startsWith('present.')) continue;
      const key = name.replace('present.', 'past_key_values.');
      // The encoder's keys and values are computed on the first step only; later steps return them empty.
      if (step === 0 || key.includes('.decoder.')) past[key] = value;
    }
  }
  return { tokens, confidence: chosen ? logProbability / chosen : -Infinity };
}

/** log softmax of the last position's logits, at `token`. */
function logProbabilityOf(logits: Tensor, token: number): number {
  const data = logits.data as Float32Array;
  const size = logits.dims[logits.dims.length - 1]!;
  const from = data.length - size;
  let max = -Infinity;
  for (let i = 0; i < size; i++) max = Math.max(max, data[from + i]!);
  let sum = 0;
  for (let i = 0; i < size; i++) sum += Math.exp(data[from + i]! - max);
  return data[from + token]! - max - Math.log(sum);
}

function argMaxOfLast(logits: Tensor): number {
  const data = logits.data as Float32Array;
  const size = logits.dims[logits.dims.length - 1]!;
  const from = data.length - size;
  let best = 0;
  for (let i = 1; i < size; i++) if (data[from + i]! > data[from + best]!) best = i;
  return best;
}
