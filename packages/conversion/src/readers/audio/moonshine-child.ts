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
/** A stretch inside a file keeps this much real silence on each side; one at the file's edge gets it added. */
const EDGE_SILENCE = Math.round(STRETCH_PADDING * SAMPLE_RATE);

async function main(): Promise<void> {
  const [wav, list] = process.argv.slice(2);
  const model = await loadMoonshine();
  if (!model || !wav || !list) throw new Error('usage: moonshine-child <wav> <stretches.json>');
  const { samples } = wavSamples(fs.readFileSync(wav));
  const stretches = JSON.parse(fs.readFileSync(list, 'utf8')) as Array<[number, number]>;
  const texts: string[] = [];
  for (const [from, to] of stretches)
    texts.push(await model.transcribe(withEdgeSilence(samples, from * FRAME, to * FRAME, EDGE_SILENCE)));
  process.stdout.write(JSON.stringify(texts));
}

main().catch(() => {
  process.exitCode = 1;
});
