import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestEnv, silentLogger } from '@markwright/test-support';
import { startGateway } from '../services/gateway/src/gateway';
import { createWorkspace } from '../services/gateway/src/domain/workspaces';
import { pdf } from '../packages/conversion/bench/native';
import { ruledTablePdf } from './ruled-table-pdf';
import { startConverterProcess, stop, submitAsync, waitUntilFinished } from './scaling';

const ROOT = path.join(__dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const RUNNER = path.join(__dirname, 'convert-one.ts');
const PAGES = Number(process.env.BENCH_SPLIT_PAGES ?? 400);
/**
 * The document: pages shaped like ../shared/perf's (a heading, paragraphs and a ruled table each:
 * 2-3x the reader's CPU per page of `plain`, and the kind whose first conversions V8 has not
 * compiled for yet), or BENCH_SPLIT_DOC=plain, one heading and one paragraph a page (the rows of
 * this bench before 2026-11-27).
 */
const DOC = process.env.BENCH_SPLIT_DOC === 'plain' ? 'plain' : 'ruled';
const REPS = Number(process.env.BENCH_SPLIT_REPS ?? 3);
const BASE_HEALTH_PORT = Number(process.env.BENCH_SCALING_HEALTH_PORT ?? 18_181);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const CLOCK_TICKS_PER_S = 100;

/**
 * CPU of a process and everything under it so far, in ms: user + system of every thread, and of
 * the children it waited for (pdftohtml), summed down the tree (tsx runs the converter as a child).
 */
function treeCpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const own = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    const children = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean);
    return (own * 1000) / CLOCK_TICKS_PER_S + children.reduce((sum, child) => sum + treeCpuMs(Number(child)), 0);
  } catch {
    return 0;
  }
}

/**
 * Issue 22, point 3: one long PDF (400 pages, a table on every page) through the service, async,
 * from POST to completed_at, split across converters into as many ranges as they have slots
 * (at least 2, at most ceil(pages / SPLIT_PAGES)); against the same file converted whole in one
 * process (its conversion time, start-up left out). Rows: the default settings (one converter,
 * CONVERTER_CONCURRENCY 2), and one against two converter processes at CONVERTER_CONCURRENCY=1.
 * Converters are fresh for each run and timed once ready, which is after their warm-up
 * (CONVERTER_WARM_UP: the warm-up PDF on every slot). Median of REPS, the settings interleaved; also
 * the median time from POST to the parent job's claim (started_at: the queue hop).
 */
export async function runSplitBench(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-split-'));
  const file = path.join(dir, 'long.pdf');
  const bytes = DOC === 'plain' ? await pdf(PAGES) : await ruledTablePdf(PAGES);
  fs.writeFileSync(file, bytes);
  const env = await createTestEnv({});
  const gateway = await startGateway(env.config, silentLogger);
  const { token } = await createWorkspace(gateway.db, { name: 'split-bench', plan: 'business', credits: 100_000 });
  const settings: Array<{ label: string; processes: number; concurrency: number }> = [
    { label: 'one converter, CONVERTER_CONCURRENCY=2 (default)', processes: 1, concurrency: 2 },
    { label: 'one converter, CONVERTER_CONCURRENCY=1', processes: 1, concurrency: 1 },
    { label: 'two converters, CONVERTER_CONCURRENCY=1', processes: 2, concurrency: 1 },
  ];
  const times = new Map<string, number[]>(settings.map((s) => [s.label, []]));
  const claims = new Map<string, number[]>(settings.map((s) => [s.label, []]));
  // The busiest converter's CPU over the conversion: on a quiet machine, the wall time's floor.
  const busiest = new Map<string, number[]>(settings.map((s) => [s.label, []]));
  const whole: number[] = [];
  try {
    for (let rep = 0; rep < REPS; rep++) {
      const out = execFileSync(TSX, [RUNNER, file, 'pdf'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      whole.push((JSON.parse(out.trim().split('\n').pop()!) as { ms: number }).ms);
      for (const s of rep % 2 === 0 ? settings : [...settings].reverse()) {
        const config = { ...env.config, CONVERTER_CONCURRENCY: s.concurrency, CONVERTER_WARM_UP: true };
        const children = await Promise.all(
          Array.from({ length: s.processes }, (_, i) => startConverterProcess(config, BASE_HEALTH_PORT + i)),
        );
        try {
          const cpuBefore = children.map((c) => treeCpuMs(c.pid!));
          const started = Date.now();
          const id = await submitAsync(gateway.url, token, bytes, 'long.pdf');
          const finished = await waitUntilFinished(gateway.db, [id]);
          times.get(s.label)!.push(finished - started);
          busiest.get(s.label)!.push(Math.max(...children.map((c, i) => treeCpuMs(c.pid!) - cpuBefore[i]!)));
          const row = await gateway.db.conversion.findUniqueOrThrow({
            where: { id },
            select: { startedAt: true },
          });
          claims.get(s.label)!.push(row.startedAt!.getTime() - started);
        } finally {
          await Promise.all(children.map(stop));
        }
      }
    }
  } finally {
    await gateway.stop();
    await env.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const base = median(whole);
  const one = median(times.get(settings[1]!.label)!);
  const oneCpu = median(busiest.get(settings[1]!.label)!);
  const rows = [
    '| how | ms (median) | ÷ one process | ÷ one converter at concurrency 1 | POST to claim, ms | busiest converter CPU, ms | ÷ one at concurrency 1 |',
    '|---|---|---|---|---|---|---|',
    `| one \`convertIsolated\` process, whole file (baseline) | ${base.toFixed(0)} | 1.00 | | | | |`,
    ...settings.map((s) => {
      const ms = median(times.get(s.label)!);
      const claim = median(claims.get(s.label)!);
      const cpu = median(busiest.get(s.label)!);
      return `| ${s.label} | ${ms.toFixed(0)} | ${(ms / base).toFixed(2)} | ${(ms / one).toFixed(2)} | ${claim.toFixed(0)} | ${cpu.toFixed(0)} | ${(cpu / oneCpu).toFixed(2)} |`;
    }),
  ];
  return (
    `One ${PAGES}-page PDF (${DOC === 'plain' ? 'a heading and a paragraph a page' : 'a heading, paragraphs and a ruled table a page'}), async, POST to completed_at, split into as many ranges as the converters have slots (at least 2); converters warmed up; median of ${REPS}. ` +
    'The busiest converter’s CPU (its process tree, pdftohtml included) is what the wall time cannot go below on a quiet machine, and what still compares under load.\n\n' +
    `${rows.join('\n')}\n`
  );
}
