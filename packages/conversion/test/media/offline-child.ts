import net from 'node:net';
import fs from 'node:fs';
import { convertDocument } from '../../src';
import { closeOcrEngine } from '../../src/readers/shared/ocr/engine';

/** Runs OCR and transcription in this process (network refused by the preloaded guard) and reports. */
async function main(): Promise<void> {
  const [image, audio] = process.argv.slice(2);
  const ocr = await convertDocument(fs.readFileSync(image!), 'png', { enhanced: false });
  const speech = await convertDocument(fs.readFileSync(audio!), 'wav', { enhanced: false });
  await closeOcrEngine();
  const during = [...((globalThis as { __networkAttempts?: string[] }).__networkAttempts ?? [])];
  // Proves the guard is live: a loopback probe must be refused and recorded.
  try {
    net.connect(9, '127.0.0.1');
  } catch {
    // refused, as intended
  }
  const attempts = (globalThis as { __networkAttempts?: string[] }).__networkAttempts ?? [];
  process.stdout.write(`${JSON.stringify({ ocr: ocr.markdown, speech: speech.markdown, during, attempts })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(String(err));
  process.exit(1);
});
