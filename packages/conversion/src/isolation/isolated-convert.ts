import os from 'node:os';
import path from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import Piscina from 'piscina';
import type { ConvertDocumentOptions, ConvertDocumentResult } from '../convert';
import { ConversionError, type ConversionErrorCode } from '../types';
import { receiveStructure, type StructureSent } from './structure-transfer';
import type { GuardedReply, GuardedWorkerData, WorkerHardening, WorkerHealth, workerProtection } from './guarded-task';

export type { WorkerHardening } from './guarded-task';

export interface IsolationLimits {
  /** Wall-clock limit for one conversion. */
  timeoutMs: number;
  /** V8 heap limit of each worker thread running conversions. */
  maxMemoryMb: number;
  /** A worker whose heap is larger than this after a conversion is replaced (default RECYCLE_HEAP_MB). */
  recycleHeapMb?: number;
  /** A worker is replaced after this much conversion work (default RECYCLE_AFTER_CONVERSIONS; see `conversionWeight`). */
  recycleAfterConversions?: number;
  /** How workers are protected from prototype pollution (default 'guard'; the others only to measure it). */
  hardening?: WorkerHardening;
  /**
   * Idle workers stay instead of exiting after IDLE_TIMEOUT_MS: a converter warms its workers when
   * it starts (their compiled reader is most of what a warm PDF conversion saves), and a quiet
   * spell must not throw that away.
   */
  keepIdleWorkers?: boolean;
  /** V8 young generation of each worker thread, MB (default maxMemoryMb / 16, between 16 and 64). */
  youngGenerationMb?: number;
}

export const DEFAULT_LIMITS: IsolationLimits = { timeoutMs: 120_000, maxMemoryMb: 1536 };

/**
 * Heap (V8 plus buffers) a worker may keep after a conversion: above it the worker is replaced,
 * so the memory a large or hostile file made it grow goes back to the system. A worker with
 * every parser and the OCR engine loaded holds about 150 MB.
 */
export const RECYCLE_HEAP_MB = 384;
/**
 * Conversions one worker runs before it is replaced anyway (slow leaks in parsers stay bounded),
 * each counted by `conversionWeight`: 200 documents of 64 KB or more, up to 4,000 tiny ones.
 */
export const RECYCLE_AFTER_CONVERSIONS = 200;

/**
 * Workers guard the built-ins every parser shares (guarded-task.ts): no `__proto__` accessor, and
 * a snapshot of Object.prototype, Array.prototype and the other built-ins compared after every
 * conversion. A conversion after which they changed fails, and its worker is replaced before it
 * converts anything else, so a crafted file (SheetJS had CVE-2023-30533) cannot change how the
 * next file, of this or another workspace, is converted. Unlike --frozen-intrinsics (1.5-5.5x
 * slower, and pdf.js cannot load under it) this costs under a millisecond and one pool serves PDFs too.
 */
const EXEC_ARGV: Record<WorkerHardening, string[]> = {
  guard: [],
  'delete-proto': [],
  // pdf.js cannot load under it: the bench measures PDFs as the old separate pool ran them, 'none'.
  frozen: ['--frozen-intrinsics', '--no-warnings=ExperimentalWarning'],
  none: [],
};

/** A worker's reply to a conversion. */
/** What a conversion in a worker gives back: the result without the document model (`blocks`), which stays in the worker. */
export type IsolatedConvertResult = Omit<ConvertDocumentResult, 'blocks'>;

type ConversionReply =
  | { ok: true; result: Omit<IsolatedConvertResult, 'pages' | 'chunks'> & StructureSent }
  | { ok: false; code: ConversionErrorCode; message: string };

/**
 * A build (scripts/build.js) bundles the task, which runs with plain node, compiled with the code
 * cache the build made for it (worker-task.cjs); sources go through the tsx shim.
 */
const WORKER_ENTRY =
  process.env.MARKWRIGHT_BUNDLE === 'true'
    ? path.join(__dirname, 'worker-task.cjs')
    : path.join(__dirname, 'conversion-worker.js');
/** Idle workers exit after this long; busy ones keep their loaded libraries and OCR engines warm. */
const IDLE_TIMEOUT_MS = 5 * 60_000;
/**
 * Times a task is given to fresh workers when it never ran: it reached a worker polluted before
 * it started, or was still queued in a pool that was replaced (piscina's close() waits for running
 * tasks only, then terminates the workers with the queued ones).
 */
const RETRIES_ON_FRESH_WORKERS = 2;

/** Pools by task module, heap limits, hardening and idle policy, e.g. ".../conversion-worker.js:1536::guard:idle". */
const pools = new Map<string, Piscina>();
/** Pools replaced after a worker outgrew its limits: they finish what they run, then stop. */
const retiring = new Set<Piscina>();
let retiredPools = 0;
/** Thread ids of workers found with changed built-ins. */
const pollutedThreads = new Set<number>();

/**
 * A pool of worker threads (piscina) per task module and heap limit. Workers are reused between
 * conversions so parsers and OCR engines load once; a worker that runs out of heap or passes its
 * deadline is terminated and replaced, failing only the conversion it was running.
 */
function poolFor(taskFile: string, limits: IsolationLimits): Piscina {
  const key = poolKey(taskFile, limits);
  let pool = pools.get(key);
  if (!pool) {
    const hardening = limits.hardening ?? 'guard';
    // A spawner costs a node start (~65 ms CPU) and saves a few ms per tool run: it pays off in a converter's workers, not a CLI batch's.
    const workerData: GuardedWorkerData = { hardening, toolSpawner: limits.keepIdleWorkers === true };
    pool = new Piscina({
      filename: taskFile,
      workerData,
      minThreads: 0,
      maxThreads: Math.max(2, os.availableParallelism()),
      idleTimeout: workerIdleTimeoutMs(limits),
      execArgv: EXEC_ARGV[hardening],
      // A retired pool waits for its running conversions, which have their own deadline.
      closeTimeout: limits.timeoutMs + 10_000,
      resourceLimits: workerResourceLimits(limits),
    });
    pools.set(key, pool);
  }
  return pool;
}

/** The V8 heap limits of a pool's worker threads. */
export function workerResourceLimits(
  limits: IsolationLimits,
): Required<Pick<ResourceLimits, 'maxOldGenerationSizeMb' | 'maxYoungGenerationSizeMb'>> {
  return {
    maxOldGenerationSizeMb: limits.maxMemoryMb,
    maxYoungGenerationSizeMb:
      limits.youngGenerationMb ?? Math.min(64, Math.max(16, Math.floor(limits.maxMemoryMb / 16))),
  };
}

/** How long a pool's idle worker lives before it exits (Infinity: until the pool is closed). */
export function workerIdleTimeoutMs(limits: IsolationLimits): number {
  return limits.keepIdleWorkers ? Infinity : IDLE_TIMEOUT_MS;
}

function poolKey(taskFile: string, limits: IsolationLimits): string {
  return `${taskFile}:${limits.maxMemoryMb}:${limits.youngGenerationMb ?? ''}:${limits.hardening ?? 'guard'}:${limits.keepIdleWorkers ? 'kept' : 'idle'}`;
}

/**
 * Replaces the pool whose worker outgrew its limits or was polluted: new conversions go to fresh
 * workers, the old ones finish the conversions they run and exit (piscina has no per-worker
 * recycling, and terminating one worker from outside could hit a conversion just given to it).
 * A polluted worker runs nothing more: it answers every task it is still given with `ran: false`.
 */
function retirePool(key: string, pool: Piscina): void {
  if (pools.get(key) !== pool) return;
  pools.delete(key);
  retiring.add(pool);
  retiredPools++;
  void pool
    .close()
    .catch(() => pool.destroy())
    .finally(() => retiring.delete(pool));
}

function outgrown(health: WorkerHealth | undefined, limits: IsolationLimits): boolean {
  if (!health) return false;
  return (
    health.heapMb > (limits.recycleHeapMb ?? RECYCLE_HEAP_MB) ||
    health.conversions >= (limits.recycleAfterConversions ?? RECYCLE_AFTER_CONVERSIONS)
  );
}

/** The error of a conversion whose worker failed (not the document's reader): it describes our process, not the file. */
function stoppedUnexpectedly(): ConversionError {
  return new ConversionError('corrupt_file', 'The file could not be converted: the conversion stopped unexpectedly.');
}

/** The error of a conversion whose caller aborted it (a cancel): its worker was terminated and replaced. */
function cancelled(): ConversionError {
  return new ConversionError('cancelled', 'The conversion was cancelled.');
}

/**
 * Runs one task of a guarded task module (its default export wraps `guardedTask`) in a pooled
 * worker thread with a heap limit and a deadline: a hostile file fails only itself. A worker
 * whose built-ins the task changed is replaced and the task fails; a task that never ran (a worker
 * polluted before it started, a pool replaced while it waited) runs again on a fresh one.
 */
export async function runIsolatedTask<T, R>(
  taskFile: string,
  task: T,
  limits: IsolationLimits,
  signal?: AbortSignal,
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw cancelled();
    const key = poolKey(taskFile, limits);
    const pool = poolFor(taskFile, limits);
    const reply = await runInPool<T, R>(pool, task, limits, signal);
    if (reply === undefined) {
      if (attempt >= RETRIES_ON_FRESH_WORKERS) throw stoppedUnexpectedly();
      continue;
    }
    if (!reply.done) {
      pollutedThreads.add(reply.health.threadId);
      retirePool(key, pool);
      if (reply.ran || attempt >= RETRIES_ON_FRESH_WORKERS) throw stoppedUnexpectedly();
      continue;
    }
    if (outgrown(reply.health, limits)) retirePool(key, pool);
    return reply.value;
  }
}

/**
 * The worker's reply, or undefined when the task was lost with a pool being replaced. The
 * deadline or the caller's `signal` aborts the task: piscina terminates the worker running it
 * and starts a fresh one, so the work stops at once whatever the parser is doing.
 */
async function runInPool<T, R>(
  pool: Piscina,
  task: T,
  limits: IsolationLimits,
  signal?: AbortSignal,
): Promise<GuardedReply<R> | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  const onCancel = (): void => controller.abort();
  signal?.addEventListener('abort', onCancel, { once: true });
  try {
    return (await pool.run(task, { signal: controller.signal })) as GuardedReply<R>;
  } catch (err) {
    if (signal?.aborted) throw cancelled();
    if (controller.signal.aborted) {
      throw new ConversionError(
        'timeout',
        `The conversion took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped.`,
      );
    }
    const e = err as Error & { code?: string };
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(e.message)) {
      throw new ConversionError(
        'out_of_memory',
        `The document needs more than ${limits.maxMemoryMb} MB of memory to convert.`,
      );
    }
    if (retiring.has(pool)) return undefined;
    throw stoppedUnexpectedly();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCancel);
  }
}

/** Output of a tool the reader runs, made ahead of the conversion by the caller (same arguments, same bytes). */
export interface PreparedReads {
  /** pdftohtml's XML of the whole file (readers/pdf/poppler.ts `pdftohtmlXml`, pages 1 to MAX_PDF_PAGES + 1). */
  pdftohtml?: string;
}

/** Converts in a pooled, guarded worker thread (runIsolatedTask): a hostile file fails only itself. */
export async function convertIsolated(
  input: Buffer,
  extension: string,
  options: ConvertDocumentOptions,
  limits: IsolationLimits = DEFAULT_LIMITS,
  signal?: AbortSignal,
  prepared: PreparedReads = {},
): Promise<IsolatedConvertResult> {
  const reply = await runIsolatedTask<object, ConversionReply>(
    WORKER_ENTRY,
    { input: new Uint8Array(input), extension, options, ...prepared },
    limits,
    signal,
  );
  if (reply.ok) return receiveStructure(reply.result);
  throw new ConversionError(reply.code, reply.message);
}

/** How many times conversion workers were replaced for outgrowing their limits or a changed built-in (for tests and metrics). */
export function recycledWorkerPools(): number {
  return retiredPools;
}

/** How many workers were found with changed built-ins (prototype pollution) and replaced. */
export function pollutedConversionWorkers(): number {
  return pollutedThreads.size;
}

/** What protects conversion workers' built-ins, asked of a real worker (for tests and health checks). */
export async function conversionWorkerProtection(
  limits: IsolationLimits = DEFAULT_LIMITS,
): Promise<ReturnType<typeof workerProtection>> {
  return (await poolFor(WORKER_ENTRY, limits).run(null, { name: 'workerProtection' })) as ReturnType<
    typeof workerProtection
  >;
}

/** Stops every conversion worker (service shutdown, end of a CLI run or a test file). */
export async function closeConversionWorkers(): Promise<void> {
  const all = [...pools.values(), ...retiring];
  pools.clear();
  retiring.clear();
  await Promise.all(all.map((pool) => pool.destroy()));
}
