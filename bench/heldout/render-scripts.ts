import fs from 'node:fs';
import path from 'node:path';
import { HELD_OUT_CASES, renderCase } from '../../packages/conversion/test/heldout/script-scans';

/** Writes the held-out script scans to a folder (default bench/out/heldout-scripts) with their phrases, to look at or feed other tools. */
async function main(): Promise<void> {
  const dir = process.argv[2] ?? path.join('bench', 'out', 'heldout-scripts');
  fs.mkdirSync(dir, { recursive: true });
  const index: Array<{ id: string; file: string; phrases: string[]; languages: string }> = [];
  for (const [i, c] of HELD_OUT_CASES.entries()) {
    const { image, ext } = await renderCase(c, i);
    const file = `${c.id}.${ext}`;
    fs.writeFileSync(path.join(dir, file), image);
    index.push({ id: c.id, file, phrases: c.phrases, languages: c.languages });
  }
  fs.writeFileSync(path.join(dir, 'cases.json'), JSON.stringify(index, null, 2));
  process.stdout.write(`${index.length} images in ${dir}\n`);
}

void main();
