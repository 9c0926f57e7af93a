import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { createDb } from '@markwright/db';
import { createWorkspace } from '../services/gateway/src/domain/workspaces';

/**
 * `pnpm bench upload-memory` (issue 21): the gateway's resident memory while a free-plan token
 * with no credits sends twelve 60 MB uploads at once. The gateway runs from the build in its own
 * process; its RSS is sampled from /proc while the uploads run, against its RSS just before them.
 * Two rows: the default UPLOADS_PER_WORKSPACE (4, the rest answered 429 unread) and a cap of 12,
 * so all twelve stream past the plan's 5 MB. Target: at most 150 MB above the baseline.
 */
const ROOT = path.join(__dirname, '..');
const UPLOADS = 12;
const UPLOAD_BYTES = 60 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 0x61);
const BOUNDARY = 'UploadMemoryBench';
const SAMPLE_MS = 20;
const BUDGET_MB = 150;
const READY_DEADLINE_MS = 120_000;

interface Row {
  cap: number;
  statuses: string;
  baselineMb: number;
  peakMb: number;
  seconds: number;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function startGateway(env: TestEnv, cap: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'services/gateway/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: env.config.DATABASE_URL,
      AMQP_URL: env.config.AMQP_URL,
      QUEUE_PREFIX: env.prefix,
      PORT: '0',
      LOG_LEVEL: 'info',
      UPLOADS_PER_WORKSPACE: String(cap),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the gateway did not start')), READY_DEADLINE_MS);
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const match = /"port":(\d+)[^\n]*"gateway listening"/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
  });
  child.stdout!.resume();
  return { child, port };
}

/** One upload (60 MB unless told) streamed from a 1 MB chunk (the client holds no 60 MB buffer); resolves with the status. */
function upload(port: number, token: string, bytes = UPLOAD_BYTES): Promise<number> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/api/v1/convert',
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': head.length + bytes + tail.length,
      },
    });
    let answered = 0;
    req.on('response', (res) => {
      answered = res.statusCode!;
      res.resume();
      res.on('end', () => resolve(answered));
    });
    req.on('error', (err) => (answered ? resolve(answered) : reject(err)));
    (async () => {
      const write = (data: Buffer) =>
        new Promise<void>((done, fail) => req.write(data, (err) => (err ? fail(err) : done())));
      await write(head);
      for (let left = bytes; left > 0 && !answered; left -= CHUNK.length) {
        await write(left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left));
      }
      req.end(tail);
    })().catch(() => req.destroy());
  });
}

async function measure(env: TestEnv, token: string, cap: number): Promise<Row> {
  const { child, port } = await startGateway(env, cap);
  try {
    // One small request first, so the baseline is of a gateway that has served the route.
    await upload(port, token, 1024).catch(() => 0);
    await new Promise((r) => setTimeout(r, 1000));
    const baselineMb = rssMb(child.pid!);
    let peakMb = baselineMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(child.pid!))), SAMPLE_MS);
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: UPLOADS }, () => upload(port, token)));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peakMb = Math.max(peakMb, rssMb(child.pid!));
    const counts = new Map<number, number>();
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
    const described = [...counts].map(([status, n]) => `${n}× ${status}`).join(', ');
    return { cap, statuses: described, baselineMb, peakMb, seconds };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function runUploadMemoryBench(): Promise<string> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const env = await createTestEnv();
  const db = createDb(env.config.DATABASE_URL);
  try {
    const { token } = await createWorkspace(db, { name: 'bench-uploads', plan: 'free', credits: 0 });
    const rows: Row[] = [];
    for (const cap of [4, UPLOADS]) rows.push(await measure(env, token, cap));
    const lines = [
      `Twelve concurrent ${UPLOAD_BYTES / (1024 * 1024)} MB uploads from a free-plan token with 0 credits; gateway RSS sampled every ${SAMPLE_MS} ms (target: +${BUDGET_MB} MB at most).`,
      '',
      '| UPLOADS_PER_WORKSPACE | answers | RSS before MB | peak RSS MB | rise MB | within target | time s |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.cap} | ${r.statuses} | ${r.baselineMb.toFixed(0)} | ${r.peakMb.toFixed(0)} | ${(r.peakMb - r.baselineMb).toFixed(0)} | ${r.peakMb - r.baselineMb <= BUDGET_MB ? 'yes' : 'NO'} | ${r.seconds.toFixed(1)} |`,
      ),
    ];
    return `${lines.join('\n')}\n`;
  } finally {
    await db.$disconnect();
    await env.cleanup();
  }
}

if (require.main === module) {
  runUploadMemoryBench().then(
    (table) => process.stdout.write(table),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
