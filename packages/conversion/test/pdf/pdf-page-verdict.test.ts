import { GARBLED_BELOW, pageQuality, scoresAsGarbled } from '../../src/readers/pdf/page-quality';
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
