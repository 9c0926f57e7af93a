/**
 * o200k_base's split pattern in JavaScript's syntax: the `tiktoken` package's `pat_str` with its
 * `(?i:…)` contraction groups (which V8 cannot parse) spelled out in both cases, as the pure-JS
 * port does. tiktoken cuts text into these pieces and encodes each on its own.
 */
export const O200K_PATTERN = String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`;

/** The pattern anchored where it is asked (sticky): the end of the one piece that starts there. */
const sticky = new RegExp(O200K_PATTERN, 'uy');

/** What an ASCII character is to the pattern (one bit each). */
const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;
/** `\s`: tab, line feed, vertical tab, form feed, carriage return, space. */
const SPACE = 8;
/** `[\r\n]` */
const NEWLINE = 16;
/** Anything else: punctuation, symbols, control characters (`[^\s\p{L}\p{N}]`). */
const OTHER = 32;

const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 65 && c <= 90) ASCII[c] = UPPER;
  else if (c >= 97 && c <= 122) ASCII[c] = LOWER;
  else if (c >= 48 && c <= 57) ASCII[c] = DIGIT;
  else if (c === 10 || c === 13) ASCII[c] = SPACE | NEWLINE;
  else if (c === 9 || c === 11 || c === 12 || c === 32) ASCII[c] = SPACE;
  else ASCII[c] = OTHER;
}

/** A character beyond ASCII: none of the bits above, so no run goes on over it. */
const BEYOND = 64;
/** Returned by the ASCII scan when the piece depends on a character beyond ASCII. */
export const NOT_ASCII = -1;

/**
 * The end of the pattern's piece that starts at `at` (< text.length): the same piece as the
 * pattern's own match there, which it is for every text (test/tokens/pieces.test.ts). Pieces
 * that only ASCII characters decide are found by the scan below, about three times faster than
 * V8's Unicode-property regexp; any other piece by the pattern itself.
 */
export function pieceEnd(text: string, at: number): number {
  const end = asciiPieceEnd(text, at);
  if (end !== NOT_ASCII) return end;
  sticky.lastIndex = at;
  sticky.test(text);
  return sticky.lastIndex;
}

/** Class bits of the character at `i`: 0 past the end, BEYOND beyond ASCII. */
function classAt(text: string, i: number): number {
  if (i >= text.length) return 0;
  const c = text.charCodeAt(i);
  return c < 128 ? ASCII[c]! : BEYOND;
}

/**
 * The pattern's alternatives in its order, for pieces whose every deciding character (the
 * piece's own and the one that ends each run) is ASCII; NOT_ASCII for any other. In ASCII the
 * letter classes do not overlap (no Lm, Lo or M), so the pattern's backtracking has no choice
 * left to make beyond what is written here.
 */
function asciiPieceEnd(text: string, at: number): number {
  const first = classAt(text, at);
  if (first === BEYOND) return NOT_ASCII;
  // 1 and 2: [^\r\n\p{L}\p{N}]? then upper* lower+, or upper+ lower*; then a contraction.
  const prefixed = (first & (UPPER | LOWER | DIGIT | NEWLINE)) === 0;
  let i = prefixed ? at + 1 : at;
  let k = classAt(text, i);
  if (k === BEYOND) return NOT_ASCII;
  if (k & (UPPER | LOWER)) {
    while (k & UPPER) k = classAt(text, ++i);
    while (k & LOWER) k = classAt(text, ++i);
    if (k === BEYOND) return NOT_ASCII;
    return i + contraction(text, i);
  }
  // Without the prefix the first character is not a letter either: no word here.
  // 3: \p{N}{1,3}
  if (first & DIGIT) {
    let n = 1;
    while (n < 3) {
      const c = classAt(text, at + n);
      if (c === BEYOND) return NOT_ASCII;
      if (!(c & DIGIT)) break;
      n++;
    }
    return at + n;
  }
  // 4: ' '? [^\s\p{L}\p{N}]+ [\r\n/]*
  const spaced = text.charCodeAt(at) === 32;
  i = spaced ? at + 1 : at;
  k = spaced ? classAt(text, i) : first;
  if (k === BEYOND) return NOT_ASCII;
  if (k & OTHER) {
    while (k & OTHER) k = classAt(text, ++i);
    if (k === BEYOND) return NOT_ASCII;
    for (let c = text.charCodeAt(i); c === 10 || c === 13 || c === 47; c = text.charCodeAt(++i));
    return i;
  }
  // 5, 6, 7: white space. The run to its first other character decides all three.
  let lastNewline = -1;
  i = at;
  k = first;
  while (k & SPACE) {
    if (k & NEWLINE) lastNewline = i;
    k = classAt(text, ++i);
  }
  if (k === BEYOND) return NOT_ASCII;
  // \s*[\r\n]+ ends after the run's last line break.
  if (lastNewline >= 0) return lastNewline + 1;
  // \s+(?!\S) leaves the run's last space to the word after it; \s+ takes a single one.
  return i < text.length && i - at > 1 ? i - 1 : i;
}

/**
 * asciiPieceEnd over a text's UTF-16 code units (`codes`, of which the first `length` are the
 * text): the same scan, read from a typed array, which V8 reads faster than `charCodeAt`. The
 * token index's scan of a whole document (tokens/count.ts); NOT_ASCII for a piece that depends on
 * a character beyond ASCII, which the caller asks `pieceEnd` of the string for.
 */
export function asciiPieceEndOfCodes(codes: Uint16Array, length: number, at: number): number {
  const first = codeClass(codes, length, at);
  if (first === BEYOND) return NOT_ASCII;
  const prefixed = (first & (UPPER | LOWER | DIGIT | NEWLINE)) === 0;
  let i = prefixed ? at + 1 : at;
  let k = codeClass(codes, length, i);
  if (k === BEYOND) return NOT_ASCII;
  if (k & (UPPER | LOWER)) {
    while (k & UPPER) k = codeClass(codes, length, ++i);
    while (k & LOWER) k = codeClass(codes, length, ++i);
    if (k === BEYOND) return NOT_ASCII;
    return i + contractionOfCodes(codes, length, i);
  }
  if (first & DIGIT) {
    let n = 1;
    while (n < 3) {
      const c = codeClass(codes, length, at + n);
      if (c === BEYOND) return NOT_ASCII;
      if (!(c & DIGIT)) break;
      n++;
    }
    return at + n;
  }
  const spaced = codes[at] === 32;
  i = spaced ? at + 1 : at;
  k = spaced ? codeClass(codes, length, i) : first;
  if (k === BEYOND) return NOT_ASCII;
  if (k & OTHER) {
    while (k & OTHER) k = codeClass(codes, length, ++i);
    if (k === BEYOND) return NOT_ASCII;
    while (i < length && (codes[i] === 10 || codes[i] === 13 || codes[i] === 47)) i++;
    return i;
  }
  let lastNewline = -1;
  i = at;
  k = first;
  while (k & SPACE) {
    if (k & NEWLINE) lastNewline = i;
    k = codeClass(codes, length, ++i);
  }
  if (k === BEYOND) return NOT_ASCII;
  if (lastNewline >= 0) return lastNewline + 1;
  return i < length && i - at > 1 ? i - 1 : i;
}

/** An ASCII character of `[^\s\p{L}\p{N}]`: punctuation, a symbol, a control character. */
export function isAsciiOther(c: number): boolean {
  return c < 128 && ASCII[c] === OTHER;
}

/** An ASCII character that may stand before a word in its piece (`[^\r\n\p{L}\p{N}]`). */
export function isAsciiWordPrefix(c: number): boolean {
  return (ASCII[c]! & (UPPER | LOWER | DIGIT | NEWLINE)) === 0;
}

/** Class bits of code unit `i` of `codes`: 0 past `length`, BEYOND beyond ASCII. */
function codeClass(codes: Uint16Array, length: number, i: number): number {
  if (i >= length) return 0;
  const c = codes[i]!;
  return c < 128 ? ASCII[c]! : BEYOND;
}

/** contraction() over code units. */
export function contractionOfCodes(codes: Uint16Array, length: number, i: number): number {
  if (i >= length || codes[i] !== 39) return 0;
  const c = i + 1 < length ? codes[i + 1]! | 32 : 0;
  if (c === 115 || c === 116 || c === 109 || c === 100) return 2;
  const d = i + 2 < length ? codes[i + 2]! | 32 : 0;
  if ((c === 114 || c === 118) && d === 101) return 3;
  if (c === 108 && d === 108) return 3;
  return 0;
}

/** The length of `'s`, `'t`, `'re`, `'ve`, `'m`, `'ll` or `'d` (either case) at `i`, else 0. */
function contraction(text: string, i: number): number {
  if (text.charCodeAt(i) !== 39) return 0;
  const c = text.charCodeAt(i + 1) | 32;
  if (c === 115 || c === 116 || c === 109 || c === 100) return 2;
  const d = text.charCodeAt(i + 2) | 32;
  if ((c === 114 || c === 118) && d === 101) return 3;
  if (c === 108 && d === 108) return 3;
  return 0;
}
