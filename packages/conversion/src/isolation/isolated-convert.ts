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
}

export const DEFAULT_LIMITS: IsolationLimits = { timeoutMs: 120_000, maxMemoryMb: 1536 };

type WorkerReply =
  { ok: true; result: ConvertDocumentResult } | { ok: false; code: ConversionErrorCode; message: string };

/** A build (scripts/build.js) bundles the task with plain node; sources go through the tsx shim. */
const WORKER_ENTRY =
  process.env.MARKWRIGHT_BUNDLE === 'true'
    ? path.join(__dirname, '..', '..', 'dist', 'conversion-worker.js')
    : path.join(__dirname, 'conversion-worker.js');
/** Idle workers exit after this long; busy ones keep their loaded libraries and OCR engines warm. */
const IDLE_TIMEOUT_MS = 5 * 60_000;

const pools = new Map<number, Piscina>();

/**
 * A pool of worker threads (piscina) per heap limit. Workers are reused between conversions so
 * parsers and OCR engines load once; a worker that runs out of heap or passes its deadline is
 * terminated and replaced, failing only the conversion it was running.
 */
function poolFor(limits: IsolationLimits): Piscina {
  let pool = pools.get(limits.maxMemoryMb);
  if (!pool) {
    pool = new Piscina({
      filename: WORKER_ENTRY,
      minThreads: 0,
      maxThreads: Math.max(2, os.availableParallelism()),
      idleTimeout: IDLE_TIMEOUT_MS,
      resourceLimits: {
        maxOldGenerationSizeMb: limits.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(16, Math.floor(limits.maxMemoryMb / 16))),
      },
    });
    pools.set(limits.maxMemoryMb, pool);
  }
  return pool;
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
  let reply: WorkerReply;
  try {
    reply = (await poolFor(limits).run(
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
    throw new ConversionError('corrupt_file', `The file could not be converted: ${e.message.split('\n')[0]}`);
  } finally {
    clearTimeout(timer);
  }
  if (reply.ok) return reply.result;
  throw new ConversionError(reply.code, reply.message);
}

/** Stops every conversion worker (service shutdown, end of a CLI run or a test file). */
export async function closeConversionWorkers(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.destroy()));
}
