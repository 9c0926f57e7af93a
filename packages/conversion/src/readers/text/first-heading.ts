/**
 * The title of a plain-text file: a front-matter `title:` or the first `# heading`. These give
 * what `/^title:\s*["']?(.+?)["']?\s*$/m` and `/^#\s+(.+?)\s*#*\s*$/m` gave, found by one pass
 * over the text instead: on a line of spaces those patterns backtrack, the heading one cubically
 * (3 s of CPU for `# a`, 2,000 spaces, `b`), and small text files convert on the converter's main
 * thread, where nothing may take long.
 */

/** What `\s` matches in a JavaScript regular expression (white space and line terminators). */
const WHITE_SPACE = /\s/;
const isSpace = (c: string): boolean => WHITE_SPACE.test(c);
/** Where `.` stops and multiline `^`/`$` match: the line terminators. */
const isLineEnd = (c: string): boolean => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

/** The line starts of multiline `^`, in order. */
function* lineStarts(text: string): Generator<number> {
  yield 0;
  for (let i = 0; i < text.length; i++) if (isLineEnd(text[i]!)) yield i + 1;
}

/** Index of the line terminator at or after `from`, or the text's length. */
function lineEndFrom(text: string, from: number): number {
  let i = from;
  while (i < text.length && !isLineEnd(text[i]!)) i++;
  return i;
}

/** Index after the run of `\s` starting at `from`. */
function spaceRunEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text[i]!)) i++;
  return i;
}

/**
 * At a line start whose marker (`#` or `title:`) ends at `after`: `marker \s{min,} (.+?) tail $`.
 * `tailStart(text, from, to)` gives where the longest suffix of text[from, to) that `tail` matches
 * begins (a suffix of a match is a match, so the lazy group ends there, after one character at least).
 */
function lazyGroupAfter(
  text: string,
  after: number,
  minSpaces: number,
  tailStart: (text: string, from: number, to: number) => number,
): string | undefined {
  const end = spaceRunEnd(text, after);
  if (end - after < minSpaces) return undefined;
  if (end < text.length) {
    // The greedy white space stops before a character that is neither space nor a line end: the group starts there.
    const lineEnd = lineEndFrom(text, end);
    return text.slice(end, Math.max(end + 1, tailStart(text, end + 1, lineEnd)));
  }
  // White space to the end of the text: the group is its last character that is not a line end
  // (the rest is white space, which the tail takes), leaving `minSpaces` to the white space before it.
  for (let j = end - 1; j >= after + minSpaces; j--) if (!isLineEnd(text[j]!)) return text[j];
  return undefined;
}

/** Longest suffix of text[from, to) matching `\s*#*\s*` (no line end inside a line). */
function headingTailStart(text: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(text[i - 1]!)) i--;
  while (i > from && text[i - 1] === '#') i--;
  while (i > from && isSpace(text[i - 1]!)) i--;
  return i;
}

/** Longest suffix of text[from, to) matching `["']?\s*`. */
function titleTailStart(text: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(text[i - 1]!)) i--;
  if (i > from && (text[i - 1] === '"' || text[i - 1] === "'")) i--;
  return i;
}

/** `/^#\s+(.+?)\s*#*\s*$/m.exec(text)?.[1]`, in linear time. */
export function firstAtxHeading(text: string): string | undefined {
  for (const start of lineStarts(text)) {
    if (text[start] !== '#') continue;
    const group = lazyGroupAfter(text, start + 1, 1, headingTailStart);
    if (group !== undefined) return group;
  }
  return undefined;
}

const TITLE_KEY = 'title:';

/** `/^title:\s*["']?(.+?)["']?\s*$/m.exec(text)?.[1]`, in linear time. */
export function frontMatterTitle(text: string): string | undefined {
  for (const start of lineStarts(text)) {
    if (!text.startsWith(TITLE_KEY, start)) continue;
    const group = titleGroup(text, start + TITLE_KEY.length);
    if (group !== undefined) return group;
  }
  return undefined;
}

/**
 * `\s*["']?(.+?)["']?\s*$` from `after`: the greedy white space, then an optional quote, then the
 * lazy group. Backtracking gives the quote back to the group when nothing else follows it.
 */
function titleGroup(text: string, after: number): string | undefined {
  const end = spaceRunEnd(text, after);
  if (end < text.length) {
    const quoted = text[end] === '"' || text[end] === "'";
    const lineEnd = lineEndFrom(text, end);
    // With the quote taken, the group needs a character before the line ends.
    const from = quoted && end + 1 < lineEnd ? end + 1 : end;
    return text.slice(from, Math.max(from + 1, titleTailStart(text, from + 1, lineEnd)));
  }
  for (let j = end - 1; j >= after; j--) if (!isLineEnd(text[j]!)) return text[j];
  return undefined;
}
