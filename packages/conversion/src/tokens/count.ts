import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

let encoder: Tiktoken | undefined;

/** The o200k_base BPE tokenizer, loaded once from the ranks shipped in the package (no download). */
function tokenizer(): Tiktoken {
  // The rank table is several MB: required on first count, not when the library is imported.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  encoder ??= new Tiktoken(require('js-tiktoken/ranks/o200k_base') as TiktokenBPE);
  return encoder;
}

export function countTokens(text: string): number {
  return tokenizer().encode(text, [], []).length;
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
