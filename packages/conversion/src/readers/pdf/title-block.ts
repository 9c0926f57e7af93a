import type { Line } from './layout';

/** Affiliation and footnote marks set after an author's name. */
const MARK = '[∗*†‡§¶#+⋆✝]';
/** A capitalised name word ("Smith", "O'Neil", "van", "J.", "Jean-Luc"). */
const NAME_WORD = "(?:\\p{Lu}\\.|\\p{Lu}[\\p{Ll}'’-]+(?:-\\p{Lu}[\\p{Ll}]+)?|van|von|de|der|da|del|di|le|la)";
/** A name followed by marks or affiliation numbers: "Alice Smith∗", "Bob Jones1,2", "Carol Wu†‡". */
const MARKED_NAME = new RegExp(`${NAME_WORD}(?:\\s+${NAME_WORD}){0,3}(?:${MARK}+|\\d{1,2}(?:,\\d{1,2})*)`, 'gu');
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
