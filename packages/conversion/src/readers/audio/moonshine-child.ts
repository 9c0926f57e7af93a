import fs from 'node:fs';
import { STRETCH_PADDING, wavSamples } from './index';
import { loadMoonshine, withEdgeSilence } from './moonshine';

/**
 * `node moonshine-child.js <16 kHz mono wav> <json of [start, end) frame ranges>`: prints a JSON list
 * of Moonshine's text for each range. Its own process, so that a conversion stopped mid-run ends
 * this process, not the converter (moonshine.ts).
 */
const FRAME = 160;
const SAMPLE_RATE = 16_000;
/** A stretch inside a file keeps this much real silence on each side; one at the file's edge is also read with it added. */
const EDGE_SILENCE = Math.round(STRETCH_PADDING * SAMPLE_RATE);

async function main(): Promise<void> {
  const [wav, list] = process.argv.slice(2);
  const model = await loadMoonshine();
  if (!model || !wav || !list) throw new Error('usage: moonshine-child <wav> <stretches.json>');
  const { samples } = wavSamples(fs.readFileSync(wav));
  const stretches = JSON.parse(fs.readFileSync(list, 'utf8')) as Array<[number, number]>;
  const texts: string[] = [];
  for (const [from, to] of stretches) {
    let reading = await model.transcribe(withEdgeSilence(samples, from * FRAME, to * FRAME, 0));
    // Speech at the file's very start or end can misread ("Hello world." in a one-second MP3 as "Hila, in
    // world,"), and silence added can empty a reading of noisy speech: the model's more confident reading wins.
    if (from === 0 || to * FRAME >= samples.length) {
      const padded = await model.transcribe(withEdgeSilence(samples, from * FRAME, to * FRAME, EDGE_SILENCE));
      if (padded.confidence > reading.confidence) reading = padded;
    }
    texts.push(reading.text);
  }
  process.stdout.write(JSON.stringify(texts));
}

main().catch(() => {
  process.exitCode = 1;
});
