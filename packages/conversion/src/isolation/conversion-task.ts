import v8 from 'node:v8';
import { convertDocument, type ConvertDocumentOptions } from '../convert';
import { userFacingError } from '../user-facing-errors';

interface Task {
  input: Uint8Array;
  extension: string;
  options: ConvertDocumentOptions;
}

let conversions = 0;

/** What the pool needs to decide whether this worker should be replaced. */
function health() {
  const heap = v8.getHeapStatistics();
  return { heapMb: (heap.total_heap_size + heap.external_memory) / (1024 * 1024), conversions };
}

/** What a pooled worker thread runs for one document: a result, or the error to show the user, and its health. */
export default async function convertInWorker({ input, extension, options }: Task) {
  conversions++;
  try {
    const result = await convertDocument(Buffer.from(input), extension, options);
    return { ok: true as const, result, health: health() };
  } catch (err) {
    const shown = userFacingError(err, extension);
    return { ok: false as const, code: shown.code, message: shown.message, health: health() };
  }
}

/** True when the built-ins every parser shares cannot be changed (--frozen-intrinsics). */
export function intrinsicsFrozen(): boolean {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].every((p) => Object.isFrozen(p));
}
