import fs from 'node:fs';
import path from 'node:path';
import { createTestEnv, silentLogger } from '@markwright/test-support';
import { startGateway } from '../services/gateway/src/gateway';
import { createWorkspace } from '../services/gateway/src/domain/workspaces';
import { pdf } from '../packages/conversion/bench/native';
import { startConverterProcess, submitAsync, waitUntilFinished } from './scaling';

const ROOT = path.join(__dirname, '..');
const CONVERTER = path.join(ROOT, 'services', 'converter', 'dist', 'main.js');
const PAGES = Number(process.env.BENCH_SPLIT_MEMORY_PAGES ?? 2000);
const HEALTH_PORT = Number(process.env.BENCH_SCALING_HEALTH_PORT ?? 18_181);

/** Peak resident set of a process (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

/**
 * Issue 22, point 3, memory: one 2,000-page PDF (a ruled table on every page) through the service
 * as `pnpm start` runs the converter (built, default settings: split into ranges, two at a time),
 * and the converter process's peak RSS (VmHWM, worker threads included; pdftohtml is a process of
 * its own). Target: under 512 MB. Build first (`pnpm build`).
 */
export async function runSplitMemoryBench(): Promise<string> {
  const bytes = await pdf(PAGES);
  const env = await createTestEnv({});
  const gateway = await startGateway(env.config, silentLogger);
  const converter = await startConverterProcess({ ...env.config, CONVERTER_WARM_UP: true }, HEALTH_PORT, [
    process.execPath,
    CONVERTER,
  ]);
  try {
    const { token } = await createWorkspace(gateway.db, { name: 'split-memory', plan: 'business', credits: 100_000 });
    const idle = peakRssMb(converter.pid!);
    const id = await submitAsync(gateway.url, token, bytes, 'long.pdf');
    await waitUntilFinished(gateway.db, [id]);
    const row = await gateway.db.conversion.findUniqueOrThrow({ where: { id } });
    if (row.status !== 'completed') throw new Error(`the conversion ${row.status}`);
    const peak = peakRssMb(converter.pid!);
    return (
      `One ${PAGES}-page PDF (${(bytes.length / 1e6).toFixed(1)} MB), async, one built converter at default settings: ` +
      `peak RSS after warm-up ${idle.toFixed(0)} MB, after the conversion ${peak.toFixed(0)} MB (target < 512 MB).\n`
    );
  } finally {
    converter.kill('SIGTERM');
    await gateway.stop();
    await env.cleanup();
  }
}
