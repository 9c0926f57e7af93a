import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { createTestEnv, silentLogger } from '@markwright/test-support';
import { startGateway } from '../services/gateway/src/gateway';
import { createWorkspace } from '../services/gateway/src/domain/workspaces';
import { benchCases as mediaCases } from '../packages/conversion/bench/media';
import { docx, html, pdf, xlsx } from '../packages/conversion/bench/native';

const ROOT = path.join(__dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CONVERTER = path.join(ROOT, 'services', 'converter', 'src', 'entry-points', 'main.ts');
const PROCESSES = [1, 2, 4];
const ROUNDS = Number(process.env.BENCH_SCALING_ROUNDS ?? 4);
const BASE_HEALTH_PORT = Number(process.env.BENCH_SCALING_HEALTH_PORT ?? 18_181);

/**
 * Throughput of a queue of mixed conversions drained by 1, 2 and 4 converter processes (each with the
 * configured CONVERTER_CONCURRENCY), on this machine. The converters start and report ready first, so
 * start-up is not counted; the time is from the first accepted upload to the last completed_at.
 */
export async function runScalingBench(): Promise<string> {
  const env = await createTestEnv({ CONVERTER_CONCURRENCY: process.env.CONVERTER_CONCURRENCY ?? '2' });
  const gateway = await startGateway(env.config, silentLogger);
  const ocrPage = await mediaCases.find((c) => c.ext === 'png')!.make();
  const mix: Array<[string, Buffer]> = [
    ['report.pdf', await pdf(20)],
    ['memo.docx', await docx(20)],
    ['sheet.xlsx', xlsx(5000)],
    ['page.html', html(200_000)],
    ['notes.txt', Buffer.from('Plain notes.\n'.repeat(2000))],
    ['scan.png', ocrPage],
  ];
  const rows = [
    '| converter processes | conversions | seconds | conversions/s | ÷ 1 process |',
    '|---|---|---|---|---|',
  ];
  let single = 0;
  try {
    for (const count of PROCESSES) {
      const { token } = await createWorkspace(gateway.db, {
        name: `scaling-${count}`,
        plan: 'business',
        credits: 10_000,
      });
      const children = await Promise.all(
        Array.from({ length: count }, (_, i) => startConverterProcess(env.config, BASE_HEALTH_PORT + i)),
      );
      try {
        const ids: string[] = [];
        const started = Date.now();
        for (let round = 0; round < ROUNDS; round++) {
          for (const [name, bytes] of mix) {
            ids.push(await submitAsync(gateway.url, token, bytes, name));
          }
        }
        const finished = await waitUntilFinished(gateway.db, ids);
        const seconds = (finished - started) / 1000;
        const rate = ids.length / seconds;
        if (count === 1) single = rate;
        rows.push(
          `| ${count} | ${ids.length} | ${seconds.toFixed(1)} | ${rate.toFixed(2)} | ${(rate / single).toFixed(2)}× |`,
        );
        process.stderr.write(`scaling ${count}: done\n`);
      } finally {
        await Promise.all(children.map(stop));
      }
    }
  } finally {
    await gateway.stop();
    await env.cleanup();
  }
  return `Queue of mixed conversions (pdf 20 p, docx 20 p, xlsx 5k rows, html 200 KB, txt, OCR page) × ${ROUNDS}, drained by N converter processes.\n\n${rows.join('\n')}\n`;
}

/**
 * A converter process, resolved once its /readyz answers 200: from sources by default; `command`
 * runs another (the build, as `pnpm start` does).
 */
export async function startConverterProcess(
  config: Record<string, unknown>,
  healthPort: number,
  command: [string, ...string[]] = [TSX, CONVERTER],
): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  for (const [key, value] of Object.entries(config)) if (value !== undefined) env[key] = String(value);
  env.HEALTH_PORT = String(healthPort);
  const child = spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`converter exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${healthPort}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** An async conversion of `bytes` submitted to the gateway (with a webhook URL no one receives): its id. */
export async function submitAsync(gatewayUrl: string, token: string, bytes: Buffer, name: string): Promise<string> {
  const res = await request(gatewayUrl)
    .post('/convert')
    .set('Authorization', `Bearer ${token}`)
    .field('webhook_url', 'https://receiver.example/hook')
    .attach('file', bytes, name);
  if (res.status !== 202) throw new Error(`accept answered ${res.status}`);
  return res.body.id as string;
}

export async function waitUntilFinished(
  db: Awaited<ReturnType<typeof startGateway>>['db'],
  ids: string[],
): Promise<number> {
  for (;;) {
    const rows = await db.conversion.findMany({
      where: { id: { in: ids } },
      select: { status: true, completedAt: true },
    });
    if (rows.every((r) => r.status === 'completed' || r.status === 'failed')) {
      return Math.max(...rows.map((r) => r.completedAt!.getTime()));
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
