import type { Inline } from '../../../document/model';
import { inlineText } from '../../../document/predicates';
import { parseHtml, type HtmlElement } from '../html/dom';
import type { Token } from './parser';

/** markdown-it's paired inline tokens and the node each opens. */
const PAIRED: Record<string, 'strong' | 'emphasis' | 'strike'> = {
  strong_open: 'strong',
  em_open: 'emphasis',
  s_open: 'strike',
};

/** Inline HTML tags that have a node of their own; any other tag is left out and its text kept. */
const HTML_FORMATTING: Record<string, 'strong' | 'emphasis' | 'strike' | 'superscript' | 'subscript'> = {
  b: 'strong',
  strong: 'strong',
  i: 'emphasis',
  em: 'emphasis',
  s: 'strike',
  del: 'strike',
  strike: 'strike',
  sup: 'superscript',
  sub: 'subscript',
};
/** Inline HTML tags whose text is code. */
const HTML_CODE = new Set(['code', 'kbd', 'samp', 'tt']);

/** An inline element being filled: what closes it, and how its children become a node. */
interface Frame {
  /** The markdown-it close token type (`strong_close`) or HTML tag (`sup`) that ends it. */
  closer: string;
  children: Inline[];
  make: (children: Inline[]) => Inline[];
}

/**
 * An inline token's children as model nodes. Walked with a stack of open elements (markdown-it
 * pairs open and close tokens; inline HTML tags pair here by name, unclosed ones end with the text).
 */
export function readInline(tokens: readonly Token[]): Inline[] {
  const root: Frame = { closer: '', children: [], make: (c) => c };
  const stack: Frame[] = [root];
  const top = (): Frame => stack[stack.length - 1]!;
  const open = (closer: string, make: Frame['make']): void => {
    stack.push({ closer, children: [], make });
  };
  const closeFrom = (at: number): void => {
    while (stack.length > at) {
      const frame = stack.pop()!;
      const parent = top().children;
      for (const node of frame.make(frame.children)) parent.push(node);
    }
  };
  // An element closes the elements opened inside it that are still open (`<b><i>x</b>`).
  const close = (closer: string): void => {
    const at = stack.findLastIndex((f) => f.closer === closer);
    if (at > 0) closeFrom(at);
  };
  for (const t of tokens) {
    const nodes = top().children;
    const paired = PAIRED[t.type];
    if (paired) open(t.type.replace('_open', '_close'), (children) => [{ type: paired, children }]);
    else if (t.type === 'link_open') {
      const url = String(t.attrGet('href') ?? '');
      open('link_close', (children) => [{ type: 'link', url, children }]);
    } else if (t.type.endsWith('_close')) close(t.type);
    else if (t.type === 'text') nodes.push({ type: 'text', text: t.content });
    else if (t.type === 'softbreak') nodes.push({ type: 'text', text: '\n' });
    else if (t.type === 'hardbreak') nodes.push({ type: 'break' });
    else if (t.type === 'code_inline') nodes.push({ type: 'code', text: t.content });
    else if (t.type === 'image') nodes.push(image(t.content, String(t.attrGet('src') ?? '')));
    else if (t.type === 'footnote_ref') nodes.push({ type: 'noteRef', id: footnoteId(t) });
    else if (t.type === 'math_inline') nodes.push({ type: 'math', tex: t.content });
    else if (t.type === 'math_inline_double') nodes.push({ type: 'math', tex: t.content, display: true });
    else if (t.type === 'html_inline') htmlTag(t.content, nodes, open, close);
  }
  closeFrom(1);
  return root.children;
}

/** The note's own label (`[^label]`), so references and notes keep the names the author gave them. */
export function footnoteId(t: Token): string {
  const meta = t.meta as { id?: number; label?: string } | null;
  return meta?.label ?? String((meta?.id ?? 0) + 1);
}

function image(alt: string, src: string): Inline {
  return src ? { type: 'image', alt, src } : { type: 'image', alt };
}

/** One inline HTML tag: a break, an image, or the start or end of an element we have a node for. */
function htmlTag(
  html: string,
  nodes: Inline[],
  open: (closer: string, make: Frame['make']) => void,
  close: (closer: string) => void,
): void {
  const tag = /^<(\/?)([a-z][a-z0-9-]*)/i.exec(html);
  if (!tag) return; // a comment, a processing instruction or a declaration: not content
  const name = tag[2]!.toLowerCase();
  if (tag[1]) {
    close(name);
    return;
  }
  const formatting = HTML_FORMATTING[name];
  if (name === 'br') nodes.push({ type: 'break' });
  else if (name === 'img') {
    const el = firstElement(html);
    nodes.push(image(el?.attrs.alt ?? '', el?.attrs.src ?? ''));
  } else if (formatting) open(name, (children) => [{ type: formatting, children }]);
  else if (HTML_CODE.has(name)) open(name, (children) => [{ type: 'code', text: inlineText(children) }]);
  else if (name === 'a') {
    const url = firstElement(html)?.attrs.href ?? '';
    open(name, (children) => [{ type: 'link', url, children }]);
  }
}

function firstElement(html: string): HtmlElement | undefined {
  const el = parseHtml(html).children[0];
  return typeof el === 'string' ? undefined : el;
}
