import { closeConversionWorkers, convertIsolated, type IsolationLimits } from '../packages/conversion/src';
import { makeSamples } from '../packages/conversion/test/samples';

const ROUNDS = Number(process.env.BENCH_HARDENING_ROUNDS ?? 10);
/** Formats whose workers run hardened (PDF runs without frozen intrinsics; media is dominated by OCR/ASR). */
const FORMATS = [
  'txt',
  'md',
  'csv',
  'json',
  'xml',
  'html',
  'rtf',
  'docx',
  'doc',
  'xlsx',
  'xls',
  'ods',
  'pptx',
  'ppt',
  'odt',
  'odp',
  'epub',
];

async function conversionsPerSecond(
  limits: IsolationLimits,
  samples: Record<string, Buffer>,
  rounds = ROUNDS,
): Promise<number> {
  await closeConversionWorkers();
  for (const ext of FORMATS) await convertIsolated(samples[ext]!, ext, { enhanced: false }, limits);
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const ext of FORMATS) await convertIsolated(samples[ext]!, ext, { enhanced: false }, limits);
  }
  const seconds = (performance.now() - started) / 1000;
  await closeConversionWorkers();
  return (rounds * FORMATS.length) / seconds;
}

/**
 * What hardening the conversion workers costs: conversions per second of small documents of 17
 * formats, one at a time, with frozen intrinsics and with a fresh worker after every conversion,
 * each against the plain pool measured in the same run.
 */
export async function runHardeningBench(): Promise<string> {
  const samples = await makeSamples();
  const base = { timeoutMs: 120_000, maxMemoryMb: 1536 };
  // Interleaved and best of three, so load from elsewhere on the machine hits both alike.
  let plain = 0;
  let frozen = 0;
  for (let i = 0; i < 3; i++) {
    plain = Math.max(plain, await conversionsPerSecond({ ...base, frozenIntrinsics: false }, samples));
    frozen = Math.max(frozen, await conversionsPerSecond(base, samples));
  }
  const fresh = await conversionsPerSecond({ ...base, recycleHeapMb: 0 }, samples, 1);
  const row = (label: string, rate: number) => `| ${label} | ${rate.toFixed(1)} | ${(rate / plain).toFixed(2)}× |`;
  return [
    `Worker hardening: ${ROUNDS} rounds of ${FORMATS.length} small documents, one at a time, best of 3 (baseline: plain workers; fresh workers: 1 round).`,
    '',
    '| workers | conversions/s | ÷ baseline |',
    '|---|---|---|',
    row('plain (baseline)', plain),
    row('frozen intrinsics (default)', frozen),
    row('frozen + fresh worker after each conversion', fresh),
    '',
  ].join('\n');
}
