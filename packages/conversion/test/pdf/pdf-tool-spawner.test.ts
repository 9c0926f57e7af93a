import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeConversionWorkers, convertDocument, convertIsolated, runIsolatedTask } from '../../src';
import { toolAllocator } from '../../src/readers/pdf/tool-runner';
import { makePdf } from './make-pdf';

/** A task module that runs `runTool` as a conversion worker runs poppler's tools, and reports what each run gave. */
const TOOL_TASK = `
require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
const { guardedTask } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'src', 'isolation', 'guarded-task.ts'))});
const { runTool } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'src', 'readers', 'pdf', 'tool-runner.ts'))});
module.exports = guardedTask(async ({ runs, abortAfterMs }) => {
  const results = [];
  for (const { command, args, input, maxBytes } of runs) {
    const signal = abortAfterMs === undefined ? undefined : AbortSignal.timeout(abortAfterMs);
    try {
      const stdout = await runTool(command, args, Buffer.from(input), { timeoutMs: 60000, maxBytes: maxBytes ?? 1 << 24, signal });
      results.push({ stdout });
    } catch (err) {
      results.push({ error: err.name + ': ' + err.message });
    }
  }
  return results;
});
`;

/** A converter's pool: its workers are kept, and run their tools through a spawner. */
const KEPT = { timeoutMs: 60_000, maxMemoryMb: 512, keepIdleWorkers: true };

/** A tool run that prints the pid of the process that started it, then its stdin. */
const parentAndInput = (input: string): object => ({
  command: 'sh',
  args: ['-c', 'echo $PPID; cat'],
  input,
});

/** Whether process `pid` has ended (a killed child its parent has not reaped yet counts as ended). */
function ended(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

async function waitUntilEnded(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (ended(pid)) return true;
    await sleep(50);
  }
  return ended(pid);
}

describe('poppler tools run by the worker spawner', () => {
  let dir: string;
  let taskFile: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-spawner-'));
    taskFile = path.join(dir, 'tool-task.js');
    fs.writeFileSync(taskFile, TOOL_TASK);
  });
  afterAll(async () => {
    await closeConversionWorkers();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('When the pool does not keep its workers (a CLI batch), then their tools are started by the worker itself', async () => {
    const results = await runIsolatedTask<object, Array<{ stdout: string }>>(
      taskFile,
      { runs: [parentAndInput('a'), parentAndInput('b')] },
      { timeoutMs: 60_000, maxMemoryMb: 512 },
    );
    expect(results).toEqual([{ stdout: `${process.pid}\na` }, { stdout: `${process.pid}\nb` }]);
  });

  it('When a worker of a converter runs tools, then its spawner process starts them, not the converter, and each gets its input and gives back its output', async () => {
    // 300 KB of text with characters beyond ASCII, so input and output cross several pipe buffers.
    const input = 'Zürich ½ → 文字\n'.repeat(20_000);
    const results = await runIsolatedTask<object, Array<{ stdout: string }>>(
      taskFile,
      { runs: [parentAndInput('first\n'), parentAndInput(input), parentAndInput(input)] },
      KEPT,
    );
    const parents = results.map((r) => Number(r.stdout.split('\n', 1)[0]));
    expect(parents[0]).not.toBe(process.pid);
    expect(new Set(parents).size).toBe(1);
    expect(results[2]!.stdout).toBe(`${parents[2]}\n${input}`);
  });

  it('When a tool in the spawner fails, is aborted or writes more than its limit, then its run fails', async () => {
    const results = await runIsolatedTask<object, Array<{ stdout?: string; error?: string }>>(
      taskFile,
      {
        runs: [
          { command: 'sh', args: ['-c', 'exit 3'], input: '' },
          { command: 'sh', args: ['-c', 'kill -TERM $$'], input: '' },
          { command: 'no-such-tool-anywhere', args: [], input: '' },
          { command: 'cat', args: [], input: 'x'.repeat(5000), maxBytes: 4096 },
          { command: 'cat', args: [], input: 'x'.repeat(4096), maxBytes: 4096 },
        ],
      },
      KEPT,
    );
    expect(results).toEqual([
      { error: 'Error: Command failed: exit status 3' },
      { error: 'Error: Command failed: killed by SIGTERM' },
      { error: expect.stringMatching(/^Error: Command failed: spawn no-such-tool-anywhere ENOENT/) },
      { error: 'Error: Command failed: stdout maxBuffer length exceeded' },
      { stdout: 'x'.repeat(4096) },
    ]);
  });

  it('When the spawner stops while a tool runs, then the run is done again by the worker itself and succeeds', async () => {
    const marker = path.join(dir, 'stop-the-spawner');
    fs.writeFileSync(marker, '');
    // In the spawner, the tool removes the marker and kills its parent (the spawner); run again, it only prints its parent.
    const stopping = {
      command: 'sh',
      args: ['-c', `if [ -e ${marker} ]; then rm ${marker}; kill -9 $PPID; sleep 1; fi; echo $PPID`],
      input: '',
    };
    const results = await runIsolatedTask<object, Array<{ stdout?: string; error?: string }>>(
      taskFile,
      { runs: [stopping, parentAndInput('after')] },
      KEPT,
    );
    expect(fs.existsSync(marker)).toBe(false);
    expect(results[0]).toEqual({ stdout: `${process.pid}\n` });
    // The next run has a new spawner.
    expect(Number(results[1]!.stdout!.split('\n', 1)[0])).not.toBe(process.pid);
  });

  it('When a run is aborted while its tool runs, then it fails at once as aborted and the tool is killed', async () => {
    const pidFile = path.join(dir, 'aborted.pid');
    const results = await runIsolatedTask<object, Array<{ stdout?: string; error?: string }>>(
      taskFile,
      {
        runs: [{ command: 'sh', args: ['-c', `echo $$ > ${pidFile}; exec sleep 60`], input: '' }],
        abortAfterMs: 1500,
      },
      KEPT,
    );
    expect(results[0]).toEqual({ error: 'AbortError: The operation was aborted' });
    expect(await waitUntilEnded(Number(fs.readFileSync(pidFile, 'utf8')), 3000)).toBe(true);
  });

  it('When a conversion passes its deadline while its tool runs, then the worker is replaced and the tool is killed', async () => {
    const pidFile = path.join(dir, 'deadline.pid');
    await expect(
      runIsolatedTask(
        taskFile,
        { runs: [{ command: 'sh', args: ['-c', `echo $$ > ${pidFile}; exec sleep 60`], input: '' }] },
        { ...KEPT, timeoutMs: 2000 },
      ),
    ).rejects.toMatchObject({ code: 'timeout' });
    expect(await waitUntilEnded(Number(fs.readFileSync(pidFile, 'utf8')), 3000)).toBe(true);
  });

  it('When the same PDF is converted several times in the pool, then every result is the one read in this thread', async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(18).text('Quarterly report').fontSize(11).text('The first page has two lines of text.');
      doc.addPage().fontSize(18).text('Second page').fontSize(11).text('Its text is read by the spawner.');
      doc.addPage().fontSize(18).text('Third page').fontSize(11).text('The last one.');
    });
    const options = {
      enhanced: false,
      includePages: true,
      chunkMaxTokens: 64,
      pageRange: [[2, 3]] as Array<[number, number]>,
    };
    const { blocks: _model, ...expected } = await convertDocument(pdf, 'pdf', options);
    for (let run = 0; run < 4; run++) {
      expect(await convertIsolated(pdf, 'pdf', options, KEPT)).toEqual(expected);
    }
  });

  it("When a tool runs, from a CLI worker or a converter worker's spawner, then it has mimalloc preloaded and the spawner does not", async () => {
    expect(fs.existsSync(MIMALLOC)).toBe(true);
    const preloadAndParent = { command: 'sh', args: ['-c', 'printf "%s %s" "$LD_PRELOAD" $PPID'], input: '' };
    const cli = await runIsolatedTask<object, Array<{ stdout: string }>>(
      taskFile,
      { runs: [preloadAndParent] },
      { timeoutMs: 60_000, maxMemoryMb: 512 },
    );
    expect(cli[0]!.stdout).toBe(`${MIMALLOC} ${process.pid}`);
    const kept = await runIsolatedTask<object, Array<{ stdout: string }>>(taskFile, { runs: [preloadAndParent] }, KEPT);
    const [preload, spawner] = kept[0]!.stdout.split(' ');
    expect(preload).toBe(MIMALLOC);
    expect(Number(spawner)).not.toBe(process.pid);
    const spawnerEnv = fs.readFileSync(`/proc/${spawner}/environ`, 'utf8').split('\0');
    expect(spawnerEnv.filter((entry) => entry.startsWith('LD_PRELOAD='))).toEqual([]);
  });

  it('When the operator set LD_PRELOAD, then tools keep theirs', () => {
    expect(toolAllocator({ PATH: '/usr/bin' })).toBe(MIMALLOC);
    expect(toolAllocator({ PATH: '/usr/bin', LD_PRELOAD: OTHER_PRELOAD })).toBeUndefined();
  });
});

/** Debian's mimalloc (libmimalloc2.0, installed by scripts/setup-system.sh), as tool-runner.ts preloads it. */
const MIMALLOC = `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/libmimalloc.so.2`;
/** An operator's own preload, which tools must keep. */
const OTHER_PRELOAD = '/opt/allocator/libother.so';
