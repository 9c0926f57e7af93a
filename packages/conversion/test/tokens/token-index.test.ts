import { countTokens, TokenIndex } from '../../src/tokens/count';
import { O200K_PATTERN } from '../../src/tokens/pieces';

const pattern = new RegExp(O200K_PATTERN, 'gu');

/** OpenAI's tiktoken (WebAssembly) encoding the whole text at once, with its own split pattern. */
function encoderCount(text: string): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { get_encoding } = require('tiktoken') as typeof import('tiktoken');
  encoder ??= get_encoding('o200k_base');
  return encoder.encode_ordinary(text).length;
}
let encoder: import('tiktoken').Tiktoken | undefined;

const ALPHABET = [...'aZ09 .,;:\'"!?-_/|*#\n\n\t sStTrReEdD東京データéßд👍🏽€$%()[]<>\u00a0\u0301\u02b0'];

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => (state = (state * 1103515245 + 12345) % 2147483648) % n;
}

describe('TokenIndex (counts of stretches of one text)', () => {
  it('When any stretch of a generated text is counted, with or without a prefix, then the count is countTokens of that text', () => {
    const next = random(5);
    const wrong: unknown[] = [];
    for (let i = 0; i < 1000; i++) {
      const text = Array.from({ length: 1 + next(200) }, () => ALPHABET[next(ALPHABET.length)]).join('');
      const index = new TokenIndex(text);
      for (let j = 0; j < 20; j++) {
        let from = next(text.length + 1);
        let to = next(text.length + 1);
        if (from > to) [from, to] = [to, from];
        const prefix =
          next(3) === 0 ? Array.from({ length: next(8) }, () => ALPHABET[next(ALPHABET.length)]).join('') : '';
        const expected = countTokens(prefix + text.slice(from, to));
        if (index.count(from, to, prefix) !== expected) wrong.push({ text, from, to, prefix, expected });
      }
      // Every other index hands its arrays to the next (longer and shorter texts alternate): they hold the last one's data.
      if (i % 2) index.release();
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('When stretches between marks are counted (marks on boundaries, inside pieces, repeated, at the end), then each count is countTokens of that stretch', () => {
    const next = random(11);
    const wrong: unknown[] = [];
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: 1 + next(200) }, () => ALPHABET[next(ALPHABET.length)]).join('');
      const marks = Array.from({ length: 1 + next(12) }, () => next(text.length + 1)).sort((a, b) => a - b);
      if (next(2)) marks.push(text.length);
      const index = new TokenIndex(text, Int32Array.from(marks), marks.length);
      for (let first = 0; first < marks.length; first++) {
        for (let last = first; last < marks.length; last++) {
          const expected = countTokens(text.slice(marks[first], marks[last]));
          if (index.countBetween(first, last) !== expected) wrong.push({ text, marks, first, last, expected });
        }
      }
      if (i % 2) index.release();
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('When stretches of a marked text are counted in any order (back, forward, across marks, after another index was built), then each count is countTokens of the stretch', () => {
    const next = random(23);
    const wrong: unknown[] = [];
    for (let i = 0; i < 60; i++) {
      // Long enough that the region the counts need is scanned again from a mark, extended, and started again.
      const text = Array.from({ length: 200 + next(3000) }, () => ALPHABET[next(ALPHABET.length)]).join('');
      const marks = Array.from({ length: next(40) }, () => next(text.length + 1)).sort((a, b) => a - b);
      // Told that only marks' stretches will be counted: the boundaries are scanned for what count needs.
      const index = new TokenIndex(text, Int32Array.from(marks), marks.length, next(2) === 0);
      for (let k = 0; k < 40; k++) {
        const from = next(text.length);
        const to = from + next(Math.min(400, text.length - from) + 1);
        const prefix = next(4) ? '' : '| a |\n';
        if (next(10) === 0) new TokenIndex(ALPHABET.join('')).release();
        const expected = countTokens(prefix + text.slice(from, to));
        if (index.count(from, to, prefix) !== expected) wrong.push({ text, marks, from, to, prefix, expected });
      }
      if (i % 2) index.release();
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('When long pieces of one length share their last characters (the key the scan makes), then each is counted as itself', () => {
    // 21 characters each, the last 8 the same: told apart by the characters before those.
    const pieces = [' internationalization', ` ${'z'.repeat(12)}lization`, ` ${'q'.repeat(12)}lization`];
    const text = [...pieces, ...pieces.reverse()].join('');
    expect(new Set(pieces.map(countTokens)).size).toBeGreaterThan(1);
    expect(new TokenIndex(text).count(0, text.length)).toBe(countTokens(text));
  });

  it('When Markdown’s lines are marked, then the count between two marks is the stretch’s, and a mark inside a piece or a stretch ending in white space is counted as it would be alone', () => {
    const text = "Total: 3.5 kg.\n\n| a | b |\n| --- | --- |\n| it's | 12345 |\n\n- one\n- two  \n";
    // Line starts and ends (most lines end inside a piece: `.` or ` |` before a line break), one mark inside `Total`, the end.
    const edges = [...text.matchAll(/\n/g)].flatMap((m) => [m.index!, m.index! + 1]);
    const marks = [...new Set([0, 3, ...edges, text.length])].sort((a, b) => a - b);
    const index = new TokenIndex(text, Int32Array.from(marks), marks.length);
    for (let first = 0; first < marks.length; first++) {
      for (let last = first + 1; last < marks.length; last++) {
        expect([marks[first], marks[last], index.countBetween(first, last)]).toEqual([
          marks[first],
          marks[last],
          countTokens(text.slice(marks[first], marks[last])),
        ]);
      }
    }
  });

  it('When Markdown is counted between its blocks, rows and lines, then each stretch counts as it would alone', () => {
    const blocks = [
      '# Report: results',
      'The river rose by 2.5 m. It fell again; nobody knew why...',
      '| Name | Weight |\n| --- | ---: |\n| item 1 | 3.5 kg |\n| item 2 | 7.0 kg |',
      "- it's here\n- [x] done\n  - nested (see /docs)",
      '```ts\nconst a = [1, 2, 3];\n// comment\n/path\n```',
      '/root starts with a slash',
      '> quoted **text**!',
    ];
    const text = `${blocks.join('\n\n')}\n`;
    const index = new TokenIndex(text);
    // Every stretch from the start of a line to the end of a (later) line.
    const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)].filter((s) => s < text.length);
    const ends = [...text.matchAll(/\n/g)].map((m) => m.index!).filter((e) => e > 0 && text[e - 1] !== '\n');
    for (const from of starts) {
      for (const to of ends.filter((e) => e > from)) {
        expect([from, to, index.count(from, to)]).toEqual([from, to, countTokens(text.slice(from, to))]);
      }
    }
    expect(index.count(0, text.length)).toBe(countTokens(text));
    expect(index.count(5, 5, '| Name |\n')).toBe(countTokens('| Name |\n'));
  });

  it('When an index is built on arrays another released, then its counts are its own text’s', () => {
    const long = new TokenIndex(`${'alpha beta 123 | gamma\n'.repeat(400)}`);
    long.release();
    const text = 'Short text, other words: 東京 and 42.\n\nA second paragraph.';
    const index = new TokenIndex(text);
    for (let from = 0; from < text.length; from++) {
      for (let to = from + 1; to <= text.length; to++) {
        expect([from, to, index.count(from, to)]).toEqual([from, to, countTokens(text.slice(from, to))]);
      }
    }
  });

  it('When an index is counted after another was built (their code units share a buffer), then its counts are its own text’s', () => {
    const text = 'The river rose by 2.5 m. It fell again.\n\n| a | b |\n| 1 | 2 |';
    const first = new TokenIndex(text);
    const second = new TokenIndex('Other words, other punctuation!!! | x |');
    for (let from = 0; from < text.length; from++) {
      for (let to = from + 1; to <= text.length; to++) {
        expect([from, to, first.count(from, to)]).toEqual([from, to, countTokens(text.slice(from, to))]);
      }
    }
    expect(second.count(0, 5)).toBe(countTokens('Other'));
  });

  it('When generated texts are indexed (the scan of code units, its piece table filled and emptied), then each whole count is the real encoder’s', () => {
    const next = random(17);
    const wrong: unknown[] = [];
    // Many distinct words and runs, so the piece table fills and is emptied on the way.
    const words = Array.from({ length: 40_000 }, (_, i) => `${i % 2 ? ' ' : '('}w${i.toString(36)}`).join('');
    for (const text of [
      words,
      ...Array.from({ length: 300 }, () =>
        Array.from({ length: 1 + next(400) }, () => ALPHABET[next(ALPHABET.length)]).join(''),
      ),
    ]) {
      const index = new TokenIndex(text);
      // Its pieces are the pattern's (the fields are private: the whole text's region scanned and read here for this check only).
      const region = index as unknown as {
        cover(from: number, to: number): void;
        boundaries: Int32Array;
        pieces: number;
      };
      region.cover(0, text.length);
      const { boundaries, pieces } = region;
      const ends = [...text.matchAll(pattern)].map((m) => m.index + m[0].length);
      if (JSON.stringify([...boundaries.subarray(1, pieces + 1)]) !== JSON.stringify(ends))
        wrong.push({ text: text.slice(0, 80) });
      const expected = encoderCount(text);
      if (index.count(0, text.length) !== expected && !/\s$/.test(text))
        wrong.push({ text: text.slice(0, 80), expected });
      // A stretch ending in white space is counted whole by countTokens: the index's own total, to the last piece.
      const last = text.length - 1;
      if (last > 0 && index.count(0, last) !== encoderCount(text.slice(0, last)))
        wrong.push({ text: text.slice(0, 80), cut: last });
      index.release();
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('When long stretches are counted after a prefix or from inside a piece (the head split from a window first), then every count is countTokens of the joined text', () => {
    const next = random(29);
    const wrong: unknown[] = [];
    // Rows, generated text, and long runs of one kind (a word, spaces, dashes, digits, a script) that
    // a stretch starting inside splits differently from the whole for longer than the window.
    const row = (): string =>
      `| ${Array.from({ length: 1 + next(12) }, () => ALPHABET[next(ALPHABET.length)]).join('')} | 12.5 | it's |`;
    const runs = ['abcdefgh', 'Word', ' ', '-', '12', 'データ', '.\n', ' \n'];
    const part = (): string => {
      const kind = next(4);
      if (kind === 0) return Array.from({ length: 20 + next(120) }, () => ALPHABET[next(ALPHABET.length)]).join('');
      if (kind === 1) return `${runs[next(runs.length)]!.repeat(20 + next(60))}${ALPHABET[next(ALPHABET.length)]}`;
      return row();
    };
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 5 + next(40) }, part).join('\n');
      const index = new TokenIndex(text);
      for (let j = 0; j < 20; j++) {
        const from = next(text.length);
        const to = Math.min(text.length, from + 1 + next(400));
        const prefix = next(2) ? '| Name | Weight | Note |\n| --- | ---: | --- |\n' : '';
        const expected = countTokens(prefix + text.slice(from, to));
        if (index.count(from, to, prefix) !== expected) wrong.push({ text, from, to, prefix, expected });
      }
      index.release();
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('When stretches are counted after prefixes whose last pieces the stretch may change (a table header, repeated), then every count is countTokens of the joined text', () => {
    // Prefixes ending where what follows decides their last pieces: a contraction, white space runs, punctuation before line breaks.
    const prefixes = [
      '| Name | Weight |\n| --- | ---: |\n',
      "Header of the table: it'",
      "We're done, they'",
      'Header words  \n \t',
      'Header words \n ',
      'Header words   ',
      'Header words.\n',
      'Header words 12',
      'Header words\u00a0',
      'Header 東京',
      "Header words: it'l",
      "Header words: they'R",
      'Header words\n      ',
    ];
    const continuations = [
      's are here.',
      're here',
      'll do',
      'S',
      '\n\nNext',
      ' \n x',
      '  y',
      '\n| 1 | 2 |',
      '3 kg',
      '/path',
      'データ',
      'é',
      '\u0301x',
    ];
    const wrong: unknown[] = [];
    for (const continuation of continuations) {
      const text = `${continuation} and more text: 42 items.\n\n| a | b |\n`;
      const index = new TokenIndex(text);
      for (const prefix of prefixes) {
        for (let to = 1; to <= text.length; to++) {
          const expected = countTokens(prefix + text.slice(0, to));
          if (index.count(0, to, prefix) !== expected) wrong.push({ prefix, text, to, expected });
        }
      }
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });
});

describe('TokenIndex.controls (whether the text holds a control character, read from its scan)', () => {
  const CONTROLS = [...'\u0000\u0001\u0008\u000b\u000c\u000e\u001b\u001f\u007f'];
  /** Where a control character may stand in a piece: a word's prefix, a punctuation or white-space run, a short or long piece, beside text beyond ASCII. */
  const PLACES = [
    (c: string) => `Plain words ${c}word after.`,
    (c: string) => `Stop.${c}!? and more`,
    (c: string) => `a ${c}\n`,
    (c: string) => `x${c}`,
    (c: string) => c,
    (c: string) => `${'-'.repeat(80)}${c}${'-'.repeat(10)}`,
    (c: string) => `café${c}über`,
    (c: string) => `| cell ${c}|\n| next |`,
    (c: string) => `1${c}2`,
    (c: string) => ` \t${c}  \n\nword`,
  ];

  it('When a text holds a control character anywhere, then its index says so, each time it is indexed (no count kept hides it)', () => {
    const missed: unknown[] = [];
    for (const c of CONTROLS) {
      for (const place of PLACES) {
        const text = place(c);
        // The second index finds every piece counted already.
        for (let round = 0; round < 2; round++) {
          const index = new TokenIndex(text);
          if (!index.controls || index.count(0, text.length) !== countTokens(text)) missed.push({ text, round });
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('When generated texts are indexed, then an index says it holds a control character exactly when the text does', () => {
    const next = random(11);
    const alphabet = [...ALPHABET, ...CONTROLS, '\r'];
    const wrong: unknown[] = [];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 1 + next(60) }, () =>
        next(8) === 0 ? alphabet[next(alphabet.length)] : ALPHABET[next(ALPHABET.length)],
      ).join('');
      const expected = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
      if (new TokenIndex(text).controls !== expected) wrong.push({ text, expected });
    }
    expect(wrong).toEqual([]);
  });
});
