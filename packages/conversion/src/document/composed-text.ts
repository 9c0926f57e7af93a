/** Longest run of a letter and its combining marks (or of conjoining jamo) that is composed; longer runs are left. */
const MAX_COMPOSED_RUN = 32;

/**
 * What Unicode normalisation form C would change: a character with its combining marks, conjoining Hangul jamo after
 * their syllable, and characters that are another's canonical duplicate (Ångström and Kelvin signs, CJK
 * compatibility ideographs).
 */
const NOT_SURELY_COMPOSED = /[\p{M}\u1100-\u11ff\u2126\u212a\u212b\uf900-\ufaff\u{2f800}-\u{2fa1f}]/u;
const COMPOSABLE_RUN =
  /[^\p{M}]?\p{M}+|[^\u1100-\u11ff]?[\u1100-\u11ff]+|[\u2126\u212a\u212b\uf900-\ufaff\u{2f800}-\u{2fa1f}]/gu;

/**
 * Text in normalisation form C, run by run: a file that spells "é" as "e" and a combining accent (macOS, some
 * exports, PDFs made from them) reads as one that doesn't. A run longer than MAX_COMPOSED_RUN is left as it is:
 * ordering a long run of marks costs time in the square of its length (a hostile "zalgo" text), and no script
 * stacks that many on one letter. Text holding nothing NFC could change (most text) costs one scan.
 */
export function composedText(text: string): string {
  if (!NOT_SURELY_COMPOSED.test(text)) return text;
  return text.replace(COMPOSABLE_RUN, (run) => (run.length <= MAX_COMPOSED_RUN ? run.normalize('NFC') : run));
}
