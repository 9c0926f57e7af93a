import { asciiPieceEndOfCodes, NOT_ASCII, O200K_PATTERN, pieceEnd } from '../../src/tokens/pieces';

const pattern = new RegExp(O200K_PATTERN, 'gu');

/** The text cut by pieceEnd, piece after piece. */
function piecesOf(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length;) {
    const end = pieceEnd(text, at);
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** Characters of every class the pattern tells apart, ASCII and beyond (letters that are both upper and lower, marks, other digits and spaces). */
const ALPHABET = [
  ...'aZbY09 .,;:\'"!?-_/\\|*#\n\r\t\v\f sStTrReEvVlLmMdD',
  ...'東京データéßдαب€$%&()[]{}<>',
  '👍🏽',
  '🎉',
  '\u00a0', // no-break space: \s beyond ASCII
  '\u2003',
  '\u2028',
  '\u0085',
  '\ufeff',
  '\u0301', // combining mark: in both letter classes and outside \p{L}
  '\u02b0', // modifier letter (Lm): in both letter classes
  '\u01c5', // title case (Lt)
  '\u0660', // Arabic-Indic digit
  '\u2163', // Roman numeral (Nl)
  '\ud800', // lone surrogate
];

function randomTexts(count: number, longest: number, seed: number): string[] {
  let state = seed;
  const next = (n: number): number => (state = (state * 1103515245 + 12345) % 2147483648) % n;
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + next(longest) }, () => ALPHABET[next(ALPHABET.length)]).join(''),
  );
}

describe('pieceEnd (o200k_base split)', () => {
  it('When generated texts of every character class are cut, then the pieces are the pattern’s own matches', () => {
    const wrong = randomTexts(20_000, 24, 11)
      .map((text) => ({ text, ours: piecesOf(text), pattern: text.match(pattern) ?? [] }))
      .filter(({ ours, pattern: theirs }) => JSON.stringify(ours) !== JSON.stringify(theirs));
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('When Markdown is cut, then the pieces are the pattern’s, and punctuation takes the line breaks after it', () => {
    const markdown = [
      '# Title: naïve café\n\n| a | b |\n| --- | ---: |\n| 1,000 | 2.5 kg |',
      "- it's DON'T we'RE\n- [x] done\n\n```js\nlet x = 1; // one\n//two\n```",
      'End.\n\nNext  paragraph   \n\n\n  indented\r\nline /path/to\n\n/root',
    ].join('\n\n');
    expect(piecesOf(markdown)).toEqual(markdown.match(pattern));
    // `[^\s\p{L}\p{N}]+[\r\n/]*`: a block ending in punctuation does not end a piece.
    expect(piecesOf('End.\n\nNext')).toEqual(['End', '.\n\n', 'Next']);
  });

  it('When generated texts are cut from their code units, then every piece the ASCII scan decides is the pattern’s, and it decides every ASCII piece', () => {
    const wrong: unknown[] = [];
    for (const text of randomTexts(20_000, 24, 13)) {
      const codesOfText = new Uint16Array(text.length);
      for (let i = 0; i < text.length; i++) codesOfText[i] = text.charCodeAt(i);
      for (let at = 0; at < text.length; at = pieceEnd(text, at)) {
        const end = asciiPieceEndOfCodes(codesOfText, text.length, at);
        const theirs = pieceEnd(text, at);
        const ascii = /^[\x00-\x7f]*$/.test(text.slice(at, theirs + 3));
        if (end === NOT_ASCII ? ascii : end !== theirs) wrong.push({ text, at, end, theirs });
      }
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });
});
