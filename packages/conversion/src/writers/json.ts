import type { DocBlock, DocInline, DocumentData } from '@markwright/contracts/src/structure';
import type { Block, Inline } from '../document/model';
import { isSafeTarget } from './markdown/link-targets';

/**
 * E4: the document model as data (`document`), in the contract's shape (contracts' documentSchema):
 * a link's target is `href`, a note reference `note_ref`, and Markdown the model cannot see into
 * (a `raw` block: front matter, a model pass's answer) a `markdown` block; raw Markdown inside a
 * paragraph is text. Strings lose the C0 controls the Markdown writer drops too (PostgreSQL's jsonb
 * cannot hold NUL). `pageSizes` are the pages whose blocks carry `bbox`.
 */
export function writeDocument(
  blocks: Block[],
  pageSizes: Array<{ number: number; width: number; height: number }> | undefined,
): DocumentData {
  const out = blocks.map(docBlock);
  const boxed = new Set<number>();
  for (const b of blocks) if (b.bbox && b.page !== undefined) boxed.add(b.page);
  const pages = (pageSizes ?? [])
    .filter((p) => boxed.has(p.number))
    .map((p) => ({ number: p.number, width: round(p.width), height: round(p.height) }));
  return { version: 1, blocks: out, ...(pages.length ? { pages } : {}) };
}

function docBlock(block: Block): DocBlock {
  const placed = {
    ...(block.page !== undefined ? { page: block.page } : {}),
    ...(block.bbox ? { bbox: block.bbox.map(round) as [number, number, number, number] } : {}),
  };
  switch (block.type) {
    case 'heading':
      return {
        ...placed,
        type: 'heading',
        level: Math.min(6, Math.max(1, Math.round(block.level))),
        content: inlines(block.text),
      };
    case 'paragraph':
      return { ...placed, type: 'paragraph', content: inlines(block.text) };
    case 'list':
      return {
        ...placed,
        type: 'list',
        ordered: block.ordered,
        ...(block.ordered && block.start !== undefined ? { start: Math.round(block.start) } : {}),
        items: block.items.map((item) => ({
          content: inlines(item.text),
          ...(item.checked !== undefined ? { checked: item.checked } : {}),
          ...(item.children?.length ? { blocks: item.children.map(docBlock) } : {}),
        })),
      };
    case 'table':
      return {
        ...placed,
        type: 'table',
        header_rows: Math.max(0, Math.round(block.headerRows ?? 1)),
        rows: block.rows.map((row) => row.map((cell) => ({ content: inlines(cell) }))),
      };
    case 'code':
      return {
        ...placed,
        type: 'code',
        text: clean(block.text),
        ...(block.language ? { language: block.language } : {}),
      };
    case 'quote':
      return { ...placed, type: 'quote', blocks: block.blocks.map(docBlock) };
    case 'rule':
      return { ...placed, type: 'rule' };
    case 'notes':
      return {
        ...placed,
        type: 'notes',
        notes: block.notes.map((n) => ({ id: n.id, blocks: n.blocks.map(docBlock) })),
      };
    case 'raw':
      return { ...placed, type: 'markdown', markdown: clean(block.markdown) };
  }
}

function inlines(nodes: Inline[]): DocInline[] {
  // A link whose target the Markdown writer would not write (javascript:, data:) is its text here too.
  return nodes.flatMap((n) => (n.type === 'link' && !isSafeTarget(n.url) ? inlines(n.children) : [docInline(n)]));
}

function docInline(n: Inline): DocInline {
  switch (n.type) {
    case 'text':
      return { type: 'text', text: clean(n.text) };
    case 'strong':
    case 'emphasis':
    case 'strike':
    case 'superscript':
    case 'subscript':
      return { type: n.type, children: inlines(n.children) };
    case 'code':
      return { type: 'code', text: clean(n.text) };
    case 'link':
      return { type: 'link', href: clean(n.url), children: inlines(n.children) };
    case 'image':
      return { type: 'image', alt: clean(n.alt) };
    case 'noteRef':
      return { type: 'note_ref', id: n.id };
    case 'math':
      return { type: 'math', tex: clean(n.tex), ...(n.display !== undefined ? { display: n.display } : {}) };
    case 'break':
      return { type: 'break' };
    case 'raw':
      return { type: 'text', text: clean(n.markdown) };
  }
}

/** Coordinates to 2 decimals: a hundredth of a point is below what any renderer shows. */
function round(v: number): number {
  return Math.round(v * 100) / 100;
}

function clean(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}
