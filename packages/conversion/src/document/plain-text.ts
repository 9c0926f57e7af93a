/**
 * Metadata (`title`, `author`) as plain text: an application shows it as it is, often inside its
 * own HTML, so no tag, comment or half-written tag in it may read as markup. Whole tags and
 * comments go (they are markup the source carried, as in an HTML `<title>`); a `<` that would
 * still open one gets a space after it (`a<b` → `a< b`), which no HTML parser reads as a tag.
 */
export function plainMetadataText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[A-Za-z][^<>]*>/g, '')
    .replace(/<(?=[A-Za-z/!?])/g, '< ')
    .trim();
}
