import sharp from 'sharp';
import { isSpeckled } from '../src/readers/shared/ocr/ink';
import { prepareImage } from '../src/readers/shared/ocr/engine';
import fs from 'node:fs';
async function main() {
  for (const f of process.argv.slice(2)) {
    const { data, info } = await sharp(f).greyscale().raw().toBuffer({ resolveWithObject: true });
    const prepared = await prepareImage(fs.readFileSync(f));
    console.log(f, info.width, info.height, isSpeckled({ pixels: data, width: info.width, height: info.height } as never), 'prepared', prepared.width, prepared.height);
  }
}
main();
