/** Monospaced font names: a paragraph all in one of them may be code (DOCX, RTF). */
export const MONOSPACE = /courier|consolas|menlo|monaco|mono|lucida console|source code|fira code/i;

/** Paragraph style names that mean code (DOCX, RTF). */
export const CODE_STYLE = /(^|\s)code(\s|$)|preformatted|^plain text$|^macro text$/i;

/**
 * Character style names that mean inline code (DOCX): pandoc's "Verbatim Char", LibreOffice's
 * "Source Text" (an HTML <code> saved as DOCX), Word's "HTML Code", and any named "… Code …".
 */
export const CODE_CHAR_STYLE = /^verbatim char$|^source text$|(^|\s)code(\s|$)|^html (typewriter|keyboard|sample)$/i;

/** What code has and prose rarely does: a monospaced paragraph is code only with one of these. */
export const CODE_CHARS = /[{}();=<>[\]]|^\s{2,}\S|\b(def|class|function|return|import|SELECT|FROM)\b/;

/** Words a monospaced line without code characters may have and still be a line of the code beside it. */
const MAX_CODE_LINE_WORDS = 3;

/**
 * A monospaced paragraph without code characters ("done", "fi", "end", "#!/bin/sh") that joins a
 * code block it stands next to: a few words, not ending as a sentence does. A monospaced sentence
 * beside a listing ("A note set in a typewriter face.") stays prose.
 */
export function joinsCodeBeside(line: string): boolean {
  const text = line.trim();
  return text !== '' && text.split(/\s+/).length <= MAX_CODE_LINE_WORDS && !/[.!?,;:]["')\]]?$/.test(text);
}
