import type Chardet from 'chardet';
import type Iconv from 'iconv-lite';

// The code-page libraries load on the first text that is not UTF-8: most never needs them.
/* eslint-disable @typescript-eslint/no-require-imports */
const chardet = (): typeof Chardet => require('chardet') as typeof Chardet;
const iconv = (): typeof Iconv => require('iconv-lite') as typeof Iconv;
/* eslint-enable @typescript-eslint/no-require-imports */

/** Decodes bytes of unknown encoding: BOMs first, then UTF-8 when valid, then a detected legacy code page. */
export function decodeText(input: Buffer): string {
  if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) {
    return input.subarray(3).toString('utf8');
  }
  if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) return iconv().decode(input.subarray(2), 'utf16le');
  if (input.length >= 2 && input[0] === 0xfe && input[1] === 0xff) return iconv().decode(input.subarray(2), 'utf16be');
  if (isValidUtf8(input)) return input.toString('utf8');
  const cjk = decodeCjk(input);
  if (cjk !== undefined) return cjk;
  const detected = chardet().detect(input.subarray(0, 64 * 1024));
  const encoding = detected && iconv().encodingExists(detected) ? detected : 'windows-1252';
  return iconv().decode(input, encoding);
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

/** East Asian multi-byte encodings, tried strictly; statistical detection is unreliable on short files. */
const CJK_ENCODINGS = ['shift_jis', 'euc-jp', 'gb18030', 'big5', 'euc-kr'];

const ASIAN = '[\\u3000-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af\\uff00-\\uffef]';
const ASIAN_CHARACTERS = new RegExp(ASIAN, 'g');
/** An Asian character with a Latin letter against it: `R間ion` is `Région` read as GB18030. */
const ASIAN_BY_LATIN = new RegExp(`(?<=[A-Za-z])${ASIAN}|${ASIAN}(?=[A-Za-z])`, 'g');

/**
 * Whether "CJK" text is Latin-1 read two bytes at a time: an accented letter's byte takes the ASCII
 * letter after it as its second byte, so most of the Asian characters sit inside Latin words;
 * in real CJK text they stand in runs of their own.
 */
function latinInDisguise(text: string, asian: number): boolean {
  return (text.match(ASIAN_BY_LATIN)?.length ?? 0) * 2 >= asian;
}

/** The text in the first CJK encoding that decodes without error into mostly CJK characters. */
function decodeCjk(input: Buffer): string | undefined {
  for (const encoding of CJK_ENCODINGS) {
    let text: string;
    try {
      text = new TextDecoder(encoding, { fatal: true }).decode(input);
    } catch {
      continue;
    }
    const nonAscii = text.match(/[^\x00-\x7f]/g) ?? [];
    const asian = text.match(ASIAN_CHARACTERS) ?? [];
    if (nonAscii.length > 0 && asian.length / nonAscii.length >= 0.9 && !latinInDisguise(text, asian.length))
      return text;
  }
  return undefined;
}

/** Spaces and tabs ending a line; the lookbehind starts a match only at a run's start, so long runs stay linear. */
export const TRAILING_BLANKS = /(?<![ \t])[ \t]+$/gm;
