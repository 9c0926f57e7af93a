import type { Block, Inline, InlineContent } from '../document/model';
import { escapeLineStart, renderInline, type InlineOptions } from '../writers/markdown/inline';
import { BOILERPLATE_REPEATS, isBoilerplateCandidate, optimizeMarkdownText } from './optimize-tokens-text';

/**
 * The model rewritten for fewer tokens (the writer's `optimizeTokens`), where the model knows
 * more than the Markdown text: bold that is the whole of a heading or of a header cell only
 * decorates it; a short paragraph repeated BOILERPLATE_REPEATS times or more (a running header or
 * footer) is kept once, and code, table cells and list items are never taken for one; `raw`
 * Markdown, which the model cannot see into, goes through the string pass.
 */
export function compactForTokens(blocks: Block[], opts: InlineOptions): Block[] {
  const counts = new Map<string, number>();
  const keys = new Map<InlineContent, string | undefined>();
  const keyOf = (text: InlineContent): string | undefined => {
    if (keys.has(text)) return keys.get(text);
    const md = renderInline(text, false, opts).trim();
    const key = !md.includes('\n') && isBoilerplateCandidate(escapeLineStart(md)) ? escapeLineStart(md) : undefined;
    keys.set(text, key);
    return key;
  };
  visitParagraphs(blocks, (text) => {
    const key = keyOf(text);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  const seen = new Set<string>();
  const keep = (text: InlineContent): boolean => {
    const key = keyOf(text);
    if (!key || (counts.get(key) ?? 0) < BOILERPLATE_REPEATS) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  return rewrite(blocks, keep);
}

function rewrite(blocks: Block[], keep: (text: InlineContent) => boolean): Block[] {
  return blocks.flatMap((b): Block[] => {
    switch (b.type) {
      case 'paragraph':
        return keep(b.text) ? [b] : [];
      case 'heading':
        return [{ ...b, text: undecorated(b.text) }];
      case 'table': {
        if ((b.headerRows ?? 1) <= 0 || !b.rows.length) return [b];
        const [header, ...body] = b.rows;
        return [{ ...b, rows: [header!.map(undecorated), ...body] }];
      }
      case 'quote':
        return [{ ...b, blocks: rewrite(b.blocks, keep) }];
      case 'list':
        return [
          { ...b, items: b.items.map((it) => (it.children ? { ...it, children: rewrite(it.children, keep) } : it)) },
        ];
      case 'notes':
        return [{ ...b, notes: b.notes.map((n) => ({ ...n, blocks: rewrite(n.blocks, keep) })) }];
      case 'raw':
        return [{ ...b, markdown: optimizeMarkdownText(b.markdown) }];
      default:
        return [b];
    }
  });
}

/** Paragraphs in reading order, wherever they are (quotes, list items, notes; not table cells). */
function visitParagraphs(blocks: Block[], fn: (text: InlineContent) => void): void {
  for (const b of blocks) {
    if (b.type === 'paragraph') fn(b.text);
    else if (b.type === 'quote') visitParagraphs(b.blocks, fn);
    else if (b.type === 'list') for (const it of b.items) visitParagraphs(it.children ?? [], fn);
    else if (b.type === 'notes') for (const n of b.notes) visitParagraphs(n.blocks, fn);
  }
}

/** Content that is one strong node (white space around it aside) without that node. */
function undecorated(text: InlineContent): InlineContent {
  if (typeof text === 'string') return text;
  const visible = text.filter((n) => n.type !== 'text' || n.text.trim());
  const only: Inline | undefined = visible.length === 1 ? visible[0] : undefined;
  return only?.type === 'strong' ? only.children : text;
}
