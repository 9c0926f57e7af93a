/**
 * What the RTF tokenizer reports, in source order. Callbacks rather than token objects: a large
 * file is mostly single characters of text, and one object each would be most of the work.
 */
export interface RtfTokenSink {
  /** `{` */
  openGroup(): void;
  /** `}` */
  closeGroup(): void;
  /** `\'hh`: one byte of text in the group's codepage (NaN when the two digits are not hex). */
  hexByte(byte: number): void;
  /** `\*`: the group is a destination to skip unless its first control word is one we read. */
  starred(): void;
  /** A control symbol: the character after the backslash (`~`, `_`, `\`, `{`, `}`, a line end ...). */
  controlSymbol(ch: string): void;
  /** `\word` or `\wordN` (N a signed number); `\binN` never comes here: its N bytes are skipped. */
  controlWord(word: string, param: number | undefined): void;
  /** One character of text (line ends in the source are not text: `\par` and `\line` are). */
  text(ch: string): void;
}

/** The lexical layer of RTF (groups, control words and symbols, hex bytes, text), with no idea what any word means. */
export function tokenizeRtf(src: string, sink: RtfTokenSink): void {
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '{') {
      sink.openGroup();
      i++;
    } else if (ch === '}') {
      sink.closeGroup();
      i++;
    } else if (ch === '\\') {
      i = control(src, i, sink);
    } else if (ch === '\r' || ch === '\n') {
      i++;
    } else {
      sink.text(ch);
      i++;
    }
  }
}

/** Reads the control sequence at `i` (a backslash) and returns where the text after it starts. */
function control(src: string, i: number, sink: RtfTokenSink): number {
  const next = src[i + 1] ?? '';
  if (next === "'") {
    sink.hexByte(parseInt(src.slice(i + 2, i + 4), 16));
    return i + 4;
  }
  if (next === '*') {
    sink.starred();
    return i + 2;
  }
  if (!/[a-zA-Z]/.test(next)) {
    sink.controlSymbol(next);
    return i + 2;
  }
  const m = /^\\([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(src.slice(i, i + 48))!;
  const word = m[1]!;
  const param = m[2] !== undefined ? Number(m[2]) : undefined;
  const end = i + m[0].length;
  // Binary data: skipped whole, never read as text (a negative or missing length skips nothing).
  if (word === 'bin') return param !== undefined && param > 0 ? Math.min(src.length, end + param) : end;
  sink.controlWord(word, param);
  return end;
}
