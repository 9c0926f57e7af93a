import chardet from 'chardet';
import iconv from 'iconv-lite';

/** Decodes bytes of unknown encoding: BOMs first, then UTF-8 when valid, then a detected legacy code page. */
export function decodeText(input: Buffer): string {
  if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) {
    return input.subarray(3).toString('utf8');
  }
  if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) return iconv.decode(input.subarray(2), 'utf16le');
  if (input.length >= 2 && input[0] === 0xfe && input[1] === 0xff) return iconv.decode(input.subarray(2), 'utf16be');
  if (isValidUtf8(input)) return input.toString('utf8');
  const detected = chardet.detect(input.subarray(0, 64 * 1024));
  const encoding = detected && iconv.encodingExists(detected) ? detected : 'windows-1252';
  return iconv.decode(input, encoding);
}

function isValidUtf8(input: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(input);
    return true;
  } catch {
    return false;
  }
}

/** Normalises line endings and strips NULs, which no Markdown reader wants. */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\u0000/g, '');
}
