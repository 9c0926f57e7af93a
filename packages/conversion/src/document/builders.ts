import type { Block, Inline } from './model';

/**
 * One space where run or formatting boundaries put two, and none beside a line end: readers that
 * cut text into runs (DOCX, DOC, RTF) call this on a paragraph's nodes. Edits the text nodes in place.
 */
export function collapseSpaces(nodes: Inline[]): Inline[] {
  let last: { text: string } | undefined;
  const visit = (list: Inline[]): void => {
    for (const n of list) {
      if (n.type === 'text') {
        if (last && /[ \n]$/.test(last.text)) n.text = n.text.replace(/^ +/, '');
        if (last && n.text.startsWith('\n')) last.text = last.text.replace(/ +$/, '');
        if (n.text) last = n;
      } else if ('children' in n) visit(n.children);
      else last = undefined;
    }
  };
  visit(nodes);
  return nodes;
}

/** Text raised or lowered from the baseline (a run's vertical alignment). */
export type Position = 'super' | 'sub';

export interface InlineStyle {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  position?: Position;
}

/**
 * `nodes` marked up as the flags say: strong outermost, superscript or subscript innermost, so a
 * bold run beside a bold raised one merges into one `**x<sup>2</sup>**`.
 */
export function styled(nodes: Inline[], style: InlineStyle): Inline[] {
  let out = nodes;
  if (style.position) out = [{ type: style.position === 'super' ? 'superscript' : 'subscript', children: out }];
  if (style.strike) out = [{ type: 'strike', children: out }];
  if (style.italic) out = [{ type: 'emphasis', children: out }];
  if (style.bold) out = [{ type: 'strong', children: out }];
  return out;
}

const space: Inline = { type: 'text', text: ' ' };

/**
 * Blocks as one run of inline nodes, for a table cell: paragraphs follow each other after a line
 * break (the writer puts a space in a cell), list items keep their markers, code becomes code spans.
 */
export function blocksAsInline(blocks: Block[]): Inline[] {
  const parts = blocks.map(blockAsInline).filter((p) => p.length);
  return parts.flatMap((p, i) => (i ? [{ type: 'break' } as Inline, ...p] : p));
}

function blockAsInline(b: Block): Inline[] {
  switch (b.type) {
    case 'paragraph':
    case 'heading':
      return b.text;
    case 'code':
      return b.text.trim() ? [{ type: 'code', text: b.text }] : [];
    case 'list':
      return joined(
        b.items.map((it, i) => [
          { type: 'text', text: `${b.ordered ? `${(b.start ?? 1) + i}.` : '-'} ` },
          ...it.text,
          space,
          ...blocksAsInline(it.children ?? []),
        ]),
      );
    case 'table':
      return joined(b.rows.flatMap((r) => r));
    case 'quote':
      return blocksAsInline(b.blocks);
    case 'raw':
      return b.markdown.trim() ? [{ type: 'raw', markdown: b.markdown }] : [];
    case 'notes':
      return joined(b.notes.map((n) => blocksAsInline(n.blocks)));
    case 'rule':
      return [];
  }
}

function joined(parts: Inline[][]): Inline[] {
  return parts.filter((p) => p.length).flatMap((p, i) => (i ? [space, ...p] : p));
}

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
