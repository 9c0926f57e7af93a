import fs from 'node:fs';
import { wavSamples } from './index';
import { loadMoonshine } from './moonshine';

/**
 * `node moonshine-child.js <16 kHz mono wav> <json of [start, end) frame ranges>`: prints a JSON list
 * of Moonshine's text for each range. Its own process, so that a conversion stopped mid-run ends
 * this process, not the converter (moonshine.ts).
 */
const FRAME = 160;

async function main(): Promise<void> {
  const [wav, list] = process.argv.slice(2);
  const model = await loadMoonshine();
  if (!model || !wav || !list) throw new Error('usage: moonshine-child <wav> <stretches.json>');
  const { samples } = wavSamples(fs.readFileSync(wav));
  const stretches = JSON.parse(fs.readFileSync(list, 'utf8')) as Array<[number, number]>;
  const texts: string[] = [];
  for (const [from, to] of stretches)
    texts.push(await model.transcribe(Float32Array.from(samples.subarray(from * FRAME, to * FRAME), (s) => s / 32768)));
  process.stdout.write(JSON.stringify(texts));
}

main().catch(() => {
  process.exitCode = 1;
});
