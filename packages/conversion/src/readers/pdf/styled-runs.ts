import type { Inline } from '../../document/model';

/** A stretch of a line's text in one style, as the PDF draws it. */
export interface StyledRun {
  text: string;
  bold: boolean;
  italic: boolean;
}

/** Whitespace other than single spaces: most runs have none and skip the rewrite. */
const SPACING = /\s\s|[^\S ]/;

/** Runs with whitespace folded to single spaces, the ends trimmed, and neighbours in one style merged. */
export function tidyRuns(runs: StyledRun[]): StyledRun[] {
  const out: StyledRun[] = [];
  // What was last added to the last run: whether that run ends with a space, asked without flattening its joined text.
  let added = '';
  for (const run of runs) {
    let text = SPACING.test(run.text) ? run.text.replace(/\s+/g, ' ') : run.text;
    const last = out[out.length - 1];
    if (!last) text = text.trimStart();
    else if (added.endsWith(' ') && text.startsWith(' ')) text = text.slice(1);
    if (!text) continue;
    // A space alone takes no style of its own: it joins the run before it.
    if (last && (text === ' ' || (last.bold === run.bold && last.italic === run.italic))) last.text += text;
    else out.push({ text, bold: run.bold, italic: run.italic });
    added = text;
  }
  const last = out[out.length - 1];
  if (last) {
    last.text = last.text.trimEnd();
    if (!last.text) out.pop();
  }
  return out;
}

export function runsText(runs: StyledRun[]): string {
  // A loop, not map and join: map's result for no runs is an array of another kind, which V8 compiles again for.
  let text = '';
  for (const r of runs) text += r.text;
  return text;
}

/** The runs without their first `count` characters (a list marker) and the spaces after them. */
export function dropLeading(runs: StyledRun[], count: number): StyledRun[] {
  const out: StyledRun[] = [];
  let left = count;
  for (const run of runs) {
    if (left >= run.text.length) {
      left -= run.text.length;
      continue;
    }
    out.push({ ...run, text: run.text.slice(left) });
    left = 0;
  }
  if (out[0]) out[0].text = out[0].text.trimStart();
  return out.filter((r) => r.text);
}

/** The runs' first `count` characters, the spaces before the cut dropped. */
export function keepLeading(runs: StyledRun[], count: number): StyledRun[] {
  const out: StyledRun[] = [];
  let left = count;
  for (const run of runs) {
    if (left <= 0) break;
    out.push({ ...run, text: run.text.slice(0, left) });
    left -= run.text.length;
  }
  const last = out[out.length - 1];
  if (last) last.text = last.text.trimEnd();
  return out.filter((r) => r.text);
}

/**
 * Two wrapped lines of a heading or a cell as one text: a hyphen at the first's end before a lower-case word is a
 * hyphenation and goes ("sub-" over "stances"); after a capital or digit, or before any other word it stays, with no
 * space ("Stress-" over "Engineered", "R1-" over "valve", "2026-" over "05-18").
 */
export function joinWrapped(first: string, second: string): string {
  if (wrapsWithoutSpace(first, second)) return first + second;
  if (!/[\p{L}\p{N}]-$/u.test(first) || !/^[\p{L}\p{N}]/u.test(second)) return `${first} ${second}`;
  return /\p{Ll}-$/u.test(first) && /^\p{Ll}/u.test(second) ? first.slice(0, -1) + second : first + second;
}

/**
 * Letters of scripts written without spaces between words (Chinese, Japanese kana, Thai, Lao, Khmer, Myanmar) and
 * CJK punctuation; Korean is written with spaces and is not among them.
 */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\u30fc\u2026]/u;

/** Whether a line break between these two texts is no space: both sides are in a script written without spaces. */
export function wrapsWithoutSpace(before: string, after: string): boolean {
  const last = before.codePointAt(before.length - 1) ?? 0;
  const first = after.codePointAt(0) ?? 0;
  // Both ends outside the scripts' blocks (U+0E00 Thai up, Latin and Cyrillic below): one comparison each.
  if (last < 0xe00 || first < 0xe00) return false;
  return UNSPACED_SCRIPT.test(String.fromCodePoint(last)) && UNSPACED_SCRIPT.test(String.fromCodePoint(first));
}

/** Wrapped lines as one run list: a hyphen at a line end before a lower-case word is a hyphenation and goes. */
export function joinRunLines(lines: StyledRun[][]): StyledRun[] {
  const out: StyledRun[] = [];
  for (const line of lines) {
    if (!line.length) continue;
    if (out.length) {
      const last = out[out.length - 1]!;
      if (/\p{Ll}-$/u.test(last.text) && /^\p{Ll}/u.test(line[0]!.text)) last.text = last.text.slice(0, -1);
      else if (!wrapsWithoutSpace(last.text, line[0]!.text)) last.text += ' ';
    }
    // Copies (the last one's text changes here), made by one literal: runs come from several places.
    for (const r of line) out.push({ text: r.text, bold: r.bold, italic: r.italic });
  }
  return tidyRuns(out);
}

/** Which styles are plain for this document: a body set in bold or italic throughout is not emphasis. */
export interface PlainStyles {
  bold: boolean;
  italic: boolean;
}

/** Runs as inline nodes: bold runs become strong, italic runs emphasis (the writer owns the markers). */
export function runsToInlines(runs: StyledRun[], plain: PlainStyles = { bold: false, italic: false }): Inline[] {
  return grouped(
    runs,
    (r) => r.bold && !plain.bold,
    (group, bold) => {
      const inner = grouped(
        group,
        (r) => r.italic && !plain.italic,
        (parts, italic): Inline[] => {
          const node: Inline = { type: 'text', text: runsText(parts) };
          return italic ? [{ type: 'emphasis', children: [node] }] : [node];
        },
      );
      return bold ? [{ type: 'strong', children: inner }] : inner;
    },
  );
}

/** Consecutive runs with the same value of `key`, each group turned into nodes by `make`. */
function grouped(
  runs: StyledRun[],
  key: (run: StyledRun) => boolean,
  make: (group: StyledRun[], value: boolean) => Inline[],
): Inline[] {
  const out: Inline[] = [];
  for (let i = 0; i < runs.length;) {
    const value = key(runs[i]!);
    let end = i + 1;
    while (end < runs.length && key(runs[end]!) === value) end++;
    out.push(...make(runs.slice(i, end), value));
    i = end;
  }
  return out;
}
