import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeConversionWorkers, runIsolatedTask } from '../src';

const limits = { timeoutMs: 60_000, maxMemoryMb: 256 };

/** A task module that spins forever, counting in shared memory, so a test sees whether its thread still runs. */
const SPINNING_TASK = `
require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
const { threadId } = require('node:worker_threads');
const { guardedTask } = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'isolation', 'guarded-task.ts'))});
module.exports = guardedTask(async ({ counter }) => {
  if (counter) {
    const view = new Int32Array(counter);
    for (;;) Atomics.add(view, 0, 1);
  }
  return { threadId };
});
`;

describe('cancelling an isolated task (E7)', () => {
  let taskFile: string;
  beforeAll(() => {
    taskFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mw-cancel-')), 'spinning-task.js');
    fs.writeFileSync(taskFile, SPINNING_TASK);
  });
  afterAll(async () => {
    await closeConversionWorkers();
    fs.rmSync(path.dirname(taskFile), { recursive: true, force: true });
  });

  it('When a running task is aborted, then it fails as cancelled within 2 s, its thread stops, and the next task runs on a fresh worker', async () => {
    const counter = new SharedArrayBuffer(4);
    const view = new Int32Array(counter);
    const controller = new AbortController();
    const spinning = runIsolatedTask(taskFile, { counter }, limits, controller.signal);
    while (Atomics.load(view, 0) === 0) await sleep(20);
    const abortedAt = Date.now();
    controller.abort();
    await expect(spinning).rejects.toMatchObject({ code: 'cancelled', message: 'The conversion was cancelled.' });
    // The promise settles as piscina starts terminating the thread: wait until the counting stops.
    let last = -1;
    while (Atomics.load(view, 0) !== last) {
      last = Atomics.load(view, 0);
      await sleep(100);
    }
    expect(Date.now() - abortedAt).toBeLessThan(2000);
    await sleep(300);
    expect(Atomics.load(view, 0)).toBe(last);
    const next = await runIsolatedTask<object, { threadId: number }>(taskFile, {}, limits);
    expect(next).toEqual({ threadId: expect.any(Number) });
  });

  it('When the signal is aborted before the task starts, then it fails as cancelled without running', async () => {
    const counter = new SharedArrayBuffer(4);
    const controller = new AbortController();
    controller.abort();
    await expect(runIsolatedTask(taskFile, { counter }, limits, controller.signal)).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(Atomics.load(new Int32Array(counter), 0)).toBe(0);
  });
});
