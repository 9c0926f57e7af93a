import type { Tiktoken } from 'tiktoken/lite';
import * as pieces from './pieces';
import { pieceEnd } from './pieces';
import { CONTROL_CHARACTER } from '../document/control-characters';

/*
 * The index's scan calls these for most pieces: bound once here, since a module run from sources
 * (tsx: jest, the bench, workers without MARKWRIGHT_BUNDLE) reads each import through a getter on every use.
 */
const { asciiPieceEndOfCodes, contractionOfCodes, isAsciiOther, isAsciiWordPrefix, NOT_ASCII } = pieces;

let encoder: Tiktoken | undefined;

/**
 * The o200k_base BPE tokenizer: OpenAI's tiktoken compiled to WebAssembly (the `tiktoken`
 * package), made once from the ranks shipped in the package (no download). Each conversion worker
 * makes it on its first count: it takes about 40% of the pure-JS port's CPU time to load and
 * ~70 MB less memory (issue 19). Loading it adds no globals, so it may load during a guarded
 * conversion task (test/tokens/count.test.ts).
 */
function tokenizer(): Tiktoken {
  if (!encoder) {
    // The rank table is several MB: loaded on first count, not when the library is imported.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { Tiktoken: Encoder } = require('tiktoken/lite') as typeof import('tiktoken/lite');
    const o200k = require('tiktoken/encoders/o200k_base.json') as {
      bpe_ranks: string;
      special_tokens: Record<string, number>;
      pat_str: string;
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
    encoder = new Encoder(o200k.bpe_ranks, o200k.special_tokens, o200k.pat_str);
  }
  return encoder;
}

/**
 * Pieces' counts already made. tiktoken splits text by its pattern and encodes each piece on its
 * own, so a text's count is the sum of its pieces' counts: a piece seen before (a word, a cell's
 * number, a run of spaces) is not encoded again, which saves the call into WebAssembly (copying
 * the text in, the tokens out) that costs more than the lookup. Cleared past CACHE_LIMIT pieces.
 * (A hash table over the characters, to make no string per piece, was no faster than this Map.)
 */
const counted = new Map<string, number>();
const CACHE_LIMIT = 200_000;
/** Pieces longer than this are encoded each time (rare, and not worth keeping). */
const CACHED_PIECE_CHARS = 64;

/**
 * A cache key that holds only its own characters. V8 makes a slice of 13 or more characters a view
 * of the whole text, so a key kept as sliced would keep the document it came from alive for as
 * long as it stays cached (up to CACHE_LIMIT pieces, each maybe from another document). Joined to
 * a character and sliced again, it is a view of that short join instead.
 */
function keptCopy(piece: string): string {
  return ` ${piece}`.slice(1);
}

/**
 * Pieces holding a control character (CONTROL_CHARACTER) counted so far in this thread. No cache
 * keeps such a piece, so each one is counted here again: a scan that counted none read a text
 * without control characters, with no test of its own (TokenIndex.controls).
 */
let controlPieces = 0;

/** The o200k_base count of `text.slice(at, end)`, one piece of the split (encoded on its own, as tiktoken does). */
function pieceTokens(text: string, at: number, end: number): number {
  const piece = text.slice(at, end);
  let n = counted.get(piece);
  if (n === undefined) {
    n = tokenizer().encode_ordinary(piece).length;
    if (CONTROL_CHARACTER.test(piece)) controlPieces++;
    else if (piece.length <= CACHED_PIECE_CHARS) {
      if (counted.size >= CACHE_LIMIT) counted.clear();
      counted.set(keptCopy(piece), n);
    }
  }
  return n;
}

/**
 * Words (a space or nothing, then ASCII letters), the commonest pieces of prose, counted already:
 * found by an FNV-1a hash made while the word is scanned and a comparison with the word kept, so a
 * word seen before costs no string and no second pass (the Map costs both). Open addressing, at
 * most half full; emptied when full.
 */
const WORD_SLOTS = 1 << 15;
const wordSlots = new Int32Array(WORD_SLOTS);
let wordKeys: string[] = [''];
let wordHashes: number[] = [0];
let wordCounts: number[] = [0];
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** The tokens of the piece the last `nextPiece` call found. */
let lastPieceTokens = 0;

/** The end of the piece of `text` that starts at `at` (pieceEnd's), its count left in lastPieceTokens. */
function nextPiece(text: string, at: number): number {
  let hash = FNV_OFFSET;
  let i = at;
  let c = text.charCodeAt(i);
  if (c === 32) {
    hash = Math.imul(hash ^ c, FNV_PRIME);
    c = text.charCodeAt(++i);
  }
  const letters = i;
  while (c >= 65 && c <= 90) {
    hash = Math.imul(hash ^ c, FNV_PRIME);
    c = text.charCodeAt(++i);
  }
  while (c >= 97 && c <= 122) {
    hash = Math.imul(hash ^ c, FNV_PRIME);
    c = text.charCodeAt(++i);
  }
  // The pattern's word ends here for certain when what follows is no letter, no apostrophe (a
  // contraction) and nothing beyond ASCII (a letter or mark of another script); past the end, c is NaN.
  const word = i > letters && !(c >= 65 && c <= 90) && !(c >= 97 && c <= 122) && c !== 39 && !(c >= 128);
  if (!word) {
    if (i === at && c >= 48 && c <= 57) {
      // \p{N}{1,3} of ASCII digits: every such string is one o200k token (test/tokens/count.test.ts).
      let end = at + 1;
      while (end < at + 3 && (c = text.charCodeAt(end)) >= 48 && c <= 57) end++;
      if (end === at + 3 || !(text.charCodeAt(end) >= 128)) {
        lastPieceTokens = 1;
        return end;
      }
    }
    const end = pieceEnd(text, at);
    lastPieceTokens = end - at <= 2 ? shortPieceTokens(text, at, end) : pieceTokens(text, at, end);
    return end;
  }
  const length = i - at;
  let slot = hash & (WORD_SLOTS - 1);
  for (let entry = wordSlots[slot]!; entry !== 0; entry = wordSlots[slot]!) {
    if (wordHashes[entry] === hash && sameWord(wordKeys[entry]!, text, at, length)) {
      lastPieceTokens = wordCounts[entry]!;
      return i;
    }
    slot = (slot + 1) & (WORD_SLOTS - 1);
  }
  const controls = controlPieces;
  lastPieceTokens = pieceTokens(text, at, i);
  if (length <= CACHED_PIECE_CHARS && controlPieces === controls) {
    if (wordKeys.length > WORD_SLOTS / 2) {
      wordSlots.fill(0);
      wordKeys = [''];
      wordHashes = [0];
      wordCounts = [0];
      slot = hash & (WORD_SLOTS - 1);
    }
    wordSlots[slot] = wordKeys.length;
    wordKeys.push(keptCopy(text.slice(at, i)));
    wordHashes.push(hash);
    wordCounts.push(lastPieceTokens);
  }
  return i;
}

/**
 * Counts of pieces of one or two ASCII characters (a space, punctuation, a line break, a table's
 * ` |`), the commonest pieces after words, by their character codes: no string, no Map. 0 is not
 * counted yet (every piece is at least one token).
 */
const shortCounts = new Uint8Array(128 + 128 * 128);

/** pieceTokens of a piece of one or two characters. */
function shortPieceTokens(text: string, at: number, end: number): number {
  const a = text.charCodeAt(at);
  const b = end - at === 2 ? text.charCodeAt(at + 1) : -1;
  if (a >= 128 || b >= 128) return pieceTokens(text, at, end);
  const key = b < 0 ? a : 128 + (a << 7) + b;
  return shortCounts[key] || keptShortTokens(key, text, at, end);
}

/** The count of a piece of one or two ASCII characters not in shortCounts (`key`), kept there unless it holds a control character. */
function keptShortTokens(key: number, text: string, at: number, end: number): number {
  const controls = controlPieces;
  const tokens = pieceTokens(text, at, end);
  if (controlPieces === controls) shortCounts[key] = tokens;
  return tokens;
}

function sameWord(key: string, text: string, at: number, length: number): boolean {
  if (key.length !== length) return false;
  for (let k = 0; k < length; k++) if (key.charCodeAt(k) !== text.charCodeAt(at + k)) return false;
  return true;
}

/** The o200k_base token count of `text`, as `encode(text).length` with no special tokens. */
export function countTokens(text: string): number {
  let total = 0;
  for (let at = 0; at < text.length;) {
    at = nextPiece(text, at);
    total += lastPieceTokens;
  }
  return total;
}

/**
 * The token index's scan of a whole document reads its code units from a typed array (V8 reads one
 * faster than `charCodeAt`) and looks every piece of up to CACHED_PIECE_CHARS up by a key made
 * while scanning, in a table of typed arrays: no string per piece, no Map. Pieces that depend on a
 * character beyond ASCII are cut and counted from the string as before.
 */
let codeBytes: Buffer | undefined;
/** The largest code buffer a worker keeps between documents (4 MB: 2M characters). */
const CODE_BYTES_KEPT = 1 << 22;

/**
 * `text`'s UTF-16 code units (lone surrogates as they are), in a buffer reused from one index to
 * the next, and END_OF_CODES after them: the scan's letter runs stop there with no length check.
 */
function codesOf(text: string): Uint16Array {
  const bytes = 2 * text.length + 2;
  const buffer = codeBytes && codeBytes.length >= bytes ? codeBytes : Buffer.allocUnsafeSlow(bytes);
  if (buffer !== codeBytes && bytes <= CODE_BYTES_KEPT) codeBytes = buffer;
  buffer.write(text, 0, 'utf16le');
  const codes = new Uint16Array(buffer.buffer, buffer.byteOffset, text.length + 1);
  codes[text.length] = END_OF_CODES;
  return codes;
}

/** Stands after the last code unit the scan reads: no letter, and beyond ASCII, so no run goes on over it. */
const END_OF_CODES = 0xffff;

/**
 * A piece's key, made while it is scanned: its last 8 characters, 7 bits each (every piece the scan
 * keys is ASCII), in two 28-bit halves shifted along (`keyHigh` gets what leaves `keyLow`). With
 * the length it is the piece itself for pieces of up to KEYED_CHARS characters (most words and
 * punctuation runs), so a hit needs no comparison of characters; a longer piece is compared with
 * its characters, kept in a pool.
 */
const KEY_MASK = 0xfffffff;
const KEYED_CHARS = 8;

/**
 * Pieces counted already, for the index's scan: open addressing, at most half full, emptied when
 * full. A slot is four numbers in one array (one cache line): the key's two halves, the length (low
 * LENGTH_BITS) with where a long piece's characters start in the pool above them, and the count;
 * an empty slot has length 0.
 */
const PIECE_SLOTS = 1 << 16;
const PIECE_ENTRIES = PIECE_SLOTS >> 1;
const LENGTH_BITS = 7;
const LENGTH_MASK = (1 << LENGTH_BITS) - 1;
/** Code units of the long pieces kept; emptied with the table when full. */
const PIECE_POOL_UNITS = 1 << 19;
const pieceTable = new Int32Array(PIECE_SLOTS * 4);
const piecePool = new Uint16Array(PIECE_POOL_UNITS);
/** Entries kept, and pool units used. */
let pieceEntries = 0;
let poolUsed = 0;

/** The first slot to probe for a key: the hash's high bits, which every bit of the key moves. */
function firstSlot(keyLow: number, keyHigh: number, length: number): number {
  return Math.imul(keyLow ^ Math.imul(keyHigh + length, 0x9e3779b1), 0x85ebca6b) >>> 16;
}

/** The count of the piece codes[at..end) with key keyLow/keyHigh, from the table, else counted and kept. */
function tableTokens(
  codes: Uint16Array,
  text: string,
  at: number,
  end: number,
  keyLow: number,
  keyHigh: number,
): number {
  const length = end - at;
  if (length > CACHED_PIECE_CHARS) return pieceTokens(text, at, end);
  let slot = firstSlot(keyLow, keyHigh, length);
  for (let meta = pieceTable[(slot << 2) | 2]!; meta !== 0; meta = pieceTable[(slot << 2) | 2]!) {
    const base = slot << 2;
    if (pieceTable[base] === keyLow && pieceTable[base | 1] === keyHigh && (meta & LENGTH_MASK) === length) {
      if (length <= KEYED_CHARS) return pieceTable[base | 3]!;
      const start = meta >>> LENGTH_BITS;
      let k = 0;
      // The key holds the last KEYED_CHARS characters: only those before them are compared.
      const compared = length - KEYED_CHARS;
      while (k < compared && piecePool[start + k] === codes[at + k]) k++;
      if (k === compared) return pieceTable[base | 3]!;
    }
    slot = (slot + 1) & (PIECE_SLOTS - 1);
  }
  return keptPieceTokens(codes, text, at, end, keyLow, keyHigh, slot);
}

/** tableTokens of a piece not in the table: counted, and kept in `slot` (the free one its probe ended at). */
function keptPieceTokens(
  codes: Uint16Array,
  text: string,
  at: number,
  end: number,
  keyLow: number,
  keyHigh: number,
  slot: number,
): number {
  const length = end - at;
  const controls = controlPieces;
  const tokens = pieceTokens(text, at, end);
  if (controlPieces !== controls) return tokens;
  const pooled = length > KEYED_CHARS;
  if (pieceEntries >= PIECE_ENTRIES || (pooled && poolUsed + length > PIECE_POOL_UNITS)) {
    pieceTable.fill(0);
    pieceEntries = 0;
    poolUsed = 0;
    slot = firstSlot(keyLow, keyHigh, length);
  }
  const base = slot << 2;
  pieceEntries++;
  pieceTable[base] = keyLow;
  pieceTable[base | 1] = keyHigh;
  pieceTable[base | 2] = ((pooled ? poolUsed : 0) << LENGTH_BITS) | length;
  pieceTable[base | 3] = tokens;
  if (pooled) {
    piecePool.set(codes.subarray(at, end), poolUsed);
    poolUsed += length;
  }
  return tokens;
}

/**
 * Pieces cut by stringPiece so far in this thread. Every other piece the scan cuts is ASCII, so a
 * text scanned with none is all ASCII (TokenIndex.cutCount).
 */
let stringPieces = 0;

/** A piece that the ASCII scan cannot decide: cut by pieceEnd and counted from the string. */
function stringPiece(text: string, at: number): number {
  stringPieces++;
  const end = pieceEnd(text, at);
  lastPieceTokens = end - at <= 2 ? shortPieceTokens(text, at, end) : pieceTokens(text, at, end);
  return end;
}

/**
 * What the index's scans record besides the count (TokenIndex's arrays): with `boundaries`, each
 * piece's end and the tokens up to it (a region's scan); with marks, the boundary at or before each.
 */
interface ScanRecord {
  boundaries?: Int32Array;
  before: Int32Array;
  pieces: number;
  marks: Int32Array;
  markCount: number;
  markBoundary: Int32Array;
  markTokens: Int32Array;
}

/**
 * The count of codes[from, length) (the code units of `text`), split as nextPiece splits it: the
 * same pieces and counts (test/tokens/token-index.test.ts). With `into`, for each mark the boundary
 * at or before it is recorded, and with its `boundaries` each piece's end and the tokens up to it.
 * The scan stops after the piece that reaches `until`. One loop holds the piece's scan, with no
 * call per piece: V8 does not inline a scan this large into the loop.
 */
function scanCodes(
  codes: Uint16Array,
  length: number,
  text: string,
  from: number,
  into?: ScanRecord,
  until = length,
): number {
  let total = 0;
  const recording = into?.boundaries !== undefined;
  let boundaries = into?.boundaries ?? NO_MARKS;
  let before = into?.before ?? NO_MARKS;
  const marks = into?.marks ?? NO_MARKS;
  const markCount = into?.markCount ?? 0;
  let n = into?.pieces ?? 0;
  /** The tokens up to boundary n (a region's scan goes on from its last boundary). */
  let recorded = recording ? before[n]! : 0;
  let m = 0;
  /** The position of mark m (past any piece's end when none is left): compared once per piece. */
  let nextMark = markCount > 0 ? marks[0]! : NO_MARK_LEFT;
  for (let at = from; at < until;) {
    let end: number;
    let tokens: number;
    piece: {
      const first = codes[at]!;
      if (first >= 128) {
        end = stringPiece(text, at);
        tokens = lastPieceTokens;
        break piece;
      }
      let keyLow = 0;
      let keyHigh = 0;
      let i = at;
      // [^\r\n\p{L}\p{N}]? before a word: taken when an ASCII letter follows (not END_OF_CODES).
      if (isAsciiWordPrefix(first)) {
        const next = codes[at + 1]! | 32;
        if (next >= 97 && next <= 122) {
          keyLow = first;
          i++;
        }
      }
      const letters = i;
      let c: number;
      // codes[length] is END_OF_CODES (no letter); one unsigned comparison per class.
      while (((c = codes[i]!) - 65) >>> 0 < 26) {
        keyHigh = (keyHigh << 7) | (keyLow >>> 21);
        keyLow = ((keyLow << 7) | c) & KEY_MASK;
        i++;
      }
      while (((c = codes[i]!) - 97) >>> 0 < 26) {
        keyHigh = (keyHigh << 7) | (keyLow >>> 21);
        keyLow = ((keyLow << 7) | c) & KEY_MASK;
        i++;
      }
      if (i > letters) {
        if (i < length) {
          c = codes[i]!;
          // A letter or mark of another script may go on with the word: the pattern decides.
          if (c >= 128) {
            end = stringPiece(text, at);
            tokens = lastPieceTokens;
            break piece;
          }
          if (c === 39) {
            const stop = i + contractionOfCodes(codes, length, i);
            for (; i < stop; i++) {
              keyHigh = (keyHigh << 7) | (keyLow >>> 21);
              keyLow = ((keyLow << 7) | codes[i]!) & KEY_MASK;
            }
          }
        }
        end = i;
        tokens = tableTokens(codes, text, at, end, keyLow, keyHigh);
        break piece;
      }
      if (first >= 48 && first <= 57) {
        // \p{N}{1,3} of ASCII digits: every such string is one o200k token (test/tokens/count.test.ts).
        end = at + 1;
        while (end < at + 3 && end < length && (c = codes[end]!) >= 48 && c <= 57) end++;
        if (end === at + 3 || end >= length || codes[end]! < 128) tokens = 1;
        else {
          end = stringPiece(text, at);
          tokens = lastPieceTokens;
        }
        break piece;
      }
      // ` ?[^\s\p{L}\p{N}]+[\r\n/]*` (no letter follows, or the word above took it): punctuation runs, as the scan in pieces.ts.
      i = first === 32 ? at + 1 : at;
      if (i < length && isAsciiOther(codes[i]!)) {
        do i++;
        while (i < length && isAsciiOther(codes[i]!));
        if (i < length && codes[i]! >= 128) {
          end = stringPiece(text, at);
          tokens = lastPieceTokens;
          break piece;
        }
        while (i < length && ((c = codes[i]!) === 10 || c === 13 || c === 47)) i++;
        end = i;
      } else {
        end = asciiPieceEndOfCodes(codes, length, at);
        if (end === NOT_ASCII) {
          end = stringPiece(text, at);
          tokens = lastPieceTokens;
          break piece;
        }
      }
      if (end - at <= 2) {
        const key = end - at === 1 ? first : 128 + (first << 7) + codes[at + 1]!;
        tokens = shortCounts[key] || keptShortTokens(key, text, at, end);
        break piece;
      }
      for (let k = at; k < end; k++) {
        keyHigh = (keyHigh << 7) | (keyLow >>> 21);
        keyLow = ((keyLow << 7) | codes[k]!) & KEY_MASK;
      }
      tokens = tableTokens(codes, text, at, end, keyLow, keyHigh);
    }
    if (into) {
      // Marks inside this piece (or at its start): the piece starts on the last boundary at or before them.
      if (nextMark < end) {
        do {
          into.markBoundary[m] = at;
          into.markTokens[m++] = total;
        } while (m < markCount && marks[m]! < end);
        nextMark = m < markCount ? marks[m]! : NO_MARK_LEFT;
      }
      if (recording) {
        if (++n >= boundaries.length) {
          boundaries = grown(boundaries, new Int32Array(boundaries.length * 2));
          before = grown(before, new Int32Array(before.length * 2));
        }
        boundaries[n] = end;
        before[n] = recorded += tokens;
      }
    }
    total += tokens;
    at = end;
  }
  if (into) {
    for (; m < markCount; m++) {
      into.markBoundary[m] = length;
      into.markTokens[m] = total;
    }
    if (recording) into.boundaries = boundaries;
    into.before = before;
    into.pieces = n;
  }
  return total;
}

const NO_MARKS = new Int32Array(0);
/** Past every position of a text (the index's scan has no mark left to record). */
const NO_MARK_LEFT = 0x7fffffff;

/** Indexes built in this thread: the shared code buffer holds the last one's text (TokenIndex.cutCount). */
let codesGenerations = 0;

/** Arrays of an index released, for the next one built (TokenIndex.release). */
let spare: { boundaries: Int32Array; before: Int32Array } | undefined;
/** The largest arrays kept (8 MB for the two: about 2 MB of Markdown); a worker does not hold more between conversions. */
const SPARE_MAX_ENTRIES = 1 << 20;
/** The entries a region's arrays start with (grown by doubling). */
const REGION_ENTRIES = 1 << 12;

/**
 * One text split and counted once, so that the count of any stretch of it costs a lookup: the
 * chunk writer counts every block, row and chunk of the Markdown, which counted one by one is the
 * whole text tokenized two to three times over (issue 19). Exact: a stretch's count is what
 * `countTokens` gives for it (test/tokens/token-index.test.ts).
 *
 * `count` needs the split's boundaries: the whole scan records them when the caller expects to
 * count stretches other than between marks, else they are recorded for the region `count` needs,
 * scanned again from a mark before it (most documents' chunks are counted between marks alone, and
 * a boundary per piece is two stores for each of ~200 k pieces a megabyte).
 */
export class TokenIndex {
  /** Where the pieces of the region's split end, in order: boundaries[0], where the region starts, is a boundary of the whole text's. */
  private boundaries: Int32Array = NO_MARKS;
  /** Tokens from the region's start to each boundary. */
  private before: Int32Array = NO_MARKS;
  /** The region's last boundary is boundaries[pieces]; -1 while no region is scanned. */
  private pieces = -1;
  /** The text's code units, as the scan read them: valid while this is the last index to write them (codesGenerations). */
  private codes: Uint16Array;
  private codesGeneration: number;
  /** Per mark (the constructor's `marks`): the last boundary of the split at or before it, and the tokens before that boundary. */
  private readonly markBoundary: Int32Array;
  private readonly markTokens: Int32Array;
  private readonly markCount: number;
  /** The text is all ASCII (its scan cut no piece from the string). */
  private readonly ascii: boolean;
  /**
   * The text holds a control character (CONTROL_CHARACTER): its scan counted a piece with one. Read
   * from the scan, so a writer that would strip them learns it with no pass of its own.
   */
  readonly controls: boolean;

  /**
   * `marks`: the first `markCount` are positions in `text`, ascending, whose stretches the caller will
   * count (a chunk writer's block, row and item edges). The scan records where each falls in the
   * split, so a stretch between two marks (`countBetween`) is counted with no search of the boundaries.
   * `stretches`: other stretches will be counted (`count`), so the whole scan records the boundaries.
   */
  constructor(
    readonly text: string,
    private readonly marks: Int32Array = NO_MARKS,
    markCount = 0,
    stretches = true,
  ) {
    const codes = codesOf(text);
    if (stretches) this.startRegion(0, Math.max(REGION_ENTRIES, text.length >> 1));
    const scan: ScanRecord = {
      boundaries: stretches ? this.boundaries : undefined,
      before: stretches ? this.before : NO_MARKS,
      pieces: 0,
      marks,
      markCount,
      markBoundary: new Int32Array(markCount),
      markTokens: new Int32Array(markCount),
    };
    const earlier = stringPieces;
    const earlierControls = controlPieces;
    scanCodes(codes, text.length, text, 0, scan);
    this.ascii = stringPieces === earlier;
    this.controls = controlPieces !== earlierControls;
    if (stretches) {
      this.boundaries = scan.boundaries!;
      this.before = scan.before;
      this.pieces = scan.pieces;
    }
    this.markBoundary = scan.markBoundary;
    this.markTokens = scan.markTokens;
    this.markCount = markCount;
    this.codes = codes;
    this.codesGeneration = ++codesGenerations;
  }

  /**
   * Scans the region so that it holds a boundary at or before `from` and one at or after `to` (or
   * the text's end): it goes on from its last boundary when `from` is in it or no mark lies between,
   * else starts again at the last mark's boundary at or before `from` (the start of the text when none).
   */
  private cover(from: number, to: number): void {
    let last = this.pieces < 0 ? -1 : this.boundaries[this.pieces]!;
    if (last < 0 || from < this.boundaries[0]! || (from > last && this.markBoundaryBefore(from) > last)) {
      last = this.markBoundaryBefore(from);
      this.startRegion(last, REGION_ENTRIES);
    }
    if (last >= to || last >= this.text.length) return;
    if (this.codesGeneration !== codesGenerations) {
      this.codes = codesOf(this.text);
      this.codesGeneration = ++codesGenerations;
    }
    const scan: ScanRecord = {
      boundaries: this.boundaries,
      before: this.before,
      pieces: this.pieces,
      marks: NO_MARKS,
      markCount: 0,
      markBoundary: NO_MARKS,
      markTokens: NO_MARKS,
    };
    scanCodes(this.codes, this.text.length, this.text, last, scan, to);
    this.boundaries = scan.boundaries!;
    this.before = scan.before;
    this.pieces = scan.pieces;
  }

  /** Makes the region start (empty) at boundary `start`, its arrays the spare ones or new of `size` entries the first time. */
  private startRegion(start: number, size: number): void {
    if (this.pieces < 0) {
      const reused = spare && spare.boundaries.length >= size ? spare : undefined;
      if (reused) spare = undefined;
      this.boundaries = reused?.boundaries ?? new Int32Array(size);
      this.before = reused?.before ?? new Int32Array(size);
    }
    this.boundaries[0] = start;
    this.before[0] = 0;
    this.pieces = 0;
    this.hint = 0;
  }

  /** The boundary the whole scan recorded for the last mark at or before `position`; 0 when none is. */
  private markBoundaryBefore(position: number): number {
    let lo = 0;
    let hi = this.markCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.markBoundary[mid]! <= position) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? this.markBoundary[lo - 1]! : 0;
  }

  /**
   * The o200k_base count of `prefix + text.slice(from, to)`. The pattern has no look-behind, so
   * from a boundary of the whole text's split on, the stretch splits as the whole text does: only
   * its ends are split again (the pieces before the first shared boundary, and the piece the
   * stretch cuts at its end). A stretch that ends in white space, whose last piece may differ
   * through the pattern's look-ahead, is counted whole.
   */
  count(from: number, to: number, prefix = ''): number {
    if (to <= from) return prefix ? countTokens(prefix) : 0;
    if (isWhiteSpace(this.text.charCodeAt(to - 1))) return countTokens(prefix + this.text.slice(from, to));
    this.cover(from, to);
    let b = this.firstBoundaryAtOrAfter(from);
    let total = 0;
    // Most stretches (blocks, rows, lines) start on a boundary and have no prefix: no head, and no string made.
    if (prefix || this.boundaries[b] !== from) {
      // The head: split on its own until a piece ends on a boundary of the whole. Split from the
      // stretch's first HEAD_WINDOW characters while its pieces end where they would in the whole
      // stretch (as prefixHead decides), not from a copy of a stretch of kilobytes (a chunk).
      const window = Math.min(to, from + HEAD_WINDOW);
      let stretch = prefix + this.text.slice(from, window);
      let settledEnd = window < to ? lastSettledEnd(stretch) : stretch.length;
      let at = 0;
      if (prefix) {
        const head = this.prefixHead(prefix);
        at = head.at;
        total = head.tokens;
      }
      while (at < stretch.length) {
        const offset = at - prefix.length;
        if (offset >= 0) {
          while (b <= this.pieces && this.boundaries[b]! < from + offset) b++;
          if (b <= this.pieces && this.boundaries[b] === from + offset) break;
        }
        const end = nextPiece(stretch, at);
        if (end > settledEnd) {
          // What follows the window may change this piece: split again from here in the whole stretch.
          stretch = prefix + this.text.slice(from, to);
          settledEnd = stretch.length;
          continue;
        }
        at = end;
        total += lastPieceTokens;
      }
      if (at >= stretch.length) return total;
    }
    // The middle: whole pieces of the whole text; the tail: what the stretch cuts of the last one.
    const last = this.lastBoundaryAtOrBefore(to);
    total += this.before[last]! - this.before[b]!;
    const tail = this.boundaries[last]!;
    return tail < to ? total + this.cutCount(tail, to) : total;
  }

  /**
   * `count(marks[first], marks[last])`, from what the scan recorded at the two marks: a stretch that
   * starts on a boundary of the split is the tokens between the boundaries plus the piece its end
   * cuts (as count's middle and tail); one that starts inside a piece, or ends in white space, is
   * counted by count.
   */
  countBetween(first: number, last: number): number {
    const from = this.marks[first]!;
    const to = this.marks[last]!;
    if (to <= from) return 0;
    if (this.markBoundary[first] !== from || to > this.text.length || isWhiteSpace(this.text.charCodeAt(to - 1)))
      return this.count(from, to);
    const total = this.markTokens[last]! - this.markTokens[first]!;
    const tail = this.markBoundary[last]!;
    return tail < to ? total + this.cutCount(tail, to) : total;
  }

  /**
   * countTokens of `text.slice(from, to)`, where the stretch cuts a piece of the whole (most blocks
   * and rows end inside one: `.` or ` |` before a line break): from the code units when they are all
   * ASCII and still this text's, with no string made.
   */
  private cutCount(from: number, to: number): number {
    const codes = this.codes;
    if (this.codesGeneration !== codesGenerations) return countTokens(this.text.slice(from, to));
    if (!this.ascii)
      for (let k = from; k < to; k++) if (codes[k]! >= 128) return countTokens(this.text.slice(from, to));
    // Scanned as a text that ends at `to` (END_OF_CODES there for the while): the pattern has no
    // look-behind, so as the slice on its own.
    const after = codes[to]!;
    codes[to] = END_OF_CODES;
    try {
      return scanCodes(codes, to, this.text, from);
    } finally {
      codes[to] = after;
    }
  }

  /** prefixHead's answers for this text's counts (a table's header, repeated at each continuation chunk). */
  private readonly heads = new Map<string, { at: number; tokens: number }>();

  /** How far `prefix` splits the same whatever follows it (lastSettledEnd), and the tokens up to there. */
  private prefixHead(prefix: string): { at: number; tokens: number } {
    let head = this.heads.get(prefix);
    if (head) return head;
    const settled = lastSettledEnd(prefix);
    head = { at: 0, tokens: 0 };
    let tokens = 0;
    for (let at = 0; at < prefix.length;) {
      at = nextPiece(prefix, at);
      tokens += lastPieceTokens;
      if (at <= settled) head = { at, tokens };
      else break;
    }
    this.heads.set(prefix, head);
    return head;
  }

  /**
   * Hands this index's arrays to the next index built in this thread; this one is not used again.
   * A megabyte of Markdown needs megabytes of them, and fresh ones cost their page faults again.
   */
  release(): void {
    const size = this.boundaries.length;
    if (this.pieces >= 0 && size <= SPARE_MAX_ENTRIES && (!spare || spare.boundaries.length < size)) {
      spare = { boundaries: this.boundaries, before: this.before };
    }
  }

  /** The boundary the last search found: the chunk writer asks in document order, so searches start near it. */
  private hint = 0;

  private firstBoundaryAtOrAfter(position: number): number {
    const bounds = this.boundaries;
    const last = this.pieces;
    let lo: number;
    let hi: number;
    // Gallop from the last answer to a range that holds this one, then halve it.
    if (bounds[this.hint]! < position) {
      lo = this.hint + 1;
      hi = Math.min(lo, last);
      for (let step = 1; hi < last && bounds[hi]! < position; step *= 2) {
        lo = hi + 1;
        hi = Math.min(hi + step, last);
      }
    } else {
      hi = this.hint;
      lo = Math.max(hi - 1, 0);
      for (let step = 1; lo > 0 && bounds[lo]! >= position; step *= 2) {
        hi = lo;
        lo = Math.max(lo - step, 0);
      }
    }
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bounds[mid]! < position) lo = mid + 1;
      else hi = mid;
    }
    this.hint = lo;
    return lo;
  }

  private lastBoundaryAtOrBefore(position: number): number {
    const b = this.firstBoundaryAtOrAfter(position);
    return b <= this.pieces && this.boundaries[b] === position ? b : b - 1;
  }
}

/**
 * How far the split of `text` is the same whatever follows it: a piece ending at or before this
 * ends there in any text that starts with `text`. No piece's end depends on more than the 3
 * characters after it, or on more than the white space run it ends in (contractions,
 * `\s+(?!\S)`, `\s*[\r\n]+`): so 4 characters before the end, and not past the last character
 * other than white space.
 */
function lastSettledEnd(text: string): number {
  let lastNonSpace = text.length - 1;
  while (lastNonSpace >= 0 && isWhiteSpace(text.charCodeAt(lastNonSpace))) lastNonSpace--;
  return Math.min(text.length - 4, lastNonSpace);
}

/** Characters of a stretch its head is first split from (TokenIndex.count): a few pieces past a table header. */
const HEAD_WINDOW = 64;

/** JavaScript's `\s`: what the pattern's look-ahead and white-space runs are made of. */
function isWhiteSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function grown<T extends Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export interface TokenOptimization {
  original_tokens: number;
  optimized_tokens: number;
  reduction_percent: number;
}

/** The contract's counts: o200k tokens before and after, and the reduction in percent to 2 decimals. */
export function tokenOptimization(original: string, optimized: string): TokenOptimization {
  const before = countTokens(original);
  const after = countTokens(optimized);
  return {
    original_tokens: before,
    optimized_tokens: after,
    reduction_percent: before === 0 ? 0 : Math.round((10000 * (before - after)) / before) / 100,
  };
}
