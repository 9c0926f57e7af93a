import { createRequire } from 'node:module';
import path from 'node:path';
import { startStack } from '../services/gateway/test/stack';

/**
 * Counts the PostgreSQL statements of one sync 1 KB .txt conversion, per service, by wrapping
 * node-postgres's Client#query (the driver under Prisma's adapter), and the time spent waiting on
 * them against the request's own time. `tsx bench/sync-round-trips.ts`.
 */
const dbRequire = createRequire(path.join(__dirname, '..', 'packages', 'db', 'package.json'));
type Query = (...args: unknown[]) => unknown;
const { Client } = dbRequire('pg') as { Client: { prototype: { query: Query } } };
const counts = new Map<string, number>();
let phase = 'setup';
let dbMs = 0;
const keyMs = new Map<string, number>();
const original = Client.prototype.query;
Client.prototype.query = function (this: unknown, ...args: unknown[]): unknown {
  const first = args[0] as string | { text?: string };
  const text = typeof first === 'string' ? first : (first?.text ?? '');
  const key = `${phase}: ${text.replace(/\s+/g, ' ').slice(0, 70)}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
  const started = performance.now();
  const done = (): void => {
    if (phase !== 'request') return;
    dbMs += performance.now() - started;
    keyMs.set(key, (keyMs.get(key) ?? 0) + performance.now() - started);
  };
  const callback = args[args.length - 1];
  if (typeof callback === 'function') {
    args[args.length - 1] = (...res: unknown[]) => {
      done();
      return (callback as (...a: unknown[]) => unknown)(...res);
    };
  }
  const result = original.apply(this, args);
  if (result && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(done, done);
  }
  return result;
};

const RUNS = 20;

async function main(): Promise<void> {
  const stack = await startStack();
  try {
    const { token } = await stack.workspace('business', 1000);
    const form = (): FormData => {
      const f = new FormData();
      f.append('file', new Blob(['x'.repeat(1024)]), 'one.txt');
      return f;
    };
    const send = () =>
      fetch(`${stack.gateway.url}/convert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form(),
      });
    await send();
    counts.clear();
    phase = 'request';
    const started = performance.now();
    for (let i = 0; i < RUNS; i++) {
      const res = await send();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    }
    const wallMs = (performance.now() - started) / RUNS;
    phase = 'done';
    let total = 0;
    for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      if (!key.startsWith('request')) continue;
      total += n;
      const ms = ((keyMs.get(key) ?? 0) / n).toFixed(1).padStart(6);
      process.stdout.write(`${(n / RUNS).toFixed(2).padStart(6)} ${ms} ms  ${key.slice('request: '.length)}\n`);
    }
    process.stdout.write(
      `${(total / RUNS).toFixed(2).padStart(6)}  statements per sync request (gateway + converter)\n`,
    );
    process.stdout.write(
      `one request: ${wallMs.toFixed(1)} ms, waiting on PostgreSQL ${(dbMs / RUNS).toFixed(1)} ms\n`,
    );
  } finally {
    await stack.stop();
  }
}

void main();
