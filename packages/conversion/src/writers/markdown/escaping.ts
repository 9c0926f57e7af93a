/** Markdown escaping: plain text written so it renders as itself, with as few backslashes as CommonMark allows. */

const ALWAYS = /[\\`*]/g;
/**
 * A bracket pair with no bracket inside, or with bracket pairs inside that hold none (a wiki link
 * `[[Page]]`): the shapes of `[…]` that can be left as written. A label can't hold a bracket, so
 * the outer pair of `[[Page]]` is never a reference; only a `(` after it would make a link.
 */
const BRACKET_PAIR = /\[((?:[^[\]]|\[[^[\]]*\])*)\]/g;
/** A bracket pair inside another: left alone only when it can't be read as markup either. */
const INNER_PAIR = /\[([^[\]]*)\]/g;
/** What a closing bracket may be followed by without starting a link (`(`), a reference (`[`) or a definition (`:`). */
const INERT_AFTER = /[^([:]/;
/** `[ ]`, `[x]`: a task list box at the start of an item; `[^…]`: a footnote reference. */
const MARKUP_INSIDE = /^(?:[ xX]|\^.*|)$/s;
/** Every character one of escapeText's rules rewrites. */
export const ESCAPABLE = /[\\`*[\]_<]/;

/**
 * Escapes plain text so it renders as itself, without escaping harmless characters. `after` is the
 * first character written after the text, where the caller knows it (a bracket pair at the text's
 * end is judged by it); unknown, a pair there is escaped.
 */
export function escapeText(text: string, after?: string): string {
  // Most text (every number in a sheet) has nothing to escape: skip the three passes for it.
  if (!ESCAPABLE.test(text)) return text;
  return escapeBrackets(
    text.replace(ALWAYS, (c) => `\\${c}`),
    after,
  )
    .replace(/(^|[^\p{L}\p{N}])_|_(?=$|[^\p{L}\p{N}])/gu, (m) => m.replace('_', '\\_'))
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/**
 * Escapes square brackets except a pair that can't be read as Markdown: nothing bracketed inside,
 * not a task box or footnote mark, and followed (within this text) by a character that opens no link,
 * reference or definition. A citation like `word.[11] Next` stays as written.
 */
function escapeBrackets(text: string, after?: string): string {
  if (!/[[\]]/.test(text)) return text;
  let out = '';
  let last = 0;
  for (const m of text.matchAll(BRACKET_PAIR)) {
    const end = m.index + m[0].length;
    const next = end < text.length ? text[end] : after;
    out += text.slice(last, m.index).replace(/[[\]]/g, '\\$&');
    const inert = next !== undefined && INERT_AFTER.test(next) && !MARKUP_INSIDE.test(m[1]!) && !hasMarkupPair(m[1]!);
    out += inert ? m[0] : `\\[${escapeBrackets(m[1]!)}\\]`;
    last = end;
  }
  return out + text.slice(last).replace(/[[\]]/g, '\\$&');
}

/** Whether a bracket pair inside a pair could be read as markup: a task box, a footnote mark (`[[^1]]`), or a link (`[a [b](c)]`). */
function hasMarkupPair(inside: string): boolean {
  for (const m of inside.matchAll(INNER_PAIR)) {
    const next = inside[m.index + m[0].length];
    if (MARKUP_INSIDE.test(m[1]!) || (next !== undefined && !INERT_AFTER.test(next))) return true;
  }
  return false;
}

/** Escapes what only matters at the start of a line (headings, quotes, list markers). */
export function escapeLineStart(md: string): string {
  return (
    md
      // `>` opens a quote with or without a space after it; the others only before one.
      .replace(/^(\s*)(>|[#+-](?=\s|$))/, '$1\\$2')
      .replace(/^(\s*)(\d{1,9})([.)])(?=\s|$)/, '$1$2\\$3')
      .replace(/^(\s*)(={3,}|-{3,})\s*$/, '$1\\$2')
  );
}
