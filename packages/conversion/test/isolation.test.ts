import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  closeConversionWorkers,
  conversionWorkerProtection,
  ConversionError,
  convertIsolated,
  pollutedConversionWorkers,
  recycledWorkerPools,
  runIsolatedTask,
} from '../src';

const std = { enhanced: false };
const limits = { timeoutMs: 60_000, maxMemoryMb: 256 };

/**
 * A worker task module, written here, with the parser bug prototype pollution comes from: a
 * recursive merge of a document's JSON into a settings object (SheetJS, lodash and others had
 * such bugs). It goes through the real guard (guardedTask) and the real pool (runIsolatedTask).
 */
const VULNERABLE_TASK = `
require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
const { threadId } = require('node:worker_threads');
const { guardedTask } = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'isolation', 'guarded-task.ts'))});
function merge(target, source) {
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value && typeof value === 'object') merge(target[key] ?? (target[key] = {}), value);
    else target[key] = value;
  }
  return target;
}
module.exports = guardedTask(async ({ document }) => {
  merge({}, JSON.parse(document));
  return { threadId, inherited: ({}).polluted ?? [].polluted ?? null };
});
`;

interface Reply {
  threadId: number;
  inherited: unknown;
}

/**
 * A task that, like the PDF reader, finds out while it runs that it needs a library which installs
 * polyfills as it loads (pdf.js): it asks for it and fails; the guard's prepare step loads it (here a
 * stand-in that adds a method to Array.prototype) outside the check, and the task runs again. A run
 * may also pollute on its own (`pollute`), which the later load must not hide.
 */
const LATE_LIBRARY_TASK = `
require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
const { threadId } = require('node:worker_threads');
const { guardedTask } = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'isolation', 'guarded-task.ts'))});
let loaded = false;
let asked = false;
let runs = 0;
module.exports = guardedTask(
  async ({ pollute }) => {
    runs++;
    if (!loaded) {
      asked = true;
      if (pollute) Object.prototype.polluted = 'yes';
      return { threadId, runs, loaded };
    }
    return { threadId, runs, loaded, polyfill: typeof [].lateLibraryHelper, inherited: ({}).polluted ?? null };
  },
  async () => {
    if (!asked) return false;
    asked = false;
    loaded = true;
    Object.defineProperty(Array.prototype, 'lateLibraryHelper', { value: () => 1, writable: true, configurable: true });
    return true;
  },
);
`;

/**
 * The real conversion task (conversion-task.ts, through the real guard and pool), which also reports
 * whether the worker holds fetch's connection pool (undici's global dispatcher) after the task.
 */
const FETCH_POOL_TASK = `
require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
const convert = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'isolation', 'conversion-task.ts'))}).default;
module.exports = async (task) => {
  const reply = await convert(task);
  if (reply.done && reply.value.ok) {
    reply.value = { markdown: reply.value.result.markdown, fetchPool: Symbol.for('undici.globalDispatcher.1') in globalThis };
  }
  return reply;
};
`;

/** A stand-in for the text model's OpenAI-compatible endpoint, answering `content` to every request. */
async function modelEndpoint(content: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('conversion workers', () => {
  let taskFile: string;
  let lateTaskFile: string;
  beforeAll(() => {
    taskFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mw-isolation-')), 'vulnerable-task.js');
    fs.writeFileSync(taskFile, VULNERABLE_TASK);
    lateTaskFile = path.join(path.dirname(taskFile), 'late-library-task.js');
    fs.writeFileSync(lateTaskFile, LATE_LIBRARY_TASK);
  });
  afterAll(async () => {
    await closeConversionWorkers();
    fs.rmSync(path.dirname(taskFile), { recursive: true, force: true });
  });

  const convertJson = (document: string) =>
    runIsolatedTask<{ document: string }, Reply>(taskFile, { document }, limits);

  it('When a worker converts in standard mode, then it has not loaded fetch; an enhanced conversion that calls the model endpoint loads it outside the check and keeps its worker', async () => {
    const taskFile = path.join(path.dirname(lateTaskFile), 'fetch-pool-task.js');
    fs.writeFileSync(taskFile, FETCH_POOL_TASK);
    const endpoint = await modelEndpoint('# Repaired\n\nText from the model.');
    const run = (options: object) =>
      runIsolatedTask<object, { markdown: string; fetchPool: boolean }>(
        taskFile,
        { input: new Uint8Array(Buffer.from('# Title\n\nText.\n')), extension: 'md', options },
        limits,
      );
    const polluted = pollutedConversionWorkers();
    try {
      expect(await run(std)).toEqual({ markdown: '# Title\n\nText.\n', fetchPool: false });
      const modelEndpointOptions = { baseUrl: endpoint.url, model: 'tiny', timeoutMs: 10_000 };
      const enhanced = { enhanced: true, modelEndpoint: modelEndpointOptions };
      expect(await run(enhanced)).toEqual({ markdown: '# Repaired\n\nText from the model.\n', fetchPool: true });
      expect(await run(enhanced)).toEqual({ markdown: '# Repaired\n\nText from the model.\n', fetchPool: true });
      expect(pollutedConversionWorkers()).toBe(polluted);
    } finally {
      await endpoint.close();
    }
  });

  it('When a standard conversion creates fetch’s connection pool (a document that calls fetch), then that is a change: the conversion fails and its worker goes', async () => {
    const taskFile = path.join(path.dirname(lateTaskFile), 'standard-fetch-task.js');
    fs.writeFileSync(
      taskFile,
      `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
const { guardedTask } = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'isolation', 'guarded-task.ts'))});
module.exports = guardedTask(async () => (await fetch('data:,')).text());`,
    );
    const polluted = pollutedConversionWorkers();
    await expect(runIsolatedTask(taskFile, {}, limits)).rejects.toThrow(ConversionError);
    expect(pollutedConversionWorkers()).toBe(polluted + 1);
  });

  it('When a fresh worker runs its first task, then the built-ins are not compared with the snapshot taken just before it, only after it', async () => {
    const taskFile = path.join(path.dirname(lateTaskFile), 'comparisons-task.js');
    fs.writeFileSync(
      taskFile,
      `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
const guard = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'isolation', 'guarded-task.ts'))});
module.exports = guard.guardedTask(async () => guard.builtInsComparisons());`,
    );
    expect(await runIsolatedTask(taskFile, {}, limits)).toBe(0);
  });

  it('When a worker runs, then it has no __proto__ accessor and watches the built-ins', async () => {
    const protection = await conversionWorkerProtection(limits);
    expect(protection).toMatchObject({ hardening: 'guard', protoAccessor: false });
    expect(protection.watchedObjects).toBeGreaterThan(100);
  });

  it('When a document writes through __proto__, then nothing is polluted and the worker is kept', async () => {
    const before = pollutedConversionWorkers();
    const hostile = await convertJson('{"__proto__": {"polluted": "yes"}}');
    expect(hostile.inherited).toBeNull();
    expect((await convertJson('{"a": 1}')).inherited).toBeNull();
    expect(pollutedConversionWorkers()).toBe(before);
  });

  it('When a document pollutes Object.prototype, then that conversion fails, its worker is replaced and later conversions do not see it', async () => {
    const polluted = pollutedConversionWorkers();
    const recycled = recycledWorkerPools();
    const hostile = convertJson('{"constructor": {"prototype": {"polluted": "yes"}}}');
    await expect(hostile).rejects.toThrow(ConversionError);
    await expect(hostile).rejects.toMatchObject({
      code: 'corrupt_file',
      message: 'The file could not be converted: the conversion stopped unexpectedly.',
    });
    expect(pollutedConversionWorkers()).toBe(polluted + 1);
    expect(recycledWorkerPools()).toBe(recycled + 1);
    for (let i = 0; i < 4; i++) expect((await convertJson('{"a": 1}')).inherited).toBeNull();
  });

  it('When conversions wait in the pool of a polluted worker, then they run on fresh workers and none sees the pollution', async () => {
    const hostile = convertJson('{"constructor": {"prototype": {"polluted": "yes"}}}');
    const others = Array.from({ length: 6 }, (_, i) => convertJson(`{"n": ${i}}`));
    await expect(hostile).rejects.toMatchObject({ code: 'corrupt_file' });
    for (const reply of await Promise.all(others)) expect(reply.inherited).toBeNull();
  });

  it('When a worker outgrows the recycle threshold, then it is replaced and the next conversion still succeeds', async () => {
    const before = recycledWorkerPools();
    const tiny = { ...limits, recycleHeapMb: 1 };
    await convertIsolated(Buffer.from('# One\n'), 'md', std, tiny);
    expect(recycledWorkerPools()).toBe(before + 1);
    const next = await convertIsolated(Buffer.from('# Two\n'), 'md', std, tiny);
    expect(next.markdown).toBe('# Two\n');
  });

  it('When tiny documents are converted, then each counts as a twentieth towards the worker replacement, and large ones as a whole', async () => {
    const every2 = { ...limits, recycleAfterConversions: 2 };
    await convertIsolated(Buffer.from('warm'), 'txt', std, limits);
    const before = recycledWorkerPools();
    for (let i = 0; i < 10; i++) await convertIsolated(Buffer.from(`tiny ${i}`), 'txt', std, every2);
    expect(recycledWorkerPools()).toBe(before);
    const large = Buffer.from('word '.repeat(16 * 1024));
    // Four, so that whichever of the pool's workers take them, one reaches 2.
    for (let i = 0; i < 4; i++) await convertIsolated(large, 'txt', std, every2);
    expect(recycledWorkerPools()).toBeGreaterThan(before);
  });

  it('When a document is converted in a worker, then the model stays there and only what callers read comes back', async () => {
    const result = await convertIsolated(Buffer.from('# Title\n\nText.\n'), 'md', std, limits);
    expect(result.markdown).toContain('# Title');
    expect(Object.keys(result)).not.toContain('blocks');
  });

  it('When a worker stays under the threshold, then it is kept', async () => {
    await convertIsolated(Buffer.from('warm'), 'txt', std, limits);
    const before = recycledWorkerPools();
    await convertIsolated(Buffer.from('again'), 'txt', std, limits);
    expect(recycledWorkerPools()).toBe(before);
  });

  it('When a PDF follows other documents in the same pool, then it converts (pdf.js loads outside the check)', async () => {
    const { makeSamples } = await import('./samples');
    const samples = await makeSamples();
    for (const ext of ['docx', 'xlsx', 'html', 'pdf', 'pptx', 'pdf']) {
      const result = await convertIsolated(samples[ext]!, ext, std, limits);
      expect(result.markdown).toContain('Hello world');
    }
  });

  it('When a task asks for a polyfilling library as it runs, then the library loads outside the check, the task runs again, and the worker is kept', async () => {
    const polluted = pollutedConversionWorkers();
    const late = { ...limits, maxMemoryMb: 250 };
    type LateReply = { threadId: number; runs: number; loaded: boolean; polyfill?: string; inherited?: unknown };
    const first = await runIsolatedTask<{ pollute: boolean }, LateReply>(lateTaskFile, { pollute: false }, late);
    expect(first).toMatchObject({ runs: 2, loaded: true, polyfill: 'function', inherited: null });
    const next = await runIsolatedTask<{ pollute: boolean }, LateReply>(lateTaskFile, { pollute: false }, late);
    expect(next).toMatchObject({ loaded: true, polyfill: 'function' });
    expect(pollutedConversionWorkers()).toBe(polluted);
  });

  it('When a run that asked for a library also polluted the built-ins, then loading the library does not hide it: the task fails and its worker goes', async () => {
    const polluted = pollutedConversionWorkers();
    const late = { ...limits, maxMemoryMb: 251 };
    const hostile = runIsolatedTask<{ pollute: boolean }, unknown>(lateTaskFile, { pollute: true }, late);
    await expect(hostile).rejects.toMatchObject({ code: 'corrupt_file' });
    expect(pollutedConversionWorkers()).toBe(polluted + 1);
  });

  it('When a PDF needs pdf.js (a form) in a worker that has not loaded it, then it converts with its values and no worker is taken for polluted', async () => {
    const { makePdf } = await import('./pdf/make-pdf');
    const form = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      doc.initForm();
      doc.text('Full name:', 72, 100, { lineBreak: false });
      doc.formText('name', 160, 96, 200, 18, { value: 'Ada Lovelace' });
    });
    const polluted = pollutedConversionWorkers();
    // A heap limit of its own: a pool whose workers have not read any PDF yet.
    const fresh = { ...limits, maxMemoryMb: 252 };
    expect((await convertIsolated(form, 'pdf', std, fresh)).markdown).toBe('Full name: Ada Lovelace\n');
    expect((await convertIsolated(form, 'pdf', std, fresh)).markdown).toBe('Full name: Ada Lovelace\n');
    expect((await convertIsolated(Buffer.from('after'), 'txt', std, fresh)).markdown).toBe('after\n');
    expect(pollutedConversionWorkers()).toBe(polluted);
  });
});
