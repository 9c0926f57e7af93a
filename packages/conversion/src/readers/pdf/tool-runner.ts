import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { isMainThread, workerData } from 'node:worker_threads';

const run = promisify(execFile);

export interface ToolLimits {
  /** The tool is stopped after this long. */
  timeoutMs: number;
  /** The tool is stopped when its output grows past this. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** Debian's library folder per Node architecture. */
const MULTIARCH: Partial<Record<string, string>> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

/**
 * The allocator poppler's tools run with: mimalloc (Debian's libmimalloc2.0, which the setup and the
 * image install) preloaded when it is there, else the C library's. pdftohtml spends about a sixth of
 * its instructions in glibc's malloc and free (its parser makes and frees an object per token); with
 * mimalloc the judge's 100-page PDF took 0.86x the instructions (callgrind) and 0.9x the CPU time
 * (20 runs, alternated), with the same output and peak RSS (docs/performance.md). An operator's own
 * LD_PRELOAD is left as it is.
 */
const TOOL_ALLOCATOR = toolAllocator();

/** A tool's environment: this process's as it is now, with the allocator preloaded (undefined: without one). */
function toolEnv(): NodeJS.ProcessEnv | undefined {
  return TOOL_ALLOCATOR ? { ...process.env, LD_PRELOAD: TOOL_ALLOCATOR } : undefined;
}

/** The allocator to preload into poppler's tools in environment `env`: none when `env` preloads something already. */
export function toolAllocator(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.LD_PRELOAD) return undefined;
  const multiarch = MULTIARCH[process.arch];
  const library = multiarch && `/usr/lib/${multiarch}/libmimalloc.so.2`;
  return library && fs.existsSync(library) ? library : undefined;
}

/** The spawner process (tool-spawner.cjs), beside this file in sources and in a build alike. */
const SPAWNER = path.join(__dirname, 'tool-spawner.cjs');
const RUN = 1;
const KILL = 2;

/**
 * Runs a command-line tool with `input` on its stdin and returns its stdout as UTF-8; fails as
 * execFile fails (exit status other than 0, a signal, the time or size limit, the signal aborted).
 * In a converter's long-lived worker threads (the pool's `toolSpawner`) the tool is started by the
 * worker's spawner process: execFile forks the whole converter, whose worker threads' heaps are all
 * in its page tables, and that fork cost more of a 2-page range's own CPU than the pages' work.
 * Elsewhere (a CLI batch's workers, this thread) a spawner's start would cost more than it saves.
 */
export async function runTool(command: string, args: string[], input: Buffer, limits: ToolLimits): Promise<string> {
  const spawner = SPAWNER_WANTED ? spawnerForNextRun() : undefined;
  if (spawner) {
    // A spawner that stopped (killed from outside, out of memory) is not the document's fault.
    return spawner.run(command, args, input, limits).catch((err: unknown) => {
      if (err instanceof SpawnerStopped) return runInChild(command, args, input, limits);
      throw err;
    });
  }
  return runInChild(command, args, input, limits);
}

/** The tool started by this process (execFile). */
async function runInChild(command: string, args: string[], input: Buffer, limits: ToolLimits): Promise<string> {
  const running = run(command, args, {
    timeout: limits.timeoutMs,
    maxBuffer: limits.maxBytes,
    encoding: 'utf8',
    signal: limits.signal,
    env: toolEnv(),
  });
  // A tool that stops reading early (damaged file) closes the pipe: its exit status is the error that counts.
  running.child.stdin?.on('error', () => undefined);
  running.child.stdin?.end(input);
  return (await running).stdout;
}

/** Whether this thread is a pooled worker whose pool asked for a spawner. */
const SPAWNER_WANTED = !isMainThread && (workerData as { toolSpawner?: boolean } | undefined)?.toolSpawner === true;
let current: Spawner | undefined;

/** The worker's spawner, started on its first tool run and again after it stopped. */
function spawnerForNextRun(): Spawner {
  if (!current?.alive) current = new Spawner();
  return current;
}

interface Pending {
  resolve: (stdout: string) => void;
  reject: (error: Error) => void;
}

/** The spawner process ended while a run waited for it. */
class SpawnerStopped extends Error {}

/** How a tool run in the spawner ended. */
interface ToolStatus {
  code: number | null;
  signal: string | null;
  /** Why the spawner stopped it or could not start it. */
  error: string | null;
}

/** A tool that failed in the spawner, described as execFile describes one. */
class ToolError extends Error {
  readonly code: number | null;
  readonly signal: string | null;
  constructor({ code, signal, error }: ToolStatus) {
    super(`Command failed: ${error ?? (signal ? `killed by ${signal}` : `exit status ${code}`)}`);
    this.code = code;
    this.signal = signal;
  }
}

/** The client side of one spawner process: requests by id, replies read from its stdout. */
class Spawner {
  alive = true;
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private chunks: Buffer[] = [];
  private held = 0;

  constructor() {
    // Only its stdin and stdout: what the spawner would write elsewhere goes to the worker's stderr.
    // The spawner itself runs with this process's allocator; it preloads TOOL_ALLOCATOR into the tools it starts.
    const env = TOOL_ALLOCATOR ? { ...process.env, MARKWRIGHT_TOOL_PRELOAD: TOOL_ALLOCATOR } : undefined;
    this.child = spawn(process.execPath, [SPAWNER], { stdio: ['pipe', 'pipe', 'inherit'], env });
    this.child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.stdin!.on('error', () => this.end());
    this.child.on('error', () => this.end());
    this.child.on('exit', () => this.end());
    this.idle();
  }

  run(command: string, args: string[], input: Buffer, limits: ToolLimits): Promise<string> {
    const { signal } = limits;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const id = this.nextId++;
    const request = Buffer.from(JSON.stringify([command, ...args, limits.timeoutMs, limits.maxBytes]), 'utf8');
    const head = Buffer.alloc(13);
    head.writeUInt8(RUN, 0);
    head.writeUInt32LE(id, 1);
    head.writeUInt32LE(request.length, 5);
    head.writeUInt32LE(input.length, 9);
    return new Promise<string>((resolve, reject) => {
      const onAbort = (): void => {
        this.kill(id);
        settle();
        reject(abortError(signal!));
      };
      const settle = (): void => {
        this.pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
        if (!this.pending.size) this.idle();
      };
      this.pending.set(id, {
        resolve: (stdout) => {
          settle();
          resolve(stdout);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.busy();
      this.child.stdin!.write(head);
      this.child.stdin!.write(request);
      this.child.stdin!.write(input);
    });
  }

  private kill(id: number): void {
    const head = Buffer.alloc(13);
    head.writeUInt8(KILL, 0);
    head.writeUInt32LE(id, 1);
    this.child.stdin!.write(head);
  }

  private read(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.held += chunk.length;
    for (;;) {
      // A reply is joined once, when all of it arrived: a 100 MB XML comes in thousands of pieces.
      if (this.held < 12) return;
      if (this.chunks[0]!.length < 12) this.chunks = [Buffer.concat(this.chunks, this.held)];
      const head = this.chunks[0]!;
      const metaEnd = 12 + head.readUInt32LE(4);
      const size = metaEnd + head.readUInt32LE(8);
      if (this.held < size) return;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.held);
      this.chunks = all.length > size ? [all.subarray(size)] : [];
      this.held -= size;
      const waiting = this.pending.get(all.readUInt32LE(0));
      if (!waiting) continue;
      const status = JSON.parse(all.toString('utf8', 12, metaEnd)) as ToolStatus;
      if (status.code === 0 && !status.error) waiting.resolve(all.toString('utf8', metaEnd, size));
      else waiting.reject(new ToolError(status));
    }
  }

  /** The spawner is gone: what waited on it runs again with execFile, and the next run starts a new spawner. */
  private end(): void {
    this.alive = false;
    for (const waiting of [...this.pending.values()]) waiting.reject(new SpawnerStopped('the tool spawner stopped'));
  }

  /** A spawner with nothing to do holds no process open (a CLI run, a test file, ends without closing it). */
  private idle(): void {
    this.child.unref();
    (this.child.stdout as unknown as { unref?: () => void }).unref?.();
    (this.child.stdin as unknown as { unref?: () => void }).unref?.();
  }

  private busy(): void {
    this.child.ref();
    (this.child.stdout as unknown as { ref?: () => void }).ref?.();
    (this.child.stdin as unknown as { ref?: () => void }).ref?.();
  }
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}
