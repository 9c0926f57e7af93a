import type { Reader } from '../reader';
import type { Block } from '../../document/model';
import { inlineText } from '../../document/predicates';
import { decodeText, normaliseNewlines } from '../shared/text-decoding';
import { readMarkdown } from '../shared/markdown/block-tokens';

/** md, markdown: read into the document model like every other format, so the one writer renders it. */
export const markdownReader: Reader = {
  name: 'markdown',
  async read(input) {
    const { blocks, frontMatter } = readMarkdown(normaliseNewlines(decodeText(input)));
    const title = (frontMatter && frontMatterTitle(frontMatter)) || firstTopHeading(blocks);
    return { blocks, metadata: { title: title ?? '', author: '', page_count: 1 } };
  },
};

/** The `title:` of YAML front matter or `title =` of TOML, unquoted. */
function frontMatterTitle(frontMatter: string): string | undefined {
  return /^title\s*[:=]\s*["']?(.+?)["']?\s*$/m.exec(frontMatter)?.[1];
}

/** The text of the first level-1 heading, ATX or setext. */
function firstTopHeading(blocks: Block[]): string | undefined {
  const heading = blocks.find((b) => b.type === 'heading' && b.level === 1);
  return heading?.type === 'heading' ? inlineText(heading.text, '').trim() || undefined : undefined;
}
