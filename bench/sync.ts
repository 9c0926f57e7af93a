import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

interface Figures {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
}

interface LoadRow {
  path: string;
  connections: number;
  result: Figures;
  echo: Figures;
  ratio: number;
  p99Ratio: number;
}

/**
 * The sync round trip for `pnpm bench`: runs `pnpm load` (bench/load.ts: gateway and converter as
 * separate processes, autocannon, a bare Express + multer echo measured beside each run) at 1, 16
 * and 64 connections, sync runs only, and turns its figures into the bench's table. `BENCH_SYNC_S`
 * sets the seconds per run (default 8).
 */
export async function runSyncBench(): Promise<string> {
  const root = path.join(__dirname, '..');
  const { stdout } = await promisify(execFile)(
    path.join(root, 'node_modules', '.bin', 'tsx'),
    [path.join(__dirname, 'load.ts')],
    {
      cwd: root,
      env: { ...process.env, LOAD_READS: '0', LOAD_DURATION_S: process.env.BENCH_SYNC_S ?? '8' },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const last = stdout.trim().split('\n').pop()!;
  const { rows, ledgerOk } = JSON.parse(last) as { rows: LoadRow[]; ledgerOk: boolean };
  const lines = [
    'Sync 1 KB `.txt` round trip (POST /convert, no webhook) against a bare Express 5 + multer echo measured in the same run.',
    '',
    '| connections | Markwright req/s | p50 ms | p99 ms | errors | echo req/s | echo p99 ms | ratio (target ≥ 0.30) | p99 ÷ echo (target ≤ 2×) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows.filter((row) => row.path === 'sync 1KB txt')) {
    lines.push(
      `| ${r.connections} | ${r.result.reqPerSec.toFixed(1)} | ${r.result.p50} | ${r.result.p99} | ${r.result.errors} | ` +
        `${r.echo.reqPerSec.toFixed(1)} | ${r.echo.p99} | ${r.ratio.toFixed(3)} | ${r.p99Ratio.toFixed(1)}× |`,
    );
  }
  lines.push('', ledgerOk ? 'Ledger reconciled after the runs.' : '**Ledger did not reconcile** (see `pnpm load`).');
  return `${lines.join('\n')}\n`;
}
