import type { Element } from '@xmldom/xmldom';
import type { SafeZip } from '../../archive/safe-zip';
import { parseXml } from './office-properties';
import { attr, child, children, descendants } from './xml-dom';

/** Levels a SmartArt outline keeps; deeper nodes stay at the last one. */
const MAX_LEVEL = 8;
/** Connections followed below the document point. */
const MAX_DEPTH = 64;

/** One text node of a SmartArt diagram, at its depth in the diagram's outline (0 = top). */
export interface DiagramNode {
  text: string;
  level: number;
}

/**
 * The text of a SmartArt diagram (DrawingML diagram data part, `dgm:dataModel`) as the outline
 * PowerPoint and Word show in its text pane: the content points (`dgm:pt` of type node or asst,
 * not the connection or presentation points) in the order and nesting of their parent-of
 * connections (`dgm:cxn`, by `srcOrd`) under the document point. Points no connection reaches
 * follow at the top level in document order. Empty points are skipped (their children move up).
 */
export function diagramNodes(zip: SafeZip, dataPart: string): DiagramNode[] {
  const xml = zip.textOf(dataPart);
  if (!xml) return [];
  const model = parseXml(xml, 'diagram data');
  const texts = new Map<string, string>();
  const order: string[] = [];
  let root: string | undefined;
  for (const pt of children(child(descendants(model, 'dataModel')[0], 'ptLst'), 'pt')) {
    const id = attr(pt, 'modelId') ?? '';
    const type = attr(pt, 'type') ?? 'node';
    if (type === 'doc') root ??= id;
    if (type !== 'node' && type !== 'asst') continue;
    texts.set(id, pointText(pt));
    order.push(id);
  }
  const kids = new Map<string, Array<{ id: string; ord: number }>>();
  for (const cxn of children(child(descendants(model, 'dataModel')[0], 'cxnLst'), 'cxn')) {
    if ((attr(cxn, 'type') ?? 'parOf') !== 'parOf') continue;
    const src = attr(cxn, 'srcId') ?? '';
    const list = kids.get(src) ?? [];
    list.push({ id: attr(cxn, 'destId') ?? '', ord: Number(attr(cxn, 'srcOrd') ?? 0) || 0 });
    kids.set(src, list);
  }
  const out: DiagramNode[] = [];
  const seen = new Set<string>();
  // Depth is bounded: a hostile chain of connections must not exhaust the stack.
  const visit = (id: string, level: number, depth = 0): void => {
    if (depth > MAX_DEPTH) return;
    for (const k of (kids.get(id) ?? []).sort((a, b) => a.ord - b.ord)) {
      if (seen.has(k.id)) continue;
      seen.add(k.id);
      const text = texts.get(k.id);
      if (text) out.push({ text, level: Math.min(level, MAX_LEVEL) });
      visit(k.id, text ? level + 1 : level, depth + 1);
    }
  };
  if (root !== undefined) {
    seen.add(root);
    visit(root, 0);
  }
  for (const id of order) {
    if (seen.has(id)) continue;
    seen.add(id);
    const text = texts.get(id);
    if (text) out.push({ text, level: 0 });
    visit(id, text ? 1 : 0);
  }
  return out;
}

/** A point's text: its paragraphs joined by spaces. */
function pointText(pt: Element): string {
  return descendants(child(pt, 't'), 'p')
    .map((p) =>
      descendants(p, 't')
        .map((t) => t.textContent ?? '')
        .join(''),
    )
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
