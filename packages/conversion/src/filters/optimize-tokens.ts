import type { Block, Inline, InlineContent } from '../document/model';
import { mergeNeighbours } from '../document/builders';
import { escapeLineStart } from '../writers/markdown/escaping';
import { renderInline } from '../writers/markdown/inline';
import { BOILERPLATE_REPEATS, isBoilerplateCandidate, optimizeMarkdownText } from './optimize-tokens-text';

/**
 * Token optimisation (the API's `optimize_tokens`) as a filter on the model, applied before the
 * writer (which then writes tables without padding, `compactTables`): bold that is the whole of a
 * heading or of a header cell only decorates it; a short paragraph repeated BOILERPLATE_REPEATS
 * times or more (a running header or footer) is kept once, and code, table cells and list items
 * are never taken for one; runs of spaces in text are one space, and formatting split by a space
 * is one (`**Air India**`); `raw` Markdown, which the model cannot see into, goes through the
 * string pass (./optimize-tokens-text.ts).
 */
export function optimizeTokens(blocks: Block[]): Block[] {
  return mapInlines(dropBoilerplate(blocks), compactInline);
}

/** Runs of spaces and tabs in text as one space; neighbouring formatting of one kind across a space as one. */
function compactInline(nodes: Inline[]): Inline[] {
  return mergeNeighbours(nodes, true).map((n): Inline => {
    if (n.type === 'text') return /[ \t]{2,}/.test(n.text) ? { ...n, text: n.text.replace(/[ \t]{2,}/g, ' ') } : n;
    if ('children' in n) return { ...n, children: compactInline(n.children) } as Inline;
    return n;
  });
}

/** Every inline content of the blocks (paragraphs, headings, list items, cells, nested blocks) through `fn`. */
function mapInlines(blocks: Block[], fn: (nodes: Inline[]) => Inline[]): Block[] {
  return blocks.map((b): Block => {
    switch (b.type) {
      case 'paragraph':
      case 'heading':
        return { ...b, text: fn(b.text) };
      case 'table':
        return { ...b, rows: b.rows.map((row) => row.map(fn)) };
      case 'quote':
        return { ...b, blocks: mapInlines(b.blocks, fn) };
      case 'list':
        return {
          ...b,
          items: b.items.map((it) => ({
            ...it,
            text: fn(it.text),
            ...(it.children ? { children: mapInlines(it.children, fn) } : {}),
          })),
        };
      case 'notes':
        return { ...b, notes: b.notes.map((n) => ({ ...n, blocks: mapInlines(n.blocks, fn) })) };
      default:
        return b;
    }
  });
}

/** Short paragraphs repeated BOILERPLATE_REPEATS times kept once, decorating bold dropped, `raw` through the string pass. */
function dropBoilerplate(blocks: Block[]): Block[] {
  const counts = new Map<string, number>();
  const keys = new Map<InlineContent, string | undefined>();
  const keyOf = (text: InlineContent): string | undefined => {
    if (keys.has(text)) return keys.get(text);
    const md = renderInline(compactInline(text), false).trim();
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
