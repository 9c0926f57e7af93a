import type { Reader } from '../reader';
import { inlineText } from '../../document/predicates';
import { readMarkdown } from '../shared/markdown/block-tokens';
import { decodeText, normaliseNewlines, TRAILING_BLANKS } from '../shared/text-decoding';
import { textWithGridTables } from './ascii-tables';
import { firstAtxHeading, frontMatterTitle } from './first-heading';

/**
 * txt: plain text, which is valid Markdown as it stands: decoded and tidied, then passed through
 * as one `raw` block, which the writer makes inert where it would read as HTML or a link
 * (Markdown files are read into the model: ../markdown). ASCII grid tables are the exception: drawn
 * with `+---+` and `|`, they are no Markdown table, and a renderer runs their lines together.
 */
export const plainTextReader: Reader = {
  name: 'text',
  async read(input) {
    const text = normaliseNewlines(decodeText(input)).replace(TRAILING_BLANKS, '').trim();
    return {
      blocks: text ? textWithGridTables(text) : [],
      metadata: { title: firstHeading(text) ?? '', author: '', page_count: 1 },
    };
  },
};

function firstHeading(markdown: string): string | undefined {
  const front = /^---\n([\s\S]*?)\n---/.exec(markdown)?.[1];
  const fromFront = front && frontMatterTitle(front);
  if (fromFront) return fromFront;
  const heading = firstAtxHeading(markdown);
  return heading === undefined ? undefined : headingText(heading);
}

/** A heading's words without its Markdown (`**`, links, tags): the title is plain text. */
function headingText(markdown: string): string {
  const [block] = readMarkdown(`# ${markdown}`).blocks;
  return block?.type === 'heading' ? inlineText(block.text).trim() : markdown;
}
