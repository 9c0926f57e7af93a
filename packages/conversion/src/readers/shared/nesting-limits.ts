import { ConversionError } from '../../types';

/**
 * The deepest JSON nesting (and RTF group nesting) we convert: deeper files are refused with this
 * limit stated, instead of ending on the JavaScript stack or in memory. (HTML has its own cap,
 * MAX_HTML_DEPTH in converters/html/reader.ts.)
 */
export const MAX_NESTING_DEPTH = 512;

/**
 * The deepest Markdown nesting (quotes, lists, emphasis, links) the Markdown reader follows; what
 * is nested deeper is left out. Lower than JSON's: markdown-it's work on unclosed brackets grows
 * with this limit times the length, so it bounds the time a hostile file takes as well as the stack.
 */
export const MAX_MARKDOWN_NESTING = 100;

/** Refuses JSON that nests arrays and objects deeper than the limit (scanned without recursion). */
export function assertJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING_DEPTH) {
        throw new ConversionError(
          'too_large',
          `The JSON file nests deeper than ${MAX_NESTING_DEPTH} levels, the most we convert.`,
        );
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
