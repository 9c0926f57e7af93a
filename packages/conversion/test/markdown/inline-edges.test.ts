import { renderInline, withoutEdges } from '../../src/writers/markdown/inline';
import type { Inline } from '../../src/document/model';
import { seeded } from '../seeded-random';

/** White space of every kind `\s` knows, characters next to it that it does not (U+0085, U+200B, U+001F), and the break mark. */
const EDGE_CHARACTERS = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u2028',
  '\u202f',
  '\u3000',
  '\ufeff',
  '\ue000',
  '\u0085',
  '\u200b',
  '\u001f',
  'a',
  '*',
  '\\',
];

describe('Inline content trimmed at its edges', () => {
  it('When generated text has white space, breaks and look-alikes at its ends, then it is trimmed as the expression trims it', () => {
    const random = seeded(41);
    const pick = (): string => EDGE_CHARACTERS[Math.floor(random() * EDGE_CHARACTERS.length)]!;
    for (let n = 0; n < 5000; n++) {
      let text = '';
      for (let k = Math.floor(random() * 8); k > 0; k--) text += pick();
      if (random() < 0.8) text += 'word' + pick() + 'x';
      for (let k = Math.floor(random() * 8); k > 0; k--) text += pick();
      expect([n, JSON.stringify(text), withoutEdges(text)]).toEqual([
        n,
        JSON.stringify(text),
        text.replace(/^[\s\uE000]+|[\s\uE000]+$/g, ''),
      ]);
    }
  });

  it('When a line holds breaks and newlines, then the one-line form has spaces for them and the block form backslash breaks', () => {
    const content: Inline[] = [
      { type: 'text', text: ' \u00a0first ' },
      { type: 'break' },
      { type: 'text', text: ' second\n  third ' },
      { type: 'strong', children: [{ type: 'text', text: ' bold\u2003' }] },
    ];
    expect(renderInline(content, true)).toBe('first second third  **bold**');
    expect(renderInline(content)).toBe('first\\\nsecond\n  third  **bold**');
  });
});
