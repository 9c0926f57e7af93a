// tesseract.js's regenerator-runtime defines a global as it loads: loaded here, before the
// worker's snapshot of its built-ins, so that loading it during a conversion is no change.
import 'tesseract.js';
import { convertDocument, type ConvertDocumentOptions } from '../convert';
import { mayBePdf } from '../formats/sniff';
import { loadPdfJs } from '../readers/pdf/pdfjs';
import { conversionFailure } from '../user-facing-errors';
import { guardedTask } from './guarded-task';

interface Task {
  input: Uint8Array;
  extension: string;
  options: ConvertDocumentOptions;
}

let pdfJsLoaded = false;

/**
 * pdf.js installs core-js polyfills on the built-ins as it loads (Function.prototype.toString,
 * JSON.stringify, Set.prototype.difference ...): it is loaded before the first PDF's conversion
 * and outside the built-ins check, not while a document is being read. 0.3 s and 40 MB, so only
 * in workers that are given a PDF.
 */
async function preparePdfJs({ input }: Task): Promise<boolean> {
  if (pdfJsLoaded || !mayBePdf(Buffer.from(input.buffer, input.byteOffset, input.byteLength))) return false;
  pdfJsLoaded = true;
  await loadPdfJs().catch(() => undefined);
  return true;
}

/** What a pooled worker thread runs for one document: a result, or the error to show the user. */
async function convertInWorker({ input, extension, options }: Task) {
  try {
    const result = await convertDocument(Buffer.from(input), extension, options);
    return { ok: true as const, result };
  } catch (err) {
    const shown = conversionFailure(err, extension);
    return { ok: false as const, code: shown.code, message: shown.message };
  }
}

export default guardedTask(convertInWorker, preparePdfJs);
export { workerProtection } from './guarded-task';
