import type { Line } from './layout';

/** Affiliation and footnote marks set after an author's name. */
const MARK = '[∗*†‡§¶#+⋆✝]';
/** A capitalised name word ("Smith", "O'Neil", "van", "J.", "Jean-Luc"). */
const NAME_WORD = "(?:\\p{Lu}\\.|\\p{Lu}[\\p{Ll}'’-]+(?:-\\p{Lu}[\\p{Ll}]+)?|van|von|de|der|da|del|di|le|la)";
/**
 * A name followed by marks or affiliation numbers: "Alice Smith∗", "Bob Jones1,2", "Carol Wu†‡". Numbers
 * follow a name of two words or more: one word and a digit is a product's name ("Libtasn1", "Python3").
 */
const MARKED_NAME = new RegExp(
  `${NAME_WORD}(?:\\s+${NAME_WORD}){0,3}${MARK}+|${NAME_WORD}(?:\\s+${NAME_WORD}){1,3}\\d{1,2}(?:,\\d{1,2})*`,
  'gu',
);
/** A line of marks alone ("∗", "† ‡", "∗1"): a superscript the layout set on a line of its own (numbers alone are chapter numbers). */
const MARKS_ONLY = new RegExp(`^(?=.*${MARK})(?:${MARK}|\\d{1,2}|[,\\s])+$`, 'u');

/**
 * A line of a paper's title block that looks like a heading by its size but is not one: author
 * names carrying affiliation marks (every name a `##` heading otherwise), or the marks alone.
 */
export function isAuthorLine(line: Line): boolean {
  const text = line.text.trim();
  if (MARKS_ONLY.test(text)) return true;
  const marked = text.match(MARKED_NAME) ?? [];
  if (!marked.length) return false;
  // Mostly names with marks, joined by commas, "and" or spaces: nothing else of substance left.
  const rest = text.replace(MARKED_NAME, '').replace(/\b(?:and|und|et)\b|[,;&\s]/gu, '');
  return rest.length <= text.length * 0.2;
}

/** A name of two to four words ("Alice Martin", "Jean-Luc de la Tour", "J. R. Smith"), nothing else. */
const PLAIN_NAME = new RegExp(`^${NAME_WORD}(?:\\s+${NAME_WORD}){1,3}$`, 'u');
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{[^}]*\}@[\w-]+(?:\.[\w-]+)+/u;
/** An author's affiliation lines and email stand within this many lines under the name. */
const AUTHOR_BLOCK_LINES = 5;

/**
 * Author names without marks in a paper's title block (ACM's and IEEE's layouts: each name over its
 * affiliation and email; Texinfo's title page): a line of names only, below a larger heading on the
 * first page (the title), with an email address on it or within the few lines under it, none of them set
 * larger than the names.
 */
export function isAuthorNamesLine(lines: Line[], i: number): boolean {
  const line = lines[i]!;
  const first = lines[0];
  if (!first || line.page !== first.page || line.table) return false;
  // A name may carry its address: "Nikos Mavrogiannopoulos (help@example.org)", "Bob Chen <bob@example.org>".
  const withAddress = EMAIL.test(line.text);
  const parts = (line.cells.length > 1 ? line.cells.map((c) => c.text) : [line.text])
    .map((t) => t.replace(new RegExp(`[(<]\\s*(?:${EMAIL.source})\\s*[)>]`, 'gu'), ' '))
    .flatMap((t) => t.split(/\s*(?:,|;|\band\b|&)\s*/u))
    .map((t) => t.trim())
    .filter(Boolean);
  if (!parts.length || !parts.every((p) => PLAIN_NAME.test(p))) return false;
  // The title stands above it on the page, larger.
  if (!lines.slice(0, i).some((l) => l.page === line.page && l.size > line.size)) return false;
  if (withAddress) return true;
  for (let j = i + 1; j < Math.min(lines.length, i + 1 + AUTHOR_BLOCK_LINES); j++) {
    const next = lines[j]!;
    if (next.page !== line.page || next.size > line.size) return false;
    if (EMAIL.test(next.text)) return true;
  }
  return false;
}
