import fs from 'node:fs';
import { closeConversionWorkers, convertIsolated } from '../packages/conversion/src';

/** One conversion in this fresh process; prints {ms, peakRssMb} as the last line. */
async function main(): Promise<void> {
  const [file, ext] = process.argv.slice(2);
  const input = fs.readFileSync(file!);
  const started = performance.now();
  await convertIsolated(input, ext!, { enhanced: false }, { timeoutMs: 600_000, maxMemoryMb: 4096 });
  const ms = performance.now() - started;
  await closeConversionWorkers();
  process.stdout.write(`${JSON.stringify({ ms, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
