import { GARBLED_BELOW, letterCounts, pageQuality, scoresAsGarbled } from '../../src/readers/pdf/page-quality';
import { seeded } from '../seeded-random';

const PROSE = 'the quarterly revenue report shows customer ledger and shipment schedule for each region'.split(' ');
const COMMON = 'the of and to in is that for it as with was on be by are this from'.split(' ');
const CONSONANTS = 'bcdfghjklmnpqrstvwxz';

/** A word with its letters moved `by` places along the alphabet (what a wrong font mapping gives). */
function shifted(word: string, by: number): string {
  return word.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 0x61 + by) % 26) + 0x61));
}

describe('The text-quality verdict of a page', () => {
  it('When generated pages range from prose to shifted letters, then scoresAsGarbled says what the full score says', () => {
    const random = seeded(31);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const verdicts = { garbled: 0, clean: 0 };
    for (let n = 0; n < 3000; n++) {
      // How much of the page is prose, common words, consonant runs and shifted words: every mix, so pages fall on
      // both sides of the threshold and of the letter-shape bound that lets a page skip its token count.
      const [prose, common, consonants] = [random() ** 2, random() ** 2, random()];
      const shift = 1 + Math.floor(random() * 25);
      const nonAscii = random() < 0.15;
      const words: string[] = [];
      for (let k = 0; k < 10 + Math.floor(random() * 120); k++) {
        const r = random();
        let word =
          r < prose
            ? pick(PROSE)
            : r < prose + common * (1 - prose)
              ? pick(COMMON)
              : random() < consonants
                ? Array.from({ length: 2 + Math.floor(random() * 6) }, () => pick([...CONSONANTS])).join('')
                : shifted(pick(PROSE), shift);
        if (random() < 0.1) word = word[0]!.toUpperCase() + word.slice(1);
        if (random() < 0.05) word = String(Math.floor(random() * 1000));
        if (nonAscii && random() < 0.1) word += pick(['é', 'Ã©', 'ü', '\ufffd', '中']);
        words.push(word + (random() < 0.1 ? pick([',', '.', ';']) : ''));
      }
      const text = words.join(' ');
      const garbled = pageQuality(text).score < GARBLED_BELOW;
      verdicts[garbled ? 'garbled' : 'clean']++;
      expect([n, text, scoresAsGarbled(text)]).toEqual([n, text, garbled]);
    }
    expect(verdicts.garbled).toBeGreaterThan(400);
    expect(verdicts.clean).toBeGreaterThan(400);
  });
});

describe('Letter counts of a page', () => {
  it('When generated text mixes ASCII, Latin, other scripts and white space, then the counts are those of the expressions', () => {
    const random = seeded(37);
    // Every character below U+0300 (the table's range and past it), white space above it, and a few scripts.
    const alphabet = [
      ...Array.from({ length: 0x300 }, (_, c) => String.fromCharCode(c)),
      ...'\u1680\u2003\u2028\u202f\u3000\ufeff\u0085\u200bжш中あ\ud835\udd0a',
    ];
    for (let n = 0; n < 2000; n++) {
      const ascii = random() < 0.3;
      let text = '';
      for (let k = Math.floor(random() * 200); k > 0; k--) {
        text += ascii
          ? String.fromCharCode(Math.floor(random() * 0x80))
          : alphabet[Math.floor(random() * alphabet.length)];
      }
      const letters = text.match(/[A-Za-z\u00c0-\u024f]/g) ?? [];
      const asciiLetters = text.match(/[A-Za-z]/g) ?? [];
      expect([n, JSON.stringify(text), letterCounts(text)]).toEqual([
        n,
        JSON.stringify(text),
        {
          letters: letters.length,
          vowels: (
            text.match(
              /[aeiouyAEIOUY\u00c0-\u00c6\u00c8-\u00cf\u00d2-\u00d6\u00d8-\u00dd\u00e0-\u00e6\u00e8-\u00ef\u00f2-\u00f6\u00f8-\u00fd\u00ff]/g,
            ) ?? []
          ).length,
          spaces: (text.match(/\s/g) ?? []).length,
          ascii: !/[^\x00-\x7f]/.test(text),
          asciiLetters: asciiLetters.length,
          frequentAscii: asciiLetters.filter((c) => 'eainstro'.includes(c.toLowerCase())).length,
        },
      ]);
    }
  });
});
