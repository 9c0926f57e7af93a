import { isUtf8 } from 'node:buffer';
import type { Reader } from '../reader';
import { decodeText } from '../shared/text-decoding';
import { parseHtml } from '../shared/html/dom';
import { headMetadata } from '../shared/html/head-metadata';
import { readHtml } from '../shared/html/reader';

/** html, htm: the main content as document blocks (tables, lists, code, links); title and author from the head. */
export const htmlReader: Reader = {
  name: 'html',
  async read(input) {
    const root = parseHtml(decodeHtml(input));
    return { blocks: readHtml(root), metadata: headMetadata(root) };
  },
};

function decodeHtml(input: Buffer): string {
  const head = input.subarray(0, 2048).toString('latin1');
  const declared = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8' && !isNonAsciiUtf8(input)) {
    try {
      return new TextDecoder(declared).decode(input);
    } catch {
      // An unknown label falls through to detection.
    }
  }
  return decodeText(input);
}

/**
 * Text with multi-byte characters, every one well-formed UTF-8: a page saved again as UTF-8 that
 * kept its old `charset=gb2312` or `windows-1252` declaration. Text in those encodings is next to
 * never valid UTF-8 once it has a non-ASCII character, so the bytes outrank the declaration (a
 * pure-ASCII page still follows it).
 */
function isNonAsciiUtf8(input: Buffer): boolean {
  return isUtf8(input) && input.some((b) => b >= 0x80);
}
