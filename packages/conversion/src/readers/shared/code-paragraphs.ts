/** Monospaced font names: a paragraph all in one of them may be code (DOCX, RTF). */
export const MONOSPACE = /courier|consolas|menlo|monaco|mono|lucida console|source code|fira code/i;

/** Paragraph style names that mean code (DOCX, RTF). */
export const CODE_STYLE = /(^|\s)code(\s|$)|preformatted|^plain text$|^macro text$/i;

/** What code has and prose rarely does: a monospaced paragraph is code only with one of these. */
export const CODE_CHARS = /[{}();=<>[\]]|^\s{2,}\S|\b(def|class|function|return|import|SELECT|FROM)\b/;
