import type { Converter } from '../../types';
import { decodeText, normaliseNewlines, TRAILING_BLANKS } from '../shared/text-decoding';

/** txt: plain text, which is valid Markdown as it stands; decoded and tidied only (Markdown files: ./markdown.ts). */
export const plainTextConverter: Converter = {
  name: 'text',
  extensions: ['txt'],
  async convert(input) {
    const text = normaliseNewlines(decodeText(input)).replace(TRAILING_BLANKS, '');
    const markdown = text.trim() ? `${text.trim()}\n` : '';
    return {
      markdown,
      metadata: { title: firstHeading(markdown) ?? '', author: '', page_count: 1 },
    };
  },
};

function firstHeading(markdown: string): string | undefined {
  const front = /^---\n([\s\S]*?)\n---/.exec(markdown)?.[1];
  const fromFront = front && /^title:\s*["']?(.+?)["']?\s*$/m.exec(front)?.[1];
  if (fromFront) return fromFront;
  return /^#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1];
}
