// These markdown-it plugins publish no types of their own (front matter's name markdown-it/lib, gone in v15).
declare module 'markdown-it-footnote' {
  import type { MarkdownIt } from 'markdown-it';
  const footnote: (md: MarkdownIt) => void;
  export default footnote;
}

declare module 'markdown-it-texmath' {
  import type { MarkdownIt } from 'markdown-it';
  const texmath: (
    md: MarkdownIt,
    options: { engine: { renderToString(tex: string): string }; delimiters: string },
  ) => void;
  export default texmath;
}

declare module 'markdown-it-front-matter' {
  import type { MarkdownIt } from 'markdown-it';
  const frontMatter: (md: MarkdownIt, onFrontMatter: (rawMeta: string) => void) => void;
  export default frontMatter;
}
