import v8 from 'node:v8';
import { isMainThread, threadId, workerData } from 'node:worker_threads';
import { builtInsChange, snapshotBuiltIns, type BuiltInsSnapshot } from './built-ins-guard';

/**
 * How a conversion worker is protected from prototype pollution. 'guard' is what runs; the others
 * exist only so `pnpm bench hardening` can measure what each costs against 'none' in one run.
 */
export type WorkerHardening = 'guard' | 'delete-proto' | 'frozen' | 'none';

/** What the pool needs to decide whether this worker should be replaced. */
export interface WorkerHealth {
  heapMb: number;
  /** Conversion work done, each task counted by its weight (a tiny document less than one). */
  conversions: number;
  threadId: number;
}

/** A worker's reply: the task's value, or that the built-ins changed and the worker must go. */
export type GuardedReply<R> =
  | { done: true; value: R; health: WorkerHealth }
  /** `ran` false: the worker was polluted before this task started (by an earlier one), so it may run elsewhere. */
  | { done: false; ran: boolean; change: string; health: WorkerHealth };

/** Options the pool passes every worker as workerData. */
export interface GuardedWorkerData {
  hardening: WorkerHardening;
  /** The worker's tools run in a spawner process (readers/pdf/tool-runner.ts): long-lived workers only. */
  toolSpawner?: boolean;
}

// Only pooled worker threads are hardened; a process that loads this module by mistake is left alone.
const hardening: WorkerHardening = isMainThread
  ? 'none'
  : ((workerData as GuardedWorkerData | undefined)?.hardening ?? 'guard');
const checks = hardening === 'guard';

// `obj.__proto__[key] = value` is how most prototype pollution reaches Object.prototype (SheetJS's
// CVE-2023-30533 among them); without the accessor it writes an own property of obj. This is
// what node --disable-proto=delete does, which a worker thread cannot be given.
if (hardening === 'guard' || hardening === 'delete-proto') {
  delete (Object.prototype as { __proto__?: unknown }).__proto__;
}

/** A task is run again at most this many times after `prepare` loaded something it asked for. */
const MAX_PREPARED_RUNS = 2;

let conversions = 0;
let snapshot: BuiltInsSnapshot | undefined;
let pollution: string | undefined;

let comparisons = 0;

/** builtInsChange, counted. */
function compared(taken: BuiltInsSnapshot): string | undefined {
  comparisons++;
  return builtInsChange(taken);
}

/** How many times this worker has compared its built-ins with the snapshot (for tests). */
export function builtInsComparisons(): number {
  return comparisons;
}

function health(): WorkerHealth {
  const heap = v8.getHeapStatistics();
  return { heapMb: (heap.total_heap_size + heap.external_memory) / (1024 * 1024), conversions, threadId };
}

/**
 * Wraps a pooled worker task so that the built-ins every parser shares are compared with a
 * snapshot before and after it runs. A task after which they differ has its reply replaced by
 * `done: false` (its result may be the pollution's work), and so has every later task this
 * worker is given, unrun; the pool replaces the worker. `prepare` loads, outside the comparison,
 * libraries that install polyfills as they load (pdf.js); it returns true when it loaded
 * something, and the snapshot is taken again. It is asked before the task and again after it
 * (a task may find out that it needs such a library only while it runs; it then fails and
 * asks): a run after which it loads something is discarded, once its own run was found clean,
 * and the task runs again with the library loaded.
 */
export function guardedTask<T, R>(
  run: (task: T) => Promise<R>,
  prepare?: (task: T) => Promise<boolean>,
  /** How much of the worker's life a task uses up (default 1); see isolated-convert.ts's RECYCLE_AFTER_CONVERSIONS. */
  weigh: (task: T) => number = () => 1,
): (task: T) => Promise<GuardedReply<R>> {
  return async (task) => {
    if (!checks) {
      conversions += weigh(task);
      if (prepare) await prepare(task);
      let value = await run(task);
      for (let again = 0; again < MAX_PREPARED_RUNS && prepare && (await prepare(task)); again++)
        value = await run(task);
      return { done: true, value, health: health() };
    }
    // The first snapshot: after the worker loaded this module and what it preloads, before any document.
    // What a task needs loaded first (fetch's pool, pdf.js) its `prepare` loads, and the snapshot is taken again.
    // Taken just now, in this same synchronous step, it cannot differ from the built-ins: the first comparison
    // (the costliest, run before V8 has compiled it: ~5 ms) is made after the first task.
    if (!snapshot) snapshot = snapshotBuiltIns();
    else pollution ??= compared(snapshot);
    if (pollution !== undefined) return { done: false, ran: false, change: pollution, health: health() };
    conversions += weigh(task);
    if (prepare && (await prepare(task))) snapshot = snapshotBuiltIns();
    let value = await run(task);
    pollution = compared(snapshot);
    // What a run changed is judged before anything is loaded after it: the new snapshot can't hide it.
    for (
      let again = 0;
      pollution === undefined && again < MAX_PREPARED_RUNS && prepare && (await prepare(task));
      again++
    ) {
      snapshot = snapshotBuiltIns();
      value = await run(task);
      pollution = compared(snapshot);
    }
    if (pollution !== undefined) return { done: false, ran: true, change: pollution, health: health() };
    return { done: true, value, health: health() };
  };
}

/** What protects this worker's built-ins (asked of a real worker by tests and health checks). */
export function workerProtection(): { hardening: WorkerHardening; protoAccessor: boolean; watchedObjects: number } {
  return {
    hardening,
    protoAccessor: Object.getOwnPropertyDescriptor(Object.prototype, '__proto__') !== undefined,
    watchedObjects: checks ? (snapshot ??= snapshotBuiltIns()).objects.length : 0,
  };
}
