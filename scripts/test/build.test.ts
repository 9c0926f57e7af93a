import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin', 'markwright');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is plain JS, run by node
const { isStale } = require('../build.js') as { isStale: () => boolean };

/**
 * Parsers of other formats, which converting a .txt must not load, nor the API's schemas (zod:
 * the library takes only the page_range grammar from contracts; loading the schemas cost the CLI
 * 90 ms of start-up). tesseract.js is not listed: the worker loads it before the built-ins
 * snapshot on purpose (its runtime defines a global as it loads; isolation/conversion-task.ts).
 */
const OTHER_FORMAT_PARSERS = [
  'pdfjs-dist',
  'sharp',
  'xlsx',
  'jszip',
  'word-extractor',
  'tiktoken',
  'js-tiktoken',
  'zod',
];

let dir: string;
let trace: string;
beforeAll(async () => {
  await run(process.execPath, [path.join(ROOT, 'scripts', 'build.js'), '--if-stale'], { timeout: 600_000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-build-test-'));
  trace = path.join(dir, 'loaded.txt');
  // Records every module file node loads, in the main thread and the conversion worker thread.
  fs.writeFileSync(
    path.join(dir, 'trace.cjs'),
    `const M = require('node:module'); const fs = require('node:fs'); const load = M._load;
     M._load = function (request, parent, isMain) {
       try { fs.appendFileSync(${JSON.stringify(trace)}, M._resolveFilename(request, parent, isMain) + '\\n'); } catch {}
       return load.apply(this, arguments);
     };`,
  );
}, 600_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the compiled build', () => {
  it('When markwright converts a small and a larger .txt, then plain node runs the build (its own bundle, then the worker’s): no TypeScript file or loader, no other format’s parser', async () => {
    const input = path.join(dir, 'note.txt');
    fs.writeFileSync(input, 'Plain *text*, converted by the built CLI.\n');
    const { stdout } = await run(BIN, ['convert', input], {
      env: { ...process.env, NODE_OPTIONS: `--require ${path.join(dir, 'trace.cjs')}` },
    });
    expect(stdout).toBe('Plain *text*, converted by the built CLI.\n');
    // A small text converts in the CLI's thread (its own bundle); a larger one in a worker thread.
    const large = path.join(dir, 'large.txt');
    fs.writeFileSync(large, 'Plain text, converted in the worker of the built CLI.\n'.repeat(100));
    const { stdout: largeOut } = await run(BIN, ['convert', large], {
      env: { ...process.env, NODE_OPTIONS: `--require ${path.join(dir, 'trace.cjs')}` },
    });
    expect(largeOut.startsWith('Plain text, converted in the worker of the built CLI.')).toBe(true);
    const loaded = fs.readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    expect(loaded).toContain(path.join(ROOT, 'packages', 'conversion', 'dist', 'small-text.js'));
    // The worker's task file loads the compiled worker with the code cache the build made for it.
    expect(loaded).toContain(path.join(ROOT, 'packages', 'conversion', 'src', 'isolation', 'worker-task.cjs'));
    expect(fs.existsSync(path.join(ROOT, 'packages', 'conversion', 'dist', 'conversion-worker.js.cache'))).toBe(true);
    expect(loaded.filter((file) => /\.(c|m)?ts$|[/\\](tsx|typescript|esbuild|@swc)[/\\]/.test(file))).toEqual([]);
    // The package is the last node_modules segment (pnpm resolves to node_modules/.pnpm/<id>/node_modules/<name>).
    const packages = new Set(
      loaded.map((f) => [...f.matchAll(/node_modules[/\\]((@[^/\\]+[/\\])?[^/\\]+)[/\\]/g)].pop()?.[1]),
    );
    expect(OTHER_FORMAT_PARSERS.filter((name) => packages.has(name))).toEqual([]);
    // The progress bar's library loads only for a batch shown on a terminal.
    expect(packages.has('cli-progress')).toBe(false);
  });

  it('When markwright is given no command, then it prints its usage and exits with 2', async () => {
    const failure = await run(BIN, []).catch((err: { code: number; stderr: string }) => err);
    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^usage: markwright convert <files\.\.\.>/),
    });
  });

  it('When a source is newer than the last build, then the build counts as stale, and fresh once rebuilt', () => {
    const built = fs.statSync(STAMP);
    try {
      fs.utimesSync(STAMP, built.atime, new Date(0));
      expect(isStale()).toBe(true);
    } finally {
      fs.utimesSync(STAMP, built.atime, built.mtime);
    }
    expect(isStale()).toBe(false);
  });
});
