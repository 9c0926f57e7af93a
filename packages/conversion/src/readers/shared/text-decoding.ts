import type Chardet from 'chardet';
import type Iconv from 'iconv-lite';

// The code-page libraries load on the first text that is not UTF-8: most never needs them.
/* eslint-disable @typescript-eslint/no-require-imports */
const chardet = (): typeof Chardet => require('chardet') as typeof Chardet;
const iconv = (): typeof Iconv => require('iconv-lite') as typeof Iconv;
/* eslint-enable @typescript-eslint/no-require-imports */

/** Decodes bytes of unknown encoding: BOMs first, then UTF-16 or UTF-32 by their zero bytes, then UTF-8 when valid, then a detected legacy code page. */
export function decodeText(input: Buffer): string {
  if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) {
    return input.subarray(3).toString('utf8');
  }
  const wide = wideUnicodeForm(input);
  if (wide) return iconv().decode(input.subarray(wide.bom), wide.encoding);
  if (isValidUtf8(input)) return input.toString('utf8');
  const cjk = decodeCjk(input);
  if (cjk !== undefined) return cjk;
  const detected = chardet().detect(input.subarray(0, 64 * 1024));
  const encoding = detected && iconv().encodingExists(detected) ? detected : 'windows-1252';
  return iconv().decode(input, encoding);
}

/** Bytes examined for the zero-byte pattern of UTF-16 or UTF-32 text without a BOM. */
const WIDE_SAMPLE_BYTES = 64 * 1024;
/** Share of a code unit's high bytes that are zero in text of a script that fits one byte (Latin text, digits, markup). */
const MIN_ZERO_HIGH_BYTES = 0.3;
/** Share of its low bytes that may be zero: NUL characters are rare in text. */
const MAX_ZERO_LOW_BYTES = 0.02;

type WideEncoding = 'utf32le' | 'utf32be' | 'utf16le' | 'utf16be';

/**
 * Text in UTF-32 or UTF-16 (Excel's "Unicode Text", PowerShell's and .NET's output): by its BOM, or,
 * without one, by its zero bytes: the high bytes of most code units are zero and their low bytes are
 * not. UTF-32's BOM is tried before UTF-16's, which opens it (FF FE 00 00). `bom` is the BOM's length.
 */
export function wideUnicodeForm(input: Buffer): { encoding: WideEncoding; bom: number } | undefined {
  const opens = (...bytes: number[]) => input.length >= bytes.length && bytes.every((b, i) => input[i] === b);
  if (opens(0xff, 0xfe, 0x00, 0x00)) return { encoding: 'utf32le', bom: 4 };
  if (opens(0x00, 0x00, 0xfe, 0xff)) return { encoding: 'utf32be', bom: 4 };
  if (opens(0xff, 0xfe)) return { encoding: 'utf16le', bom: 2 };
  if (opens(0xfe, 0xff)) return { encoding: 'utf16be', bom: 2 };
  const sampled = Math.min(input.length, WIDE_SAMPLE_BYTES);
  const sample = input.subarray(0, sampled - (sampled % 4));
  // Zero bytes at each position of a 4-byte group.
  const zeros = [0, 0, 0, 0];
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) zeros[i % 4]!++;
  const quarter = sample.length / 4;
  if (quarter < 1) return undefined;
  const share = (...positions: number[]) =>
    positions.reduce((sum, p) => sum + zeros[p]!, 0) / (quarter * positions.length);
  // UTF-32: the top byte of every code point is zero, and the next one too below U+10000.
  if (input.length % 4 === 0 && share(3) === 1 && share(2) >= MIN_ZERO_HIGH_BYTES && share(0) <= MAX_ZERO_LOW_BYTES)
    return { encoding: 'utf32le', bom: 0 };
  if (input.length % 4 === 0 && share(0) === 1 && share(1) >= MIN_ZERO_HIGH_BYTES && share(3) <= MAX_ZERO_LOW_BYTES)
    return { encoding: 'utf32be', bom: 0 };
  if (share(1, 3) >= MIN_ZERO_HIGH_BYTES && share(0, 2) <= MAX_ZERO_LOW_BYTES) return { encoding: 'utf16le', bom: 0 };
  if (share(0, 2) >= MIN_ZERO_HIGH_BYTES && share(1, 3) <= MAX_ZERO_LOW_BYTES) return { encoding: 'utf16be', bom: 0 };
  return undefined;
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
