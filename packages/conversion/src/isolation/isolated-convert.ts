import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { ConvertDocumentOptions, ConvertDocumentResult } from '../convert';
import { ConversionError, type ConversionErrorCode } from '../types';

export interface IsolationLimits {
  /** Wall-clock limit for one conversion. */
  timeoutMs: number;
  /** V8 heap limit of the worker running it. */
  maxMemoryMb: number;
}

export const DEFAULT_LIMITS: IsolationLimits = { timeoutMs: 120_000, maxMemoryMb: 1024 };

type WorkerReply =
  { ok: true; result: ConvertDocumentResult } | { ok: false; code: ConversionErrorCode; message: string };

const WORKER_ENTRY = path.join(__dirname, 'conversion-worker.js');

/**
 * Converts in a worker thread with its own heap limit and a deadline, so a hostile or huge file
 * fails this one conversion and never the process or its other jobs.
 */
export function convertIsolated(
  input: Buffer,
  extension: string,
  options: ConvertDocumentOptions,
  limits: IsolationLimits = DEFAULT_LIMITS,
): Promise<ConvertDocumentResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_ENTRY, {
      workerData: { input: new Uint8Array(input), extension, options },
      resourceLimits: {
        maxOldGenerationSizeMb: limits.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(16, Math.floor(limits.maxMemoryMb / 16))),
      },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => {
      finish(() =>
        reject(
          new ConversionError(
            'timeout',
            `The conversion took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped.`,
          ),
        ),
      );
    }, limits.timeoutMs);
    worker.once('message', (reply: WorkerReply) => {
      finish(() => {
        if (reply.ok) resolve(reply.result);
        else reject(new ConversionError(reply.code, reply.message));
      });
    });
    worker.once('error', (err: Error & { code?: string }) => {
      finish(() => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(err.message)) {
          reject(
            new ConversionError(
              'out_of_memory',
              `The document needs more than ${limits.maxMemoryMb} MB of memory to convert.`,
            ),
          );
        } else {
          reject(new ConversionError('corrupt_file', `The file could not be converted: ${err.message.split('\n')[0]}`));
        }
      });
    });
    worker.once('exit', (code) => {
      finish(() => reject(new ConversionError('corrupt_file', `The conversion stopped unexpectedly (exit ${code}).`)));
    });
  });
}
