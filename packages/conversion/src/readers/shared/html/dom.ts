import type { Parser as HtmlParser } from 'htmlparser2';

/* eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first HTML parsed: a plain .txt or a PDF never needs it */
const htmlParser = (): typeof HtmlParser => (require('htmlparser2') as { Parser: typeof HtmlParser }).Parser;

/** A parsed HTML element: as small as the reader needs (no selectors, no serialising). */
export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
  parent: HtmlElement | undefined;
  /** Holds a block-level element somewhere below it (set by `parseHtml`). */
  hasBlock: boolean;
  /** Holds a heading 1, an article, a main element or a tab strip below it: never page chrome. */
  hasContent: boolean;
  /** Sits inside a <main> or <article> element. */
  inMain: boolean;
  /**
   * Characters of prose below it: text outside links, scripts and styles, spaces not counted
   * (set by `parseHtml`). What a page's chrome has little of and its article most of.
   */
  prose: number;
}

/** Text is kept decoded (entities resolved), exactly as written otherwise. */
export type HtmlNode = HtmlElement | string;

/** Elements that start a new block where they appear. */
export const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

const CONTENT_TAGS = new Set(['h1', 'article', 'main']);
/** Elements whose text is not prose: a link's words name another page, a script's and a style's are code. */
const NOT_PROSE_TAGS = new Set(['a', 'script', 'style', 'noscript', 'template', 'head', 'title']);
// A tab strip (role="tablist") names the panels of content beside it, even when its class calls it a menu.

/**
 * What a <head> holds. Any other element, or text, ends the head as browsers read it (HTML's "in
 * head" insertion mode): a page that never closes its head and never opens its body still has
 * a body, which htmlparser2 alone would nest inside the head, where nothing is content.
 */
const HEAD_CONTENT_TAGS = new Set([
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'noscript',
  'script',
  'style',
  'template',
  'title',
]);

/**
 * HTML to a tree with htmlparser2, which keeps the open-element stack itself (no recursion, so
 * any nesting depth parses) and closes implied end tags (p, li, td) as browsers do.
 */
export function parseHtml(html: string): HtmlElement {
  const root = element('#root', {}, undefined);
  let current = root;
  const all: HtmlElement[] = [];
  const Parser = htmlParser();
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (current.tag === 'head' && !HEAD_CONTENT_TAGS.has(name)) current = current.parent ?? root;
        const el = element(name, attrs, current);
        current.children.push(el);
        all.push(el);
        current = el;
      },
      onclosetag(name) {
        // The head this parser still holds open was already left for the body (see HEAD_CONTENT_TAGS).
        if (name === 'head' && current.tag !== 'head') return;
        current = current.parent ?? root;
      },
      ontext(text) {
        if (current.tag === 'head' && text.trim()) current = current.parent ?? root;
        const last = current.children.length - 1;
        if (typeof current.children[last] === 'string') current.children[last] += text;
        else current.children.push(text);
        current.prose += proseLength(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  // Children come after their parents in `all`: walking it backwards settles every child first.
  for (let i = all.length - 1; i >= 0; i--) {
    const el = all[i]!;
    const parent = el.parent!;
    parent.hasBlock ||= el.hasBlock || BLOCK_TAGS.has(el.tag);
    parent.hasContent ||= el.hasContent || CONTENT_TAGS.has(el.tag) || el.attrs.role === 'tablist';
    if (!NOT_PROSE_TAGS.has(el.tag)) parent.prose += el.prose;
  }
  return root;
}

/** Characters other than white space. */
function proseLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

function element(tag: string, attrs: Record<string, string>, parent: HtmlElement | undefined): HtmlElement {
  const inMain = parent !== undefined && (parent.inMain || parent.tag === 'main' || parent.tag === 'article');
  return { tag, attrs, children: [], parent, hasBlock: false, hasContent: false, inMain, prose: 0 };
}

/** The elements below `root` in document order, visited without recursion. */
export function* descendantsOf(root: HtmlElement): Generator<HtmlElement> {
  const stack: HtmlNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/** All text below a node, without recursion (for code, deep nesting and metadata). */
export function textOf(node: HtmlNode, skip: (el: HtmlElement) => boolean = () => false): string {
  if (typeof node === 'string') return node;
  let out = '';
  const stack: HtmlNode[] = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') out += n;
    else if (!skip(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}
