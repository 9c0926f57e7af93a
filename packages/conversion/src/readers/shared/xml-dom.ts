import type { Element, Node } from '@xmldom/xmldom';

/** Small DOM helpers over @xmldom/xmldom, matching elements by local name (prefixes vary between producers). */
export function children(node: Node | null | undefined, local?: string): Element[] {
  const out: Element[] = [];
  if (!node) return out;
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (!local || (c as Element).localName === local)) out.push(c as Element);
  }
  return out;
}

export function child(node: Node | null | undefined, local: string): Element | undefined {
  return children(node, local)[0];
}

export function descendants(node: Node | null | undefined, local: string): Element[] {
  if (!node) return [];
  const list = (node as Element).getElementsByTagNameNS?.('*', local);
  return list ? Array.from({ length: list.length }, (_, i) => list.item(i)!) : [];
}

/**
 * The first element with this local name below `node`, in document order (what `descendants(...)[0]`
 * gives), found without walking the rest of the tree: xmldom's live list walks every node first.
 */
export function firstDescendant(node: Node | null | undefined, local: string): Element | undefined {
  const stack: Node[] = [];
  for (let c = node?.lastChild; c; c = c.previousSibling) stack.push(c);
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType !== 1) continue;
    if ((n as Element).localName === local) return n as Element;
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return undefined;
}

/** Attribute by local name, whatever its prefix. */
export function attr(el: Element | undefined, local: string): string | undefined {
  if (!el) return undefined;
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    if (a.localName === local || a.name === local) return a.value;
  }
  return undefined;
}

/** A relationship id attribute (`r:id`, `r:embed`…): the prefixed one, not a plain `id`. */
export function relAttr(el: Element | undefined, local = 'id'): string | undefined {
  if (!el) return undefined;
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    if (a.localName === local && a.prefix) return a.value;
  }
  return undefined;
}

/** Whether an element lies inside an element of that local name, below `stop` (the whole document when absent). */
export function hasAncestor(el: Element | null, local: string, stop?: Element): boolean {
  for (let p = el?.parentNode as Element | null; p && p !== stop; p = p.parentNode as Element | null) {
    if (p.localName === local) return true;
  }
  return false;
}
