import type { Line } from './layout';

/** Pages with fewer letters than this are not judged: a title page or a figure's labels say too little. */
const MIN_JUDGED_CHARS = 80;
/** Below this share of word-shaped tokens a text layer is noise (a failed OCR, a broken font mapping). */
const MIN_WORD_SHARE = 0.45;
/** Above this share of characters outside letters, digits, spaces and ordinary punctuation it is noise too. */
const MAX_SYMBOL_SHARE = 0.25;

/** A token that reads as a word or number: one case pattern of letters, or digits with separators. */
const WORD_SHAPED =
  /^(?:\p{Lu}?\p{Ll}+(?:['’-]\p{Ll}+)*|\p{Lu}+|\p{Lu}\p{Ll}*(?:-\p{Lu}\p{Ll}*)+|[\p{Lo}\p{M}]+|\p{N}+(?:[.,:/-]\p{N}+)*%?)$/u;
const ORDINARY = /[\p{L}\p{N}\p{M}\s.,;:!?'"’“”()[\]\-–—/%&]/u;

/**
 * Whether a page's text layer reads as garbage, by character classes and word shapes (no
 * dictionary, so any language in any script passes): such a page is OCR'd from its image instead.
 */
export function readsAsGarbage(lines: Line[]): boolean {
  const text = lines
    .filter((l) => !l.table)
    .map((l) => l.text)
    .join(' ');
  const chars = [...text.replace(/\s+/g, '')];
  if (chars.length < MIN_JUDGED_CHARS) return false;
  const symbols = chars.filter((c) => !ORDINARY.test(c)).length;
  if (symbols / chars.length > MAX_SYMBOL_SHARE) return true;
  const tokens = text
    .split(/\s+/)
    .map((t) => t.replace(/^[("'“‘[]+|[)"'”’\].,;:!?]+$/g, ''))
    .filter(Boolean);
  const words = tokens.filter((t) => WORD_SHAPED.test(t)).length;
  return words / tokens.length < MIN_WORD_SHARE;
}
