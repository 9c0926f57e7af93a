'use strict';
// `node bench/worker-start.cjs` (after `pnpm build`; plain node, not tsx, whose loader the worker
// threads would inherit and pay for): the CPU a fresh conversion worker costs before and with its
// first 1 KB `.txt`, against each of the next 199 conversions on it, three times. A converter
// replaces its worker after RECYCLE_AFTER_CONVERSIONS (200), so start cost ÷ 200 is what every
// small conversion pays for the next worker. process.cpuUsage counts the worker threads.
const { createRequire } = require('node:module');
const path = require('node:path');

const root = path.join(__dirname, '..');
const Piscina = createRequire(path.join(root, 'packages', 'conversion', 'package.json'))('piscina');
const WORKER = path.join(root, 'packages', 'conversion', 'dist', 'conversion-worker.js');
const input = new Uint8Array(Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1024)));
const ms = (c) => (c.user + c.system) / 1000;

async function main() {
  for (let round = 0; round < 3; round++) {
    const start = process.cpuUsage();
    const pool = new Piscina({ filename: WORKER, workerData: { hardening: 'guard' }, minThreads: 0, maxThreads: 1 });
    const task = { input, extension: 'txt', options: {} };
    await pool.run(task);
    const first = ms(process.cpuUsage(start));
    const warm = process.cpuUsage();
    for (let i = 0; i < 199; i++) await pool.run(task);
    const each = ms(process.cpuUsage(warm)) / 199;
    await pool.destroy();
    process.stdout.write(
      `fresh worker + first conversion ${first.toFixed(1)} ms CPU; next 199: ${each.toFixed(3)} ms each; ` +
        `start ÷ 200 = ${(first / 200).toFixed(2)} ms per conversion\n`,
    );
  }
}

void main();
