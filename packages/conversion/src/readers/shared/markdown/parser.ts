import type MarkdownItModule from 'markdown-it';
import type { MarkdownIt as Parser, StateBlock, Token } from 'markdown-it';
import type footnoteModule from 'markdown-it-footnote';
import type frontMatterModule from 'markdown-it-front-matter';
import type texmathModule from 'markdown-it-texmath';
import { MAX_MARKDOWN_NESTING } from '../nesting-limits';

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
  if (parser) return parser;
  // Loaded on the first Markdown read, not with the module: a plain .txt without a heading, and
  // every PDF, never needs them (markdown-it and its plugins were a third of a small text's start).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const MarkdownIt = defaultExport<typeof MarkdownItModule>(require('markdown-it'));
  const footnote = defaultExport<typeof footnoteModule>(require('markdown-it-footnote'));
  const frontMatter = defaultExport<typeof frontMatterModule>(require('markdown-it-front-matter'));
  const texmath = defaultExport<typeof texmathModule>(require('markdown-it-texmath'));
  /* eslint-enable @typescript-eslint/no-require-imports */
  parser = new MarkdownIt('default', {
    html: true,
    linkify: false,
    maxNesting: MAX_MARKDOWN_NESTING + CONTAINER_LEVELS,
  })
    .use(footnote)
    .use(frontMatter, () => undefined)
    .use(texmath, { engine: NO_MATH_RENDERER, delimiters: 'dollars' });
  parser.block.ruler.before('table', TOO_DEEP, tooDeepAsText);
  return parser;
}

/** A CommonJS module's export, whether it is the value itself or sits on `default`. */
function defaultExport<T>(loaded: unknown): T {
  const value = loaded as { default?: T } & T;
  return value.default ?? value;
}

/** Levels one container opens at once (a list and its item): headroom so the rule below always runs first. */
const CONTAINER_LEVELS = 2;

/** The token holding, as plain text, what is nested too deep to read as Markdown. */
export const TOO_DEEP = 'too_deep';

/**
 * At the nesting limit the rest of the container is one text token: markdown-it itself drops what
 * lies beyond its own limit, and the words should survive (as in the HTML reader).
 */
function tooDeepAsText(state: StateBlock, startLine: number, endLine: number): boolean {
  if (state.level < MAX_MARKDOWN_NESTING) return false;
  const token = state.push(TOO_DEEP, '', 0);
  token.content = state.getLines(startLine, endLine, state.blkIndent, false);
  state.line = endLine;
  return true;
}

/** Markdown source as markdown-it's flat token stream (inline tokens hold their children). */
export function parseMarkdown(source: string): Token[] {
  return markdownParser().parse(source, {});
}
