import fs from 'node:fs';
import { closeOcrEngine, ocrImage } from '../../src/readers/shared/ocr/engine';
import { isNativeTesseractInstalled } from '../../src/readers/shared/ocr/native-tesseract';

/** Reads an image in a process whose PATH has no tesseract and reports which engine was there and what it read. */
async function main(): Promise<void> {
  const result = await ocrImage(fs.readFileSync(process.argv[2]!));
  await closeOcrEngine();
  process.stdout.write(
    `${JSON.stringify({ native: isNativeTesseractInstalled(), text: result.paragraphs.join('\n') })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(String(err));
  process.exit(1);
});
