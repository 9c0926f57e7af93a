import { XMLValidator } from 'fast-xml-parser';
import type { Converter } from '../types';
import { ConversionError } from '../types';
import { decodeText, normaliseNewlines } from '../text-decoding';
import { renderMarkdown } from '../markdown/writer';

/** XML: checked for well-formedness (no entity expansion: entities are never resolved) and fenced as-is. */
export const xmlConverter: Converter = {
  name: 'xml',
  extensions: ['xml'],
  async convert(input) {
    const text = normaliseNewlines(decodeText(input)).trim();
    if (!text) return { markdown: '', metadata: { title: '', author: '', page_count: 1 } };
    const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
    if (valid !== true) {
      throw new ConversionError(
        'corrupt_file',
        `The XML file is not well-formed: ${valid.err.msg} (line ${valid.err.line}).`,
      );
    }
    const title = /<title(?:\s[^>]*)?>([^<]{1,500})<\/title>/i.exec(text)?.[1]?.trim() ?? '';
    return {
      markdown: renderMarkdown([{ type: 'code', language: 'xml', text }]),
      metadata: { title, author: '', page_count: 1 },
    };
  },
};
