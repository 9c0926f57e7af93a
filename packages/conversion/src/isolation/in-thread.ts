import { convertDocument, type ConvertDocumentOptions } from '../convert';
import { sniffContent } from '../formats/table';
import { isText } from '../formats/sniff';
import { ConversionError } from '../types';
import { conversionFailure } from '../user-facing-errors';
import type { IsolatedConvertResult } from './isolated-convert';
import { IN_THREAD_TEXT_MAX_BYTES } from './in-thread-limit';

export { IN_THREAD_TEXT_MAX_BYTES };

/** Only the plain Markdown of a `.txt`: no model pass, no filter, no pages, chunks or document model. */
function plainRequest(options: ConvertDocumentOptions): boolean {
  return (
    !options.enhanced &&
    !options.optimizeTokens &&
    !options.readOnly &&
    !options.includePages &&
    !options.pageRange &&
    options.chunkMaxTokens === undefined &&
    !options.includeDocument
  );
}

/**
 * A small `.txt` that is plain text (by its bytes, as the worker would sniff it) converted in this
 * thread: the same result or error as `convertIsolated`, without the hop to a worker and the
 * worker's check of its built-ins (0.75 ms of CPU per conversion, 50 times the conversion of 1 KB
 * of text). The plain-text reader builds no object from the document's words, so it cannot reach a
 * prototype. Anything else gives undefined: convert it in isolation.
 */
export async function convertSmallTextInThread(
  input: Buffer,
  extension: string,
  options: ConvertDocumentOptions,
): Promise<IsolatedConvertResult | undefined> {
  if (extension.toLowerCase() !== 'txt' || input.length > IN_THREAD_TEXT_MAX_BYTES || !plainRequest(options)) {
    return undefined;
  }
  // Bytes that are not text (a zip or OLE container named .txt) are not even opened here: the
  // worker sniffs them (inflating a zip's members in this thread cost 4.5 ms for 1 KB of zip).
  if (!isText(input)) return undefined;
  const format = await sniffContent(input, extension).catch(() => undefined);
  if (format !== 'txt') return undefined;
  try {
    const { blocks: _model, ...result } = await convertDocument(input, extension, options);
    return result;
  } catch (err) {
    const shown = conversionFailure(err, extension);
    throw new ConversionError(shown.code, shown.message);
  }
}
