import type { Inline } from './model';

type Formatting = Extract<Inline, { type: 'strong' | 'emphasis' | 'strike' | 'superscript' | 'subscript' }>;

const FORMATTING: ReadonlySet<Inline['type']> = new Set(['strong', 'emphasis', 'strike', 'superscript', 'subscript']);

/** Formatting wrapped around inline children (not links: those carry a target). */
export const isFormatting = (n: Inline | undefined): n is Formatting => n !== undefined && FORMATTING.has(n.type);

/**
 * No visible content: no text but white space, no image, code, math, note reference or raw Markdown.
 * Walked with a stack, as nodes nest as deep as the source's elements.
 */
export function isBlankInline(nodes: Inline[]): boolean {
  const stack: Inline[][] = [nodes];
  while (stack.length) {
    for (const n of stack.pop()!) {
      if (n.type === 'text') {
        if (/\S/.test(n.text)) return false;
      } else if (n.type === 'raw') {
        if (/\S/.test(n.markdown)) return false;
      } else if ('children' in n) stack.push(n.children);
      else if (n.type !== 'break') return false;
    }
  }
  return true;
}

/** The text of nodes with their markup left out (text and code as written), a line break as `lineBreak`. */
export function inlineText(nodes: Inline[], lineBreak = ' '): string {
  let out = '';
  const stack = [...nodes].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text' || n.type === 'code') out += n.text;
    else if (n.type === 'break') out += lineBreak;
    else if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}
