import type { Block, Inline } from './model';
import { isFormatting } from './predicates';

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
  return joinedByBreaks(blocks.map(blockAsInline).filter((p) => p.length));
}

/** Parts (lines, a cell's paragraphs) one after another, a hard line break between each two. */
export function joinedByBreaks(parts: Inline[][]): Inline[] {
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
 * Neighbouring nodes of the same formatting as one (`**bold *both* again**`, not
 * `**bold*****both*****again**`): readers that see a run per formatting change need not merge.
 * With `acrossSpace` (token optimisation) a space between them joins too: `**Air India**`.
 */
export function mergeNeighbours(nodes: Inline[], acrossSpace = false): Inline[] {
  nodes = nestedToMatchNeighbours(nodes);
  const joins = (n: Inline, i: number): boolean =>
    isFormatting(n) &&
    (nodes[i + 1]?.type === n.type || (acrossSpace && isSpace(nodes[i + 1]) && nodes[i + 2]?.type === n.type));
  if (!nodes.some(joins)) return nodes;
  const out: Inline[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const last = out[out.length - 1];
    const next = nodes[i + 1];
    if (acrossSpace && isSpace(node) && isFormatting(last) && isFormatting(next) && next.type === last.type) {
      out[out.length - 1] = { ...last, children: [...last.children, node, ...next.children] };
      i++;
    } else if (isFormatting(node) && isFormatting(last) && last.type === node.type) {
      out[out.length - 1] = { ...last, children: [...last.children, ...node.children] };
    } else out.push(node);
  }
  return out;
}

/**
 * `**` around `*B*` beside `*A*` turned inside out, `*A*` + `*` around `**B**`, so the two can merge:
 * an italic sentence with a bold-italic phrase is `*A **B** C*`, not `*A* ***B****C*` (emphasis
 * that CommonMark reads wrongly). Readers wrap each run in its own formatting, strong outermost.
 */
function nestedToMatchNeighbours(nodes: Inline[]): Inline[] {
  let out: Inline[] | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const inner = isFormatting(n) && n.children.length === 1 ? n.children[0] : undefined;
    if (!isFormatting(inner) || inner.type === n.type) continue;
    const beside = (m: Inline | undefined): boolean => m?.type === inner.type;
    if (!beside(nodes[i - 1]) && !beside(nodes[i + 1])) continue;
    if (isFormatting(nodes[i - 1]) && nodes[i - 1]!.type === n.type) continue;
    if (isFormatting(nodes[i + 1]) && nodes[i + 1]!.type === n.type) continue;
    out ??= [...nodes];
    out[i] = { ...inner, children: [{ ...n, children: inner.children } as Inline] } as Inline;
  }
  return out ?? nodes;
}

const isSpace = (n: Inline | undefined): boolean => n?.type === 'text' && n.text !== '' && !n.text.trim();

/**
 * A heading's text without emphasis over all of it: heading styles are bold, often italic too
 * (Word's Heading 2), and formats that repeat that on every run (RTF, ODP title spans) would
 * otherwise write `## **Title**`; emphasis on part of a heading is kept.
 */
export function withoutWholeEmphasis(text: Inline[]): Inline[] {
  let out = text;
  for (let pass = 0; pass < 4 && out.length; pass++) {
    const whole = (['strong', 'emphasis'] as const).find((type) =>
      // A line break between the runs (a two-line slide title) is no text that stays plain.
      out.every((n) => n.type === type || n.type === 'break' || (n.type === 'text' && !n.text.trim())),
    );
    if (!whole) return out;
    out = out.flatMap((n) => (n.type === 'strong' || n.type === 'emphasis' ? n.children : [n]));
  }
  return out;
}
