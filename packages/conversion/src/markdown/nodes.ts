import type { Inline } from './model';

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

/** `nodes` marked up as bold, italic and struck through as the flags say (strong outermost). */
export function styled(nodes: Inline[], style: { bold?: boolean; italic?: boolean; strike?: boolean }): Inline[] {
  let out = nodes;
  if (style.strike) out = [{ type: 'strike', children: out }];
  if (style.italic) out = [{ type: 'emphasis', children: out }];
  if (style.bold) out = [{ type: 'strong', children: out }];
  return out;
}
