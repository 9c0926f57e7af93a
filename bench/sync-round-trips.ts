import { createRequire } from 'node:module';
import path from 'node:path';
import { startStack } from '../services/gateway/test/stack';

/**
 * Counts the waits of one sync 1 KB .txt conversion through the in-process stack (gateway and
 * converter in this process): every PostgreSQL statement (node-postgres `Client#query`, the
 * driver under Prisma's adapter and under the hot statements' own pool), every broker publish
 * until its confirm (amqp-connection-manager `ChannelWrapper#publish`) and every hop to a
 * conversion worker thread (piscina `run`), with the time spent in each against the request's
 * own time. `tsx bench/sync-round-trips.ts` (`SYNC_RUNS` requests, default 40; `SYNC_CONCURRENCY`
 * requests at once, default 1: the counts per request at 16 or 64 connections, where the
 * background statements of the sweepers weigh less). Redis commands are counted too when the
 * environment sets REDIS_URL (rate limits in Redis).
 */
const root = path.join(__dirname, '..');
const requireFrom = (pkg: string) => createRequire(path.join(root, 'packages', pkg, 'package.json'));
type Fn = (this: unknown, ...args: unknown[]) => unknown;

const counts = new Map<string, number>();
const spentMs = new Map<string, number>();
let phase = 'setup';
let waitedMs = 0;

/** Wraps `proto[method]` so each call is counted under `label(args)` with the time until it settles. */
function instrument(proto: Record<string, unknown>, method: string, label: (args: unknown[]) => string): void {
  const original = proto[method] as Fn;
  proto[method] = function (this: unknown, ...args: unknown[]): unknown {
    const key = `${phase}: ${label(args)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const started = performance.now();
    const done = (): void => {
      if (phase !== 'request') return;
      const ms = performance.now() - started;
      waitedMs += ms;
      spentMs.set(key, (spentMs.get(key) ?? 0) + ms);
    };
    const callback = args[args.length - 1];
    if (typeof callback === 'function') {
      args[args.length - 1] = (...res: unknown[]) => {
        done();
        return (callback as Fn)(...res);
      };
    }
    const result = original.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(done, done);
    return result;
  };
}

const { Client } = requireFrom('db')('pg') as { Client: { prototype: Record<string, unknown> } };
instrument(Client.prototype, 'query', ([first]) => {
  const text = typeof first === 'string' ? first : ((first as { text?: string })?.text ?? '');
  return `sql    ${text.replace(/\s+/g, ' ').trim().slice(0, 64)}`;
});
// The class is not exported by name; its file sits beside the package's entry.
const amqpEntry = requireFrom('contracts').resolve('amqp-connection-manager');
const { default: ChannelWrapper } = requireFrom('contracts')(
  path.join(path.dirname(amqpEntry), 'ChannelWrapper.js'),
) as {
  default: { prototype: Record<string, unknown> };
};
instrument(ChannelWrapper.prototype, 'publish', ([exchange, key]) => `broker publish ${String(key || exchange)}`);
const Piscina = requireFrom('conversion')('piscina') as { prototype: Record<string, unknown> };
instrument(Piscina.prototype, 'run', () => 'worker thread run');

const Redis = createRequire(path.join(root, 'services', 'gateway', 'package.json'))('ioredis') as {
  prototype: Record<string, unknown>;
};
instrument(Redis.prototype, 'sendCommand', ([command]) => `redis  ${String((command as { name?: string })?.name)}`);

const RUNS = Number(process.env.SYNC_RUNS ?? 40);
const CONCURRENCY = Number(process.env.SYNC_CONCURRENCY ?? 1);

async function main(): Promise<void> {
  const stack = await startStack();
  try {
    // One workspace per concurrent client, so the per-workspace rate limit does not refuse them.
    const tokens: string[] = [];
    for (let i = 0; i < CONCURRENCY; i++) tokens.push((await stack.workspace('business', 100_000)).token);
    const form = (): FormData => {
      const f = new FormData();
      f.append('file', new Blob(['x'.repeat(1024)]), 'one.txt');
      return f;
    };
    const send = (token = tokens[0]!) =>
      fetch(`${stack.gateway.url}/convert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form(),
      });
    for (let i = 0; i < 3; i++) await send();
    counts.clear();
    phase = 'request';
    const started = performance.now();
    let left = RUNS;
    await Promise.all(
      tokens.map(async (token) => {
        while (left-- > 0) {
          const res = await send(token);
          if (res.status !== 200) throw new Error(`status ${res.status}`);
        }
      }),
    );
    const wallMs = (performance.now() - started) / RUNS;
    phase = 'done';
    let statements = 0;
    for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      if (!key.startsWith('request')) continue;
      if (key.includes(' sql ')) statements += n;
      const ms = ((spentMs.get(key) ?? 0) / n).toFixed(1).padStart(6);
      process.stdout.write(`${(n / RUNS).toFixed(2).padStart(6)} ${ms} ms  ${key.slice('request: '.length)}\n`);
    }
    process.stdout.write(`${(statements / RUNS).toFixed(2).padStart(6)}  statements per sync request\n`);
    process.stdout.write(
      `one request: ${wallMs.toFixed(1)} ms; summed waits on PostgreSQL, broker confirms and workers ${(waitedMs / RUNS).toFixed(1)} ms\n`,
    );
  } finally {
    await stack.stop();
  }
}

void main();
