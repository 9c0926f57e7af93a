/**
 * Markdown the writer passes on without reading it (a `.txt` file, a `.md` file's front matter,
 * TeX) made inert: nothing in it can read as HTML, an autolink, a link, an image or a link
 * definition, whatever the renderer. Only what would start such markup is touched; the rest stays
 * byte for byte (an author's `*emphasis*` in a .txt still renders as emphasis).
 */

/** What opens HTML or an autolink: `<` before a letter (a tag, `<javascript:…>`), `/`, `!` (comments, CDATA) or `?`. */
export const MARKUP_OPENER = /<(?=[A-Za-z/!?])/g;

/** `](` (a link or image), `][` (a reference) and `]:` (a definition, wherever a line may start). */
const LINK_OPENER = /\]([([:])/g;

/** Raw Markdown with every HTML opener written as `&lt;` and a backslash after a bracket that would open a link (escaping the `(`, `[` or `:`, whatever precedes the `]`). */
export function inertRawMarkdown(md: string): string {
  return md.replace(MARKUP_OPENER, '&lt;').replace(LINK_OPENER, ']\\$1');
}

/**
 * TeX as it stands between `$` delimiters. A renderer without maths reads it as Markdown, so a
 * space goes between `<` and what would make a tag of it, and between `]` and what would make a
 * link of it: TeX's math mode ignores spaces, so the formula is the same.
 */
export function inertTex(tex: string): string {
  return tex.replace(MARKUP_OPENER, '< ').replace(LINK_OPENER, '] $1');
}
