import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

let encoder: Tiktoken | undefined;

/** The o200k_base BPE tokenizer, loaded once from the ranks shipped in the package (no download). */
function tokenizer(): Tiktoken {
  // The rank table is several MB: required on first count, not when the library is imported.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  encoder ??= new Tiktoken(require('js-tiktoken/ranks/o200k_base') as TiktokenBPE);
  return encoder;
}

/**
 * Pieces' counts already made. tiktoken splits text by its pattern and encodes each piece on its
 * own, so a text's count is the sum of its pieces' counts: a piece seen before (a word, a cell's
 * number, a run of spaces) is not encoded again. Cleared when it grows past CACHE_LIMIT pieces.
 */
const counted = new Map<string, number>();
const CACHE_LIMIT = 200_000;
/** Pieces longer than this are encoded each time (rare, and not worth keeping). */
const CACHED_PIECE_CHARS = 64;
let pattern: RegExp | undefined;

/** The o200k_base token count of `text`, as `encode(text).length` with no special tokens. */
export function countTokens(text: string): number {
  const encoder = tokenizer();
  pattern ??= new RegExp((require('js-tiktoken/ranks/o200k_base') as TiktokenBPE).pat_str, 'ug'); // eslint-disable-line @typescript-eslint/no-require-imports
  let total = 0;
  // match() with the g flag gives the pieces as strings: no match object (index, groups) per piece.
  for (const piece of text.match(pattern) ?? []) {
    let n = counted.get(piece);
    if (n === undefined) {
      n = encoder.encode(piece, [], []).length;
      if (piece.length <= CACHED_PIECE_CHARS) {
        if (counted.size >= CACHE_LIMIT) counted.clear();
        counted.set(piece, n);
      }
    }
    total += n;
  }
  return total;
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
