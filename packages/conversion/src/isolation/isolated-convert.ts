import os from 'node:os';
import path from 'node:path';
import Piscina from 'piscina';
import type { ConvertDocumentOptions, ConvertDocumentResult } from '../convert';
import { ConversionError, type ConversionErrorCode } from '../types';

export interface IsolationLimits {
  /** Wall-clock limit for one conversion. */
  timeoutMs: number;
  /** V8 heap limit of each worker thread running conversions. */
  maxMemoryMb: number;
  /** A worker whose heap is larger than this after a conversion is replaced (default RECYCLE_HEAP_MB). */
  recycleHeapMb?: number;
  /** Frozen intrinsics in the workers (default true; false only to measure what they cost). */
  frozenIntrinsics?: boolean;
}

export const DEFAULT_LIMITS: IsolationLimits = { timeoutMs: 120_000, maxMemoryMb: 1536 };

/**
 * Heap (V8 plus buffers) a worker may keep after a conversion: above it the worker is replaced,
 * so the memory a large or hostile file made it grow goes back to the system. A worker with
 * every parser and the OCR engine loaded holds about 150 MB.
 */
export const RECYCLE_HEAP_MB = 384;
/** Conversions one worker runs before it is replaced anyway (slow leaks in parsers stay bounded). */
export const RECYCLE_AFTER_CONVERSIONS = 200;

/**
 * Workers run with Node's frozen intrinsics: no document parser can change Object.prototype,
 * Array.prototype and the other built-ins, so a crafted file (SheetJS had CVE-2023-30533)
 * cannot change how the next file, of this or another workspace, is converted. pdf.js's legacy
 * build installs core-js polyfills on the built-ins as it loads, so PDFs run in workers of
 * their own, without the flag: a PDF can only affect other PDF conversions.
 */
const HARDENED_EXEC_ARGV = ['--frozen-intrinsics', '--no-warnings=ExperimentalWarning'];
/** Where a PDF's header may start (readers accept junk before it). */
const PDF_HEADER_WINDOW = 1024;

/** Whether these bytes go to the workers without frozen intrinsics (PDF, see above). */
function needsUnfrozenWorker(input: Buffer): boolean {
  return input.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-');
}

interface WorkerHealth {
  heapMb: number;
  conversions: number;
}

type WorkerReply =
  | { ok: true; result: ConvertDocumentResult; health: WorkerHealth }
  | { ok: false; code: ConversionErrorCode; message: string; health: WorkerHealth };

/** A build (scripts/build.js) bundles the task with plain node; sources go through the tsx shim. */
const WORKER_ENTRY =
  process.env.MARKWRIGHT_BUNDLE === 'true'
    ? path.join(__dirname, '..', '..', 'dist', 'conversion-worker.js')
    : path.join(__dirname, 'conversion-worker.js');
/** Idle workers exit after this long; busy ones keep their loaded libraries and OCR engines warm. */
const IDLE_TIMEOUT_MS = 5 * 60_000;

/** Pools by heap limit and hardening, e.g. "1536:hardened". */
const pools = new Map<string, Piscina>();
/** Pools replaced after a worker outgrew its limits: they finish what they run, then stop. */
const retiring = new Set<Piscina>();
let retiredPools = 0;

/**
 * A pool of worker threads (piscina) per heap limit. Workers are reused between conversions so
 * parsers and OCR engines load once; a worker that runs out of heap or passes its deadline is
 * terminated and replaced, failing only the conversion it was running.
 */
function poolFor(limits: IsolationLimits, hardened: boolean): Piscina {
  const key = poolKey(limits, hardened);
  let pool = pools.get(key);
  if (!pool) {
    pool = new Piscina({
      filename: WORKER_ENTRY,
      minThreads: 0,
      maxThreads: Math.max(2, os.availableParallelism()),
      idleTimeout: IDLE_TIMEOUT_MS,
      execArgv: hardened ? HARDENED_EXEC_ARGV : [],
      // A retired pool waits for its running conversions, which have their own deadline.
      closeTimeout: limits.timeoutMs + 10_000,
      resourceLimits: {
        maxOldGenerationSizeMb: limits.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(16, Math.floor(limits.maxMemoryMb / 16))),
      },
    });
    pools.set(key, pool);
  }
  return pool;
}

function poolKey(limits: IsolationLimits, hardened: boolean): string {
  return `${limits.maxMemoryMb}:${hardened ? 'hardened' : 'plain'}`;
}

/**
 * Replaces the pool whose worker outgrew its limits: new conversions go to fresh workers, the
 * old ones finish the conversions they run and exit (piscina has no per-worker recycling, and
 * terminating one worker from outside could hit a conversion just given to it).
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
  return health.heapMb > (limits.recycleHeapMb ?? RECYCLE_HEAP_MB) || health.conversions >= RECYCLE_AFTER_CONVERSIONS;
}

/** Converts in a pooled worker thread with a heap limit and a deadline: a hostile file fails only itself. */
export async function convertIsolated(
  input: Buffer,
  extension: string,
  options: ConvertDocumentOptions,
  limits: IsolationLimits = DEFAULT_LIMITS,
): Promise<ConvertDocumentResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  const hardened = limits.frozenIntrinsics !== false && !needsUnfrozenWorker(input);
  const pool = poolFor(limits, hardened);
  let reply: WorkerReply;
  try {
    reply = (await pool.run(
      { input: new Uint8Array(input), extension, options },
      { signal: controller.signal },
    )) as WorkerReply;
  } catch (err) {
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
    // The worker itself failed (not the document's reader): its message describes our process, not the file.
    throw new ConversionError('corrupt_file', 'The file could not be converted: the conversion stopped unexpectedly.');
  } finally {
    clearTimeout(timer);
  }
  if (outgrown(reply.health, limits)) retirePool(poolKey(limits, hardened), pool);
  if (reply.ok) return reply.result;
  throw new ConversionError(reply.code, reply.message);
}

/** How many times conversion workers were replaced for outgrowing their limits (for tests and metrics). */
export function recycledWorkerPools(): number {
  return retiredPools;
}

/** Whether conversion workers run with frozen built-ins (asked of a real worker, for tests and health checks). */
export async function conversionWorkersAreHardened(limits: IsolationLimits = DEFAULT_LIMITS): Promise<boolean> {
  return (await poolFor(limits, true).run(null, { name: 'intrinsicsFrozen' })) as boolean;
}

/** Stops every conversion worker (service shutdown, end of a CLI run or a test file). */
export async function closeConversionWorkers(): Promise<void> {
  const all = [...pools.values(), ...retiring];
  pools.clear();
  retiring.clear();
  await Promise.all(all.map((pool) => pool.destroy()));
}
