import MarkdownIt, { type MarkdownIt as Parser, type Token } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import frontMatter from 'markdown-it-front-matter';
import texmath from 'markdown-it-texmath';
import { MAX_MARKDOWN_NESTING } from '../../nesting-limits';

export type { Token } from 'markdown-it';

/** texmath renders with KaTeX unless given an engine: we only read the TeX, so nothing is rendered. */
const NO_MATH_RENDERER = { renderToString: (): string => '' };

let parser: Parser | undefined;

/**
 * CommonMark with GitHub's tables and strike-through (markdown-it's default preset), raw HTML
 * kept as tokens, footnotes, `$`/`$$` math and YAML front matter; nesting bounded.
 * Bare URLs stay text (no linkify): GitHub links them itself, and the text is what the author wrote.
 */
function markdownParser(): Parser {
  parser ??= new MarkdownIt('default', { html: true, linkify: false, maxNesting: MAX_MARKDOWN_NESTING })
    .use(footnote)
    .use(frontMatter, () => undefined)
    .use(texmath, { engine: NO_MATH_RENDERER, delimiters: 'dollars' });
  return parser;
}

/** Markdown source as markdown-it's flat token stream (inline tokens hold their children). */
export function parseMarkdown(source: string): Token[] {
  return markdownParser().parse(source, {});
}
