/**
 * A per-page text-layer quality score (issue 23, point 4). A scanned PDF's old OCR layer, or a font
 * whose ToUnicode map is wrong, gives text that is word-shaped yet is no language: letters shifted
 * by a fixed offset, or UTF-8 read as cp1252 ("Ã©", "â€™"). The character-class check in
 * text-quality.ts passes such pages because their tokens look like words; this score also asks
 * whether the words are words: the share of tokens that are common words of the languages a
 * document usually comes in, the share of vowels among Latin letters, and mojibake sequences.
 */

/** Pages with fewer Latin letters than this are not scored on language: they say too little. */
const MIN_SCORED_LETTERS = 120;
/** Below this score a page is re-read from its image. Set on the held-out labelled pages (see docs/decisions.md). */
export const GARBLED_BELOW = 0.5;

/**
 * The most frequent words of English, French, German, Spanish, Italian, Portuguese and Dutch: in
 * running prose of any of them, roughly a third of the tokens; in shifted or mis-mapped text, almost none.
 */
const COMMON_WORDS = new Set(
  (
    'the of and to in is that for it as with was on be by are this from or an at not have has which ' +
    'but we can all their they were one its been more also will these there other than may such into ' +
    'if only when used two who would should each new our no so use do what between most some time ' +
    'le la les de des du et un une est en que qui dans pour pas sur au aux par plus ne se ce il elle ' +
    'sont avec son sa ses ou mais nous vous leur été être fait comme tout cette ces à où ' +
    'der die das und ist nicht ein eine zu den mit von sich auf für im dem des es auch als an wird ' +
    'werden bei sind aus oder nach wie zum zur noch kann über durch einer eines wurde ich er sie wir ' +
    'el los las y del se por con para una es lo al su como más pero sus le ya o este entre cuando muy ' +
    'sin sobre también hasta donde desde está son ha ser ' +
    'il di che e è per non si con una sono da gli della nel alla dei anche come più ma ' +
    'os da do em um para com não uma dos no na por mais as ao ele das à seu sua ou quando ' +
    'het een van en is dat op te zijn voor met niet aan er om ook als bij door maar naar dan wordt'
  ).split(' '),
);

/** UTF-8 bytes read as cp1252 or Latin-1: a lead byte's letter followed by a continuation byte's. */
const MOJIBAKE =
  /Ã[\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u2013-\u203a]|â€|Â[\u00a0-\u00bf]|ï¿½|\ufffd/g;
const REPLACEMENT_RUN = /\ufffd{2,}/g;
const LATIN_LETTER = /[A-Za-z\u00c0-\u024f]/g;
const VOWEL =
  /[aeiouyAEIOUY\u00c0-\u00c6\u00c8-\u00cf\u00d2-\u00d6\u00d8-\u00dd\u00e0-\u00e6\u00e8-\u00ef\u00f2-\u00f6\u00f8-\u00fd\u00ff]/g;
const TOKEN_EDGES = /^[^\p{L}]+|[^\p{L}]+$/gu;

export interface PageQuality {
  /** 0 (no language) to 1 (reads as prose); pages not scored get 1. */
  score: number;
  /** Whether the page said enough to be scored. */
  scored: boolean;
  commonWordShare: number;
  vowelShare: number;
  frequentLetterShare: number;
  mojibakeShare: number;
}

/** Scores a page's text (its lines joined by spaces). */
export function pageQuality(text: string): PageQuality {
  return qualityOf(text, letterCounts(text));
}

/**
 * Whether a page's text layer scores below the threshold and should be re-read from its image. ASCII text
 * has no mojibake, so its score is at least 0.6 × its letters' shape (see qualityOf): when that alone
 * passes, or the page is not scored, the verdict needs no pass over its tokens (most pages of prose).
 */
export function scoresAsGarbled(text: string): boolean {
  const counts = letterCounts(text);
  if (counts.ascii && (!scoredOnLanguage(text, counts) || 0.6 * letterSignals(text, counts).shape >= GARBLED_BELOW)) {
    return false;
  }
  return qualityOf(text, counts).score < GARBLED_BELOW;
}

type LetterCounts = ReturnType<typeof letterCounts>;

/** Pages in other scripts (CJK, Arabic, Cyrillic...), and pages with few letters, are left to the character-class check. */
function scoredOnLanguage(text: string, { letters, spaces }: LetterCounts): boolean {
  return letters >= MIN_SCORED_LETTERS && letters >= (text.length - spaces) * 0.5;
}

/**
 * The letters' two signals, each mapped to 0..1: vowels between 30% and 50% of letters (shifted text
 * moves them far off), and the eight most frequent letters of these languages (e a i n s t r o), which
 * make 0.59–0.73 of the letters of any prose, list or index written for the tests (a shifted alphabet
 * moves them to 0.14–0.53); `shape` is the lower of the two.
 */
function letterSignals(
  text: string,
  { letters, vowels: vowelCount, ascii, frequentAscii, asciiLetters }: LetterCounts,
): { vowelShare: number; frequentLetterShare: number; shape: number } {
  const vowelShare = vowelCount / letters;
  const outside = Math.max(0, 0.3 - vowelShare, vowelShare - 0.5);
  const vowels = Math.max(0, 1 - outside * 10);
  // ASCII text is its own NFD form and lower-casing it only maps A-Z: the first pass counted its letters already.
  const frequentLetterShare = ascii ? (asciiLetters ? frequentAscii / asciiLetters : 0) : frequentLetters(text);
  const letterShape = Math.min(1, Math.max(0, (frequentLetterShare - 0.45) / 0.1));
  return { vowelShare, frequentLetterShare, shape: Math.min(vowels, letterShape) };
}

function qualityOf(text: string, counts: LetterCounts): PageQuality {
  const tokens = tokenCounts(text);
  // Every mojibake sequence has a character outside ASCII. A run of U+FFFD is one word whose font maps its
  // glyphs to nothing (a Gothic line in a font without a Unicode map): one bad token, not one per glyph, so
  // it does not send a page of good text to OCR.
  const mojibake = counts.ascii ? 0 : count(text.replace(REPLACEMENT_RUN, '\ufffd'), MOJIBAKE);
  const mojibakeShare = tokens.all ? mojibake / tokens.all : 0;
  const unscored = {
    score: 1,
    scored: false,
    commonWordShare: 1,
    vowelShare: 0.4,
    frequentLetterShare: 0.6,
    mojibakeShare,
  };
  if (!scoredOnLanguage(text, counts)) {
    return mojibake >= 3 && mojibakeShare > 0.05 ? { ...unscored, score: 0, scored: true } : unscored;
  }
  const commonWordShare = tokens.latin ? tokens.common / tokens.latin : 0;
  // Common words at 15% of tokens or more read as prose (lists, tables and headings have fewer than
  // running text, so the bar is low); mojibake at one token in twenty is garbage.
  const words = Math.min(1, commonWordShare / 0.15);
  const { vowelShare, frequentLetterShare, shape } = letterSignals(text, counts);
  const clean = Math.max(0, 1 - mojibakeShare * 20);
  // Common words suffice; without them (a language not listed, an index page) vowels and letter
  // frequencies in place keep the page above the threshold, and text with neither is no language.
  // Mojibake always counts.
  // Common words count less when the letters are far off (a shift can make a few of them by chance).
  const score = Math.min(Math.max(Math.min(words, 0.45 + shape), 0.6 * shape + 0.4 * words), clean);
  return { score, scored: true, commonWordShare, vowelShare, frequentLetterShare, mojibakeShare };
}

/** The share of e a i n s t r o among the Latin letters, accents set aside. */
function frequentLetters(text: string): number {
  const plain = text.normalize('NFD').toLowerCase();
  let letters = 0;
  let frequent = 0;
  for (let i = 0; i < plain.length; i++) {
    const c = plain.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) {
      letters++;
      if (FREQUENT[c]) frequent++;
    }
  }
  return letters ? frequent / letters : 0;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

const SPACE = /\s/;
/**
 * What letterCounts counts of each character below U+0250, one bit each: LATIN_LETTER, VOWEL, an ASCII
 * letter, one of e a i n s t r o in either case, and white space as /\s/ has it (below U+0250: the space,
 * tab to carriage return, and the no-break space). Built from the patterns; one load per character.
 */
const [LETTER, VOWEL_LETTER, ASCII_LETTER, FREQUENT_LETTER, WHITE_SPACE] = [1, 2, 4, 8, 16];
const CHARACTER_BITS = new Uint8Array(0x250);
for (let c = 0; c < CHARACTER_BITS.length; c++) {
  const ch = String.fromCharCode(c);
  CHARACTER_BITS[c] =
    (new RegExp(LATIN_LETTER.source).test(ch) ? LETTER : 0) |
    (new RegExp(VOWEL.source).test(ch) ? VOWEL_LETTER : 0) |
    (/[A-Za-z]/.test(ch) ? ASCII_LETTER : 0) |
    (c < 0x80 && /[eainstro]/i.test(ch) ? FREQUENT_LETTER : 0) |
    (SPACE.test(ch) ? WHITE_SPACE : 0);
}
const FREQUENT = new Uint8Array(0x80);
for (const ch of 'eainstro') FREQUENT[ch.charCodeAt(0)] = 1;

/**
 * Latin letters, vowels among them and whitespace (as /\s/ counts it) in one pass over the page's
 * text: regular expressions with the g flag built an array of every letter of every page, a tenth
 * of the PDF reader's CPU. Each count adds its bit of the character's entry, without a branch.
 */
export function letterCounts(text: string): {
  letters: number;
  vowels: number;
  spaces: number;
  ascii: boolean;
  /** ASCII letters (either case), and those among e a i n s t r o: frequentLetters' counts when the text is ASCII. */
  asciiLetters: number;
  frequentAscii: number;
} {
  let letters = 0;
  let vowels = 0;
  let spaces = 0;
  let above = 0;
  let asciiLetters = 0;
  let frequentAscii = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    above |= c;
    if (c < 0x250) {
      const bits = CHARACTER_BITS[c]!;
      letters += bits & LETTER;
      vowels += (bits & VOWEL_LETTER) >> 1;
      asciiLetters += (bits & ASCII_LETTER) >> 2;
      frequentAscii += (bits & FREQUENT_LETTER) >> 3;
      spaces += (bits & WHITE_SPACE) >> 4;
    } else if (SPACE.test(text[i]!)) spaces++;
  }
  return { letters, vowels, spaces, ascii: above < 0x80, asciiLetters, frequentAscii };
}

const LONGEST_COMMON_WORD = Math.max(...[...COMMON_WORDS].map((w) => w.length));

/** latinWord's characters below U+0250: A-Z, a-z, U+00C0-U+024F, the apostrophe and the hyphen. */
const LATIN_WORD = new Uint8Array(0x250);
for (let c = 0; c < LATIN_WORD.length; c++) {
  LATIN_WORD[c] = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c >= 0xc0 || c === 0x27 || c === 0x2d ? 1 : 0;
}

/**
 * COMMON_WORDS' ASCII words as a trie over a-z: node n's child for letter k is COMMON_TRIE[n * 26 + k] (0: none;
 * node 0 is the root, which is no one's child), and COMMON_END[n] marks a word's last letter.
 */
const { trie: COMMON_TRIE, ends: COMMON_END } = asciiTrie([...COMMON_WORDS].filter((w) => /^[a-z]+$/.test(w)));

function asciiTrie(words: string[]): { trie: Int32Array; ends: Uint8Array } {
  const nodes = 1 + words.reduce((n, w) => n + w.length, 0);
  const trie = new Int32Array(nodes * 26);
  const ends = new Uint8Array(nodes);
  let next = 1;
  for (const word of words) {
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const slot = node * 26 + word.charCodeAt(i) - 0x61;
      if (trie[slot] === 0) trie[slot] = next++;
      node = trie[slot]!;
    }
    ends[node] = 1;
  }
  return { trie, ends };
}

/**
 * The page's whitespace-separated tokens, non-letters trimmed from both ends and empty ones left out:
 * how many there are, how many are Latin words (only letters of the Latin blocks, apostrophes and
 * hyphens), and how many of those are common words. One pass over the text: only the tokens that
 * need trimming, and the Latin ones short enough to be common words, are made strings.
 */
export function tokenCounts(text: string): { all: number; latin: number; common: number } {
  let all = 0;
  let latin = 0;
  let common = 0;
  const end = text.length;
  let i = 0;
  while (i < end) {
    while (i < end && isSpace(text, i)) i++;
    if (i === end) break;
    const start = i;
    let ascii = true;
    while (i < end && !isSpace(text, i)) {
      if (text.charCodeAt(i) >= 0x80) ascii = false;
      i++;
    }
    // An ASCII token's letters are A-Z and a-z: its edges are trimmed by index, without a string. The expression
    // trims the others.
    let token = text;
    let from = start;
    let to = i;
    if (ascii) {
      while (from < to && !asciiLetter(text.charCodeAt(from))) from++;
      if (from === to) continue;
      while (!asciiLetter(text.charCodeAt(to - 1))) to--;
    } else {
      token = text.slice(start, i).replace(TOKEN_EDGES, '');
      if (token === '') continue;
      from = 0;
      to = token.length;
    }
    all++;
    if (!latinWord(token, from, to)) continue;
    latin++;
    // One-letter words (a, y, e, o, à) are left out: shifted text makes them as often as prose does.
    const length = to - from;
    if (length > 1 && length <= LONGEST_COMMON_WORD && commonWord(token, from, to)) common++;
  }
  return { all, latin, common };
}

/** Whitespace as /\s/ counts it. */
function isSpace(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0xa0 && SPACE.test(text[i]!));
}

/** Whether text[from, to) is made only of Latin letters (A-Z, a-z, U+00C0-U+024F), apostrophes and hyphens. */
function latinWord(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // A table, not a chain of comparisons: V8 compiled tokenCounts again when a comparison late in the chain first ran.
    if (c < LATIN_WORD.length ? LATIN_WORD[c] === 0 : c !== 0x2019) return false;
  }
  return true;
}

/** Whether text[from, to), lower-cased, is one of COMMON_WORDS: an ASCII word is looked up letter by letter, without a string. */
function commonWord(text: string, from: number, to: number): boolean {
  let node = 0;
  for (let i = from; i < to; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x80) return COMMON_WORDS.has(text.slice(from, to).toLowerCase());
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c < 0x61 || c > 0x7a) return false;
    node = node < 0 ? node : COMMON_TRIE[node * 26 + c - 0x61]!;
    if (node === 0) node = -1;
  }
  return node > 0 && COMMON_END[node] === 1;
}

function asciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}
