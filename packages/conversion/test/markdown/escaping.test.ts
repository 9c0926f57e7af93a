import MarkdownIt from 'markdown-it';
import { escapeText } from '../../src/writers/markdown/escaping';
import { seeded } from '../seeded-random';

/** Characters that make or break inline Markdown, mixed with letters and digits. */
const ALPHABET = ['[', ']', '[', ']', '(', ')', ':', '^', 'x', ' ', 'a', '!', '1', '.', '*', '_', '\\', '`', '<'];
const CASES = 20_000;

describe('escaping', () => {
  it('When text mixing brackets and Markdown characters is escaped, then CommonMark reads it back as the same text', () => {
    const commonMark = new MarkdownIt('commonmark');
    const random = seeded(7);
    const misread: string[] = [];
    for (let i = 0; i < CASES; i++) {
      let text = 'z';
      const length = 1 + Math.floor(random() * 10);
      for (let j = 0; j < length; j++) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
      text += 'z';
      const html = commonMark.renderInline(escapeText(text));
      const read = html
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
      if (read !== text) misread.push(text);
    }
    expect(misread).toEqual([]);
  });
});
