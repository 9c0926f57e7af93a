import { tokenCounts } from '../../src/readers/pdf/page-quality';
import { seeded } from '../seeded-random';

const COMMON = [
  'the',
  'of',
  'und',
  'für',
  'été',
  'The',
  'OF',
  'een',
  'zwischen',
  'a',
  'à',
  'WAS',
  'It',
  'thE',
  'ÉTÉ',
  'FÜR',
];
const OTHER = [
  'ledger',
  'Ünïcødé',
  'l’été',
  "don't",
  'co-op',
  'x2',
  '42',
  '—',
  '(note)',
  '"quoted"',
  'Ã©',
  '𝔊othic',
  '中文',
  'ﬁnd',
  // Prefixes and extensions of common words, and words that lower-case to none of them.
  'th',
  'thes',
  'theirs',
  'itself',
  'wa',
  'İt',
  'naïve',
  'x-ray',
  'don’t',
];
const SPACES = [' ', '  ', '\t', '\n', '\u00a0', '\u2003', '\ufeff', '\u3000', '\u0085', ''];

/** The tokens as they were first counted: split on whitespace, edges trimmed by expression, a Latin-token expression. */
function reference(text: string): { all: number; latin: number; common: number } {
  const common = new Set(
    'the of und für été een was it'.split(' '), // the words of COMMON that the page-quality list holds
  );
  const tokens = text
    .split(/\s+/)
    .map((raw) => raw.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''))
    .filter((t) => t.length > 0);
  const latin = tokens.filter((t) => /^[A-Za-z\u00c0-\u024f'’-]+$/.test(t));
  return {
    all: tokens.length,
    latin: latin.length,
    common: latin.filter((t) => t.length > 1 && common.has(t.toLowerCase())).length,
  };
}

describe('Page tokens counted in one pass', () => {
  it('When generated text mixes words, punctuation, scripts and kinds of whitespace, then the counts are those of splitting it', () => {
    const random = seeded(23);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    for (let n = 0; n < 500; n++) {
      let text = random() < 0.3 ? pick(SPACES) : '';
      for (let k = 0; k < Math.floor(random() * 40); k++) {
        const word = random() < 0.4 ? pick(COMMON) : pick(OTHER);
        text +=
          (random() < 0.2 ? pick(['(', '"', '*', '1']) : '') +
          word +
          (random() < 0.3 ? pick([',', '.', ')', ';']) : '');
        text += pick(SPACES);
      }
      expect([n, text, tokenCounts(text)]).toEqual([n, text, reference(text)]);
    }
  });
});
