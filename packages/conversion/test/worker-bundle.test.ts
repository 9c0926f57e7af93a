import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports -- the loader is plain CommonJS, as workers load it */
const { loadBundle, writeCache, cacheFiles } = require('../src/isolation/worker-bundle.cjs') as {
  loadBundle(
    bundle: string,
    options?: { useCache?: boolean },
  ): { exports: Record<string, unknown>; script: unknown; cacheUsed: boolean };
  writeCache(bundle: string, script: unknown): void;
  cacheFiles(bundle: string): { data: string; made: string };
};
/* eslint-enable @typescript-eslint/no-require-imports */

const LOADER = path.join(__dirname, '..', 'src', 'isolation', 'worker-bundle.cjs');

/** Loads `bundle` in a new node process (V8 keeps what one process compiled, whatever cache it is given). */
function loadInFreshProcess(bundle: string): { cacheUsed: boolean; answer: string } {
  const script = `const r = require(${JSON.stringify(LOADER)}).loadBundle(${JSON.stringify(bundle)});
    process.stdout.write(JSON.stringify({ cacheUsed: r.cacheUsed, answer: r.exports.default('done') }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
    cacheUsed: boolean;
    answer: string;
  };
}

/** A CommonJS bundle in the shape esbuild writes: require, __dirname, exports.default. */
const bundleSource = (answer: string): string =>
  `'use strict';
const path = require('node:path');
function shout(text) { return text.toUpperCase() + ${JSON.stringify(answer)}; }
exports.default = (text) => shout(text);
exports.where = path.basename(__dirname);
exports.named = module.filename;
`;

describe('The worker bundle with its code cache (worker-bundle.cjs)', () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bundle-'));
    bundle = path.join(dir, 'worker.js');
    fs.writeFileSync(bundle, bundleSource('!'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (loaded: { exports: Record<string, unknown> }): unknown[] => [
    (loaded.exports.default as (t: string) => string)('done'),
    loaded.exports.where,
    loaded.exports.named,
  ];

  it('When a cache was made from the bundle, then the bundle loads with it and behaves as required without it', () => {
    const first = loadBundle(bundle);
    expect(first.cacheUsed).toBe(false);
    expect(run(first)).toEqual(['DONE!', path.basename(dir), bundle]);
    writeCache(bundle, first.script);
    const cached = loadBundle(bundle);
    expect(cached.cacheUsed).toBe(true);
    expect(run(cached)).toEqual(['DONE!', path.basename(dir), bundle]);
  });

  it('When the bundle changed since, even to a source of the same length, then its cache is not used (V8 checks only the length) and the new code runs', () => {
    writeCache(bundle, loadBundle(bundle).script);
    fs.writeFileSync(bundle, bundleSource('?'));
    const loaded = loadBundle(bundle);
    expect(loaded.cacheUsed).toBe(false);
    expect(run(loaded)[0]).toBe('DONE?');
  });

  it("When a worker thread loads the bundle with its cache, then Node's crypto module is not loaded for the check", () => {
    writeCache(bundle, loadBundle(bundle).script);
    // In a worker thread: this machine's node loads crypto in the main thread at start (NODE_EXTRA_CA_CERTS).
    const inWorker = `const { parentPort } = require('node:worker_threads');
      const r = require(${JSON.stringify(LOADER)}).loadBundle(${JSON.stringify(bundle)});
      parentPort.postMessage({ cacheUsed: r.cacheUsed, crypto: process.moduleLoadList.includes('NativeModule crypto') });`;
    const script = `new (require('node:worker_threads').Worker)(${JSON.stringify(inWorker)}, { eval: true })
      .on('message', (m) => process.stdout.write(JSON.stringify(m)));`;
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toEqual({
      cacheUsed: true,
      crypto: false,
    });
  });

  it('When the cache was made by another Node.js, or its data is damaged, then the bundle compiles without it', () => {
    writeCache(bundle, loadBundle(bundle).script);
    const { data, made } = cacheFiles(bundle);
    const record = JSON.parse(fs.readFileSync(made, 'utf8')) as { checksum: string; node: string };
    expect(loadInFreshProcess(bundle)).toEqual({ cacheUsed: true, answer: 'DONE!' });
    fs.writeFileSync(made, JSON.stringify({ ...record, node: 'v0.0.1' }));
    expect(loadInFreshProcess(bundle)).toEqual({ cacheUsed: false, answer: 'DONE!' });
    fs.writeFileSync(made, JSON.stringify(record));
    fs.writeFileSync(data, Buffer.alloc(fs.statSync(data).size, 0x5a));
    expect(loadInFreshProcess(bundle)).toEqual({ cacheUsed: false, answer: 'DONE!' });
  });
});
