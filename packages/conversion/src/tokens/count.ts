import type { Tiktoken } from 'tiktoken/lite';

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
 */
const counted = new Map<string, number>();
const CACHE_LIMIT = 200_000;
/** Pieces longer than this are encoded each time (rare, and not worth keeping). */
const CACHED_PIECE_CHARS = 64;
/**
 * o200k_base's split pattern in JavaScript's syntax: the package's `pat_str` with its `(?i:…)`
 * contraction groups (which V8 cannot parse) spelled out in both cases, as the pure-JS port does.
 */
const O200K_PATTERN =
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
let pattern: RegExp | undefined;

/** The o200k_base token count of `text`, as `encode(text).length` with no special tokens. */
export function countTokens(text: string): number {
  const bpe = tokenizer();
  pattern ??= new RegExp(O200K_PATTERN, 'ug');
  let total = 0;
  // match() with the g flag gives the pieces as strings: no match object (index, groups) per piece.
  for (const piece of text.match(pattern) ?? []) {
    let n = counted.get(piece);
    if (n === undefined) {
      n = bpe.encode_ordinary(piece).length;
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
