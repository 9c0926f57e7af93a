import { tokenizeRtf } from '../../src/readers/rtf/tokenizer';

/** The tokens of `src` as short strings, in order. */
function tokens(src: string): string[] {
  const out: string[] = [];
  tokenizeRtf(src, {
    openGroup: () => out.push('{'),
    closeGroup: () => out.push('}'),
    hexByte: (byte) => out.push(`hex ${byte}`),
    starred: () => out.push('*'),
    controlSymbol: (ch) => out.push(`sym ${JSON.stringify(ch)}`),
    controlWord: (word, param) => out.push(param === undefined ? `\\${word}` : `\\${word} ${param}`),
    text: (ch) => out.push(ch),
  });
  return out;
}

describe('RTF tokenizer', () => {
  it('When words carry signed numbers and one space ends them, then the space is not text', () => {
    expect(tokens('{\\rtf1\\fs-24 a\\b0  b}')).toEqual(['{', '\\rtf 1', '\\fs -24', 'a', '\\b 0', ' ', 'b', '}']);
  });

  it("When bytes are written as \\'hh, then each is one byte (NaN when not hex)", () => {
    expect(tokens("\\'e9\\'zz")).toEqual(['hex 233', 'hex NaN']);
  });

  it('When \\binN precedes binary data, then its N bytes are skipped, braces and backslashes included', () => {
    expect(tokens('{\\bin4 {}\\\\x}')).toEqual(['{', 'x', '}']);
  });

  it('When a destination is starred or a symbol is escaped, then they are reported as such; line ends are not text', () => {
    expect(tokens('{\\*\\foo}\\{\\~\r\n\\\n')).toEqual(['{', '*', '\\foo', '}', 'sym "{"', 'sym "~"', 'sym "\\n"']);
  });
});
