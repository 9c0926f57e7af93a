import type { Block } from '../../document/model';
import { CHECKED, UNCHECKED } from './form-fields';

/** A node of the HTML-like tree pdf.js lays an XFA form out as (`allXfaHtml`). */
interface XfaNode {
  name?: string;
  value?: unknown;
  attributes?: {
    class?: string[];
    type?: string;
    value?: unknown;
    textContent?: unknown;
    checked?: boolean;
    selected?: boolean;
    hidden?: boolean;
  };
  children?: XfaNode[];
}

/**
 * The text of a form that exists only as XFA (the PDF's own pages hold a "please wait" placeholder):
 * pdf.js lays the form out with its data, and each drawn text and each field ("caption value") becomes
 * a paragraph, in the form's order.
 */
export function xfaBlocks(tree: unknown): Block[] {
  const blocks: Block[] = [];
  const visit = (node: XfaNode): void => {
    const classes = node.attributes?.class ?? [];
    if (classes.includes('xfaDraw')) {
      push(blocks, textOf(node));
      return;
    }
    if (classes.includes('xfaField')) {
      push(blocks, [captionOf(node), valueOf(node)].filter(Boolean).join(' '));
      return;
    }
    for (const child of node.children ?? []) visit(child);
  };
  if (tree && typeof tree === 'object') visit(tree as XfaNode);
  return blocks;
}

function push(blocks: Block[], text: string): void {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean) blocks.push({ type: 'paragraph', text: [{ type: 'text', text: clean }] });
}

/** The text shown inside a node (its spans), fields' own inputs excluded. */
function textOf(node: XfaNode): string {
  const parts: string[] = [];
  const walk = (n: XfaNode): void => {
    if (n.name === 'input' || n.name === 'select' || n.name === 'textarea') return;
    if (typeof n.value === 'string') parts.push(n.value);
    for (const child of n.children ?? []) walk(child);
  };
  walk(node);
  return parts.join(' ');
}

function captionOf(field: XfaNode): string {
  // Check buttons carry their caption in a class of their own.
  const caption = find(field, (n) => n.attributes?.class?.some((c) => c.startsWith('xfaCaption')) ?? false);
  return caption ? textOf(caption) : '';
}

/** What a field shows: typed text, the chosen option, or a ticked or empty box. */
function valueOf(field: XfaNode): string {
  const control = find(field, (n) => n.name === 'input' || n.name === 'select' || n.name === 'textarea');
  const attrs = control?.attributes ?? {};
  if (!control) return '';
  if (control.name === 'select') {
    const chosen = (control.children ?? []).filter((o) => o.attributes?.selected && !o.attributes.hidden);
    return chosen.map((o) => (typeof o.value === 'string' ? o.value : '')).join(', ');
  }
  if (attrs.type === 'checkbox' || attrs.type === 'radio') return attrs.checked ? CHECKED : UNCHECKED;
  const value = control.name === 'textarea' ? attrs.textContent : attrs.value;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function find(node: XfaNode, test: (n: XfaNode) => boolean): XfaNode | undefined {
  if (test(node)) return node;
  for (const child of node.children ?? []) {
    const hit = find(child, test);
    if (hit) return hit;
  }
  return undefined;
}
