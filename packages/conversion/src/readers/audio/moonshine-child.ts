import fs from 'node:fs';
import { PARAGRAPH_PAUSE, STRETCH_PADDING, wavSamples } from './index';
import { loadMoonshine, withEdgeSilence, type Moonshine, type Reading } from './moonshine';

/**
 * `node moonshine-child.js <16 kHz mono wav> <json of [start, end) frame ranges>`: prints a JSON list
 * of Moonshine's text for each range, `null` for a range read together with the one before (below).
 * Its own process, so that a conversion stopped mid-run ends this process, not the converter
 * (moonshine.ts).
 */
const FRAME = 160;
const SAMPLE_RATE = 16_000;
const FRAMES_PER_SECOND = SAMPLE_RATE / FRAME;
/** A stretch inside a file keeps this much real silence on each side; one at the file's edge is also read with it added. */
const EDGE_SILENCE = Math.round(STRETCH_PADDING * SAMPLE_RATE);
/** Stretches this short (seconds, their kept silence included) are words or short phrases said apart... */
const SHORT_STRETCH_SECONDS = 3;
/** ...and are also read as one utterance, up to this long, when less than a paragraph's pause apart. */
const GROUP_SECONDS = 12;

async function main(): Promise<void> {
  const [wav, list] = process.argv.slice(2);
  const model = await loadMoonshine();
  if (!model || !wav || !list) throw new Error('usage: moonshine-child <wav> <stretches.json>');
  const { samples } = wavSamples(fs.readFileSync(wav));
  const stretches = JSON.parse(fs.readFileSync(list, 'utf8')) as Array<[number, number]>;
  const readings: Reading[] = [];
  for (const [from, to] of stretches) {
    let reading = await model.transcribe(withEdgeSilence(samples, from * FRAME, to * FRAME, 0));
    // Speech at the file's very start or end can misread ("Hello world." in a one-second MP3 as "Hila, in
    // world,"), and silence added can empty a reading of noisy speech: the model's more confident reading wins.
    if (from === 0 || to * FRAME >= samples.length) {
      const padded = await model.transcribe(withEdgeSilence(samples, from * FRAME, to * FRAME, EDGE_SILENCE));
      if (padded.confidence > reading.confidence) reading = padded;
    }
    readings.push(reading);
  }
  const texts: Array<string | null> = readings.map((r) => r.text);
  for (const [first, last] of shortRuns(stretches)) {
    const together = await readTogether(model, samples, stretches.slice(first, last + 1));
    const apart = readings.slice(first, last + 1);
    if (betterTogether(together, apart))
      texts.splice(first, last - first + 1, together.text, ...apart.slice(1).map(() => null));
  }
  process.stdout.write(JSON.stringify(texts));
}

/**
 * Runs of two or more short stretches, each less than a paragraph's pause after the one before, as
 * [first, last] indexes: words or short phrases said one by one ("One. Two. Three. Four."), which the
 * model misreads alone for want of context ("four" as "Or?").
 */
function shortRuns(stretches: Array<[number, number]>): Array<[number, number]> {
  const short = ([from, to]: [number, number]): boolean => to - from <= SHORT_STRETCH_SECONDS * FRAMES_PER_SECOND;
  // Each stretch keeps STRETCH_PADDING of silence on both sides: the pause is the gap between the sounds.
  const pauseBefore = (i: number): number =>
    (stretches[i]![0] - stretches[i - 1]![1]) / FRAMES_PER_SECOND + 2 * STRETCH_PADDING;
  const runs: Array<[number, number]> = [];
  let first = 0;
  for (let i = 1; i <= stretches.length; i++) {
    const joins =
      i < stretches.length &&
      short(stretches[i]!) &&
      short(stretches[i - 1]!) &&
      pauseBefore(i) < PARAGRAPH_PAUSE &&
      stretches[i]![1] - stretches[first]![0] <= GROUP_SECONDS * FRAMES_PER_SECOND;
    if (joins) continue;
    if (i - 1 > first) runs.push([first, i - 1]);
    first = i;
  }
  return runs;
}

/** The stretches one after another as one utterance, each with its kept silence (the pauses between them cut to that). */
async function readTogether(model: Moonshine, samples: Int16Array, run: Array<[number, number]>): Promise<Reading> {
  const parts = run.map(([from, to]) => withEdgeSilence(samples, from * FRAME, to * FRAME, 0));
  const joined = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return model.transcribe(joined);
}

/**
 * The reading together is kept when the model is at least as confident of it as, on average, of the
 * readings apart, and it did not lose most of their words (noise can end a long reading early).
 */
function betterTogether(together: Reading, apart: Reading[]): boolean {
  const words = (r: Reading): number => r.text.split(/\s+/).filter(Boolean).length;
  const mean = apart.reduce((sum, r) => sum + r.confidence, 0) / apart.length;
  const wordsApart = apart.reduce((sum, r) => sum + words(r), 0);
  return words(together) > 0 && 2 * words(together) >= wordsApart && together.confidence >= mean;
}

main().catch(() => {
  process.exitCode = 1;
});
