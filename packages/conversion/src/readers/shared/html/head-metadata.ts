import type { DocumentMetadata } from '../../../types';
import { descendantsOf, textOf, type HtmlElement } from './dom';

/** The first <title> and the author <meta>: an HTML page's metadata (HTML files, XHTML saved as .xml). */
export function headMetadata(root: HtmlElement): DocumentMetadata {
  let title: string | undefined;
  let author: string | undefined;
  for (const el of descendantsOf(root)) {
    if (el.tag === 'title') title ??= textOf(el).replace(/\s+/g, ' ').trim();
    else if (el.tag === 'meta' && el.attrs.name?.toLowerCase() === 'author') author ??= el.attrs.content?.trim();
    else if (el.tag === 'body') break;
  }
  return { title: title ?? '', author: author ?? '', page_count: 1 };
}
