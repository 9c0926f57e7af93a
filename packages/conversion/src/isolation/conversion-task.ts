import { createRequire } from 'node:module';
import { convertDocument, type ConvertDocumentOptions } from '../convert';
import { holdPdfJsLoads, loadPdfJs, takePdfJsRequest } from '../readers/pdf/pdfjs';
import { offerPdftohtmlOutput } from '../readers/pdf/poppler';
import { conversionFailure } from '../user-facing-errors';
import { settleLazyGlobalsOnce } from './built-ins-guard';
import { guardedTask } from './guarded-task';
import type { PreparedReads } from './isolated-convert';
import { sendStructure } from './structure-transfer';

// tesseract.js's regenerator-runtime defines a global as it loads: that module (tesseract.js's own
// copy, which it requires first) is loaded here, before the worker's snapshot of its built-ins, so
// that loading tesseract.js for an OCR read is no change. tesseract.js itself (~15 ms of CPU) loads
// with its first use.
createRequire(require.resolve('tesseract.js'))('regenerator-runtime/runtime');

interface Task extends PreparedReads {
  input: Uint8Array;
  extension: string;
  options: ConvertDocumentOptions;
}

// pdf.js is loaded between tasks, never during one (see preparePdfJs).
holdPdfJsLoads();

/**
 * pdf.js installs core-js polyfills on the built-ins as it loads (Function.prototype.toString,
 * JSON.stringify, Set.prototype.difference ...): it must load outside the built-ins check, not while
 * a document is being read. Most PDFs don't need it (0.1-0.3 s of CPU and 40 MB): a read that does
 * fails asking for it, and it is loaded here, after that run's check; the task then runs again.
 */
async function preparePdfJs(): Promise<boolean> {
  if (!takePdfJsRequest()) return false;
  await loadPdfJs(true).catch(() => undefined);
  return true;
}

/**
 * What a task needs loaded outside the built-ins check before it runs (true: something was loaded).
 * Only enhanced mode calls endpoints (the text model, speech) with fetch, whose connection pool
 * (undici) is created then, not with every worker.
 */
async function prepareTask({ options }: Task): Promise<boolean> {
  const settled = options.enhanced ? await settleLazyGlobalsOnce() : false;
  const pdfJs = await preparePdfJs();
  return settled || pdfJs;
}

/** What a pooled worker thread runs for one document: a result, or the error to show the user. */
async function convertInWorker({ input, extension, options, pdftohtml }: Task) {
  const bytes = Buffer.from(input);
  // Used only by this task's read of exactly these bytes, and withdrawn after it.
  offerPdftohtmlOutput(pdftohtml === undefined ? undefined : { input: bytes, xml: pdftohtml });
  try {
    // The document model stays in the worker: no caller of convertIsolated reads `blocks`, and
    // cloning it back cost 8-75 ms of a plain conversion (pages, chunks and the document, when asked
    // for, are written here; a readOnly reading travels as `read`).
    const { blocks: _model, ...result } = await convertDocument(bytes, extension, options);
    return { ok: true as const, result: sendStructure(result) };
  } catch (err) {
    const shown = conversionFailure(err, extension);
    return { ok: false as const, code: shown.code, message: shown.message };
  } finally {
    offerPdftohtmlOutput(undefined);
  }
}

/** Inputs at least this large count as one whole conversion towards a worker's replacement. */
const FULL_WEIGHT_BYTES = 64 * 1024;
/** The least a conversion counts: a worker runs at most 20× RECYCLE_AFTER_CONVERSIONS tiny ones. */
const MIN_WEIGHT = 0.05;

/**
 * A worker is replaced after RECYCLE_AFTER_CONVERSIONS conversions so that slow leaks in parsers
 * stay bounded; a leak grows with the work a parser does, so a small input counts as part of one
 * (a fresh worker costs 140–180 ms of CPU, which every 200 one-kilobyte conversions was a quarter
 * to a third of the converter's CPU). Pollution is still checked after every task, and the heap
 * after every conversion.
 */
function conversionWeight({ input }: Task): number {
  return Math.min(1, Math.max(MIN_WEIGHT, input.byteLength / FULL_WEIGHT_BYTES));
}

export default guardedTask(convertInWorker, prepareTask, conversionWeight);
export { workerProtection } from './guarded-task';
