import { ConversionError } from './types';

/** Longest message shown to a user; library details past it add nothing they can act on. */
const MAX_MESSAGE_CHARS = 300;

/** Library and engine texts that describe our code, not the user's file: the detail is dropped. */
const ENGINE_ERROR =
  /Cannot (read|set) propert|is not (a function|iterable|defined|a constructor)|Maximum call stack|Invalid (array|string) length|\b(undefined|null|NaN)\b|\bat \S+ \(|Assertion|Symbol\(|\[object /i;

/**
 * The one place an error becomes the text API users read (the conversion's `error` field): our
 * own messages pass, cleaned of paths, memory addresses and engine errors; anything unexpected
 * becomes a plain sentence. Details that would show internals stay in the logs.
 */
export function userFacingError(err: unknown, extension: string): ConversionError {
  if (err instanceof ConversionError) return new ConversionError(err.code, withoutInternals(err.message));
  const label = `.${extension.toLowerCase()} file`;
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return new ConversionError('too_large', `The ${label} nests its content too deeply to convert.`);
  }
  if (err instanceof RangeError && /memory|allocation|Array buffer|Invalid (array|string) length/i.test(err.message)) {
    return new ConversionError('out_of_memory', 'The document needs more memory than a conversion may use.');
  }
  return new ConversionError(
    'corrupt_file',
    `The ${label} could not be read: it is damaged or uses features we cannot read.`,
  );
}

/**
 * The error a conversion ends with, for whoever runs it (the isolated worker): an error that is
 * already a ConversionError was made user-facing where it was raised (convertDocument applies
 * `userFacingError` to what its reader throws), so it passes as it is; anything else gets
 * `userFacingError` here. Each error goes through it once.
 */
export function conversionFailure(err: unknown, extension: string): ConversionError {
  return err instanceof ConversionError ? err : userFacingError(err, extension);
}

/** A message without temporary paths, decoder addresses, stack lines or engine errors, on one line. */
export function withoutInternals(message: string): string {
  const firstLine = message.split('\n')[0]!;
  const cleaned = firstLine
    .replace(/\[[^\]]*@\s*0x[0-9a-f]+\]\s*/gi, '')
    .replace(/\b0x[0-9a-f]{4,}\b/gi, '')
    .replace(/file:\/\/\S+/g, 'the file')
    .replace(/(?<![\w.])(?:[A-Za-z]:)?(?:[\\/][\w.@+~-]+){2,}[\\/]?/g, 'the file')
    .replace(/\s{2,}/g, ' ')
    .trim();
  const split = cleaned.indexOf(': ');
  const detail = split === -1 ? '' : cleaned.slice(split + 2);
  const kept = detail && ENGINE_ERROR.test(detail) ? `${cleaned.slice(0, split)}.` : cleaned;
  return kept.length > MAX_MESSAGE_CHARS ? `${kept.slice(0, MAX_MESSAGE_CHARS - 1).trimEnd()}…` : kept;
}
