import type { Line } from './layout';
import { scoresAsGarbled } from './page-quality';
import { isMonospacedFont } from './glyph-widths';

/** Pages with fewer letters than this are not judged: a title page or a figure's labels say too little. */
const MIN_JUDGED_CHARS = 80;
/** Below this share of word-shaped tokens a text layer is noise (a failed OCR, a broken font mapping). */
const MIN_WORD_SHARE = 0.45;
/** Above this share of characters outside letters, digits, spaces and ordinary punctuation it is noise too. */
const MAX_SYMBOL_SHARE = 0.25;

/**
 * A token that reads as a word or number: one case pattern of letters, digits with separators, or letters
 * without case (CJK, Thai, Arabic...) with the punctuation of scripts written without spaces between their
 * letters: a Chinese or Japanese line is one token, its commas and full stops inside it.
 */
const WORD_SHAPED =
  /^(?:\p{Lu}?\p{Ll}+(?:['’-]\p{Ll}+)*|\p{Lu}+|\p{Lu}\p{Ll}*(?:-\p{Lu}\p{Ll}*)+|(?=.*[\p{Lo}\p{Lm}\p{Nl}])[\p{Lo}\p{Lm}\p{Nl}\p{M}\p{N}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\u201c\u201d\u2018\u2019\u2026\u30fb]+|\p{N}+(?:[.,:/-]\p{N}+)*%?)$/u;
/**
 * A word with a number or index after it, as names, codes and sizes are written ("Col11", "IP65", "DN50", "cell[0][2]",
 * its last bracket taken off with the token's edge punctuation): a table of them is not noise.
 */
const NUMBERED_WORD = /^(?:\p{Lu}?\p{Ll}+|\p{Lu}+)(?:\p{N}+|\[\p{N}+\]?)+$/u;
/** Characters outside letters, digits, spaces and ordinary punctuation (CJK and full-width punctuation is ordinary), counted in one pass. */
const UNORDINARY = /[^\p{L}\p{N}\p{M}\s.,;:!?'"’“”()[\]\-–—/%&\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\u30fb]/gu;
/** The same class for text that is all ASCII (no marks there; letters, digits and spaces are the ASCII ones), several times faster. */
const UNORDINARY_ASCII = /[^A-Za-z0-9\s.,;:!?'"()[\]\-/%&]/g;
const NON_ASCII = /[^\x00-\x7f]/;
/** Outside ASCII and the curly quotes that typewriter faces (TeX's cmtt) draw for ' and `. */
const NOT_CODE = /[^\x00-\x7f\u2018\u2019\u201c\u201d]/;
const EDGE_PUNCTUATION = /^[("'“‘[]+|[)"'”’\].,;:!?]+$/g;
const HIGH_SURROGATE = /[\ud800-\udbff]/g;
/** A rule typed with a character (a run of underscores under a running head, a line of `=` or `*`), spaced or not. */
const TYPED_RULE = /([_=*~·…])(?: ?\1){2,}/gu;

/**
 * Whether a page's text layer reads as garbage, by character classes and word shapes (no
 * dictionary, so any language in any script passes), or by its quality score (common words, vowels,
 * mojibake: page-quality.ts): such a page is OCR'd from its image instead.
 */
export function readsAsGarbage(lines: Line[]): boolean {
  // A typed rule is one drawn line, not noise: on a page whose text is mostly a table, its symbols outweigh the rest.
  const text = pageText(lines).replace(TYPED_RULE, ' ');
  return charactersReadAsGarbage(text) || scoresAsGarbled(text);
}

/**
 * The page's text lines joined by spaces, but for code: lines of ASCII in a typewriter face (a program listing,
 * TeX macros) are symbols and identifiers by nature, and OCR reads them no better. A loop (no closure per page),
 * in a function of its own (a loop in readsAsGarbage would make V8 optimise it with the checks it inlines).
 */
function pageText(lines: Line[]): string {
  const texts: string[] = [];
  for (const l of lines) if (!l.table && !codeLine(l)) texts.push(l.text);
  return texts.join(' ');
}

function codeLine(line: Line): boolean {
  return isMonospacedFont(line.font) && !NOT_CODE.test(line.text);
}

function charactersReadAsGarbage(text: string): boolean {
  // Line texts have their whitespace folded to single spaces, so words split on ' ' and characters are
  // counted as code points: the length less the spaces, less one per surrogate pair.
  const tokens = text.split(' ');
  const ascii = !NON_ASCII.test(text);
  const chars = text.length - (tokens.length - 1) - (ascii ? 0 : count(text, HIGH_SURROGATE));
  if (chars < MIN_JUDGED_CHARS) return false;
  const symbols = count(text, ascii ? UNORDINARY_ASCII : UNORDINARY);
  if (symbols / chars > MAX_SYMBOL_SHARE) return true;
  // Stops as soon as enough tokens read as words to pass even if every token counted.
  const enough = tokens.length * MIN_WORD_SHARE;
  let words = 0;
  let counted = 0;
  for (const token of tokens) {
    const core = bareEdges(token) ? token : token.replace(EDGE_PUNCTUATION, '');
    if (!core) continue;
    counted++;
    if ((plainWord(core) || WORD_SHAPED.test(core) || NUMBERED_WORD.test(core)) && ++words >= enough) return false;
  }
  return counted > 0 && words / counted < MIN_WORD_SHARE;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** Whether a token neither starts nor ends with a character EDGE_PUNCTUATION trims (then it is left as it is). */
function bareEdges(token: string): boolean {
  return (
    token.length > 0 && !LEADING_EDGE.has(token.charCodeAt(0)) && !TRAILING_EDGE.has(token.charCodeAt(token.length - 1))
  );
}
const codes = (chars: string): Set<number> => new Set([...chars].map((c) => c.charCodeAt(0)));
/** EDGE_PUNCTUATION's two classes (all of them single UTF-16 units). */
const LEADING_EDGE = codes('("\'“‘[');
const TRAILING_EDGE = codes(')"\'”’].,;:!?');

/**
 * An ASCII word in lower case, or capitalised: WORD_SHAPED's first form (`\p{Lu}?\p{Ll}+`), told without the
 * Unicode expression for the tokens most pages are made of.
 */
function plainWord(token: string): boolean {
  let i = 0;
  const first = token.charCodeAt(0);
  if (first >= 0x41 && first <= 0x5a) i = 1;
  if (i >= token.length) return false;
  for (; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}
