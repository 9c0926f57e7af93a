import { convertDocument, type ConvertDocumentOptions } from '../convert';
import { ConversionError } from '../types';

interface Task {
  input: Uint8Array;
  extension: string;
  options: ConvertDocumentOptions;
}

/** What a pooled worker thread runs for one document: a result, or the error to show the user. */
export default async function convertInWorker({ input, extension, options }: Task) {
  try {
    const result = await convertDocument(Buffer.from(input), extension, options);
    return { ok: true as const, result };
  } catch (err) {
    const known = err instanceof ConversionError;
    return {
      ok: false as const,
      code: known ? err.code : 'corrupt_file',
      message: known
        ? err.message
        : `The file could not be converted: ${String((err as Error | undefined)?.message).split('\n')[0]}`,
    };
  }
}
