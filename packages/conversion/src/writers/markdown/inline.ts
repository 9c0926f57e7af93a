import type { Inline, InlineContent } from '../../document/model';

/** Inline Markdown: escaping and emphasis, links, images. Inputs are plain text unless named `md`. */

const ALWAYS = /[\\`*]/g;
/** A bracket pair with no bracket inside: the one shape of `[…]` that can be left as written. */
const BRACKET_PAIR = /\[([^[\]]*)\]/g;
/** What a closing bracket may be followed by without starting a link (`(`), a reference (`[`) or a definition (`:`). */
const INERT_AFTER = /[^([:]/;
/** `[ ]`, `[x]`: a task list box at the start of an item; `[^…]`: a footnote reference. */
const MARKUP_INSIDE = /^(?:[ xX]|\^.*|)$/s;
/** Every character one of escapeText's rules rewrites. */
export const ESCAPABLE = /[\\`*[\]_<]/;

/** Escapes plain text so it renders as itself, without escaping harmless characters. */
export function escapeText(text: string): string {
  // Most text (every number in a sheet) has nothing to escape: skip the three passes for it.
  if (!ESCAPABLE.test(text)) return text;
  return escapeBrackets(text.replace(ALWAYS, (c) => `\\${c}`))
    .replace(/(^|[^\p{L}\p{N}])_|_(?=$|[^\p{L}\p{N}])/gu, (m) => m.replace('_', '\\_'))
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/**
 * Escapes square brackets except a pair that can't be read as Markdown: nothing bracketed inside,
 * not a task box or footnote mark, and followed (within this text) by a character that opens no link,
 * reference or definition. A citation like `word.[11] Next` stays as written.
 */
function escapeBrackets(text: string): string {
  if (!/[[\]]/.test(text)) return text;
  let out = '';
  let last = 0;
  for (const m of text.matchAll(BRACKET_PAIR)) {
    const end = m.index + m[0].length;
    const next = text[end];
    out += text.slice(last, m.index).replace(/[[\]]/g, '\\$&');
    out += next !== undefined && INERT_AFTER.test(next) && !MARKUP_INSIDE.test(m[1]!) ? m[0] : `\\[${m[1]}\\]`;
    last = end;
  }
  return out + text.slice(last).replace(/[[\]]/g, '\\$&');
}

/** Escapes what only matters at the start of a line (headings, quotes, list markers). */
export function escapeLineStart(md: string): string {
  return (
    md
      // `>` opens a quote with or without a space after it; the others only before one.
      .replace(/^(\s*)(>|[#+-](?=\s|$))/, '$1\\$2')
      .replace(/^(\s*)(\d{1,9})([.)])(?=\s|$)/, '$1$2\\$3')
      .replace(/^(\s*)(={3,}|-{3,})\s*$/, '$1\\$2')
  );
}

/** Stands for a hard line break while inline content is rendered (so emphasis never wraps a break). */
const BREAK = '\uE000';
const EDGES = /^[\s\uE000]+|[\s\uE000]+$/g;

function wrap(md: string, marker: string, close = marker): string {
  const trimmed = md.replace(EDGES, '');
  if (!trimmed) return md;
  const start = md.indexOf(trimmed);
  return `${md.slice(0, start)}${marker}${trimmed}${close}${md.slice(start + trimmed.length)}`;
}

export const bold = (md: string): string => wrap(md, '**');
export const italic = (md: string): string => wrap(md, '*');
export const strike = (md: string): string => wrap(md, '~~');

export function code(text: string): string {
  const ticks = (text.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(ticks + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A link destination as written between `(` and `)`: in angle brackets when it holds spaces or brackets. */
function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

export function link(md: string, url: string): string {
  if (!url) return md;
  const safeUrl = destination(url);
  return `[${md || safeUrl}](${safeUrl})`;
}

/** Images become alt-text placeholders (no data URIs, no binary), pointing at their address when the source gave one. */
export function imagePlaceholder(alt: string, src = ''): string {
  const text = alt.replace(/\s+/g, ' ').trim();
  return `![${escapeText(text || 'image')}](${src && !/^data:/i.test(src) ? destination(src) : '#'})`;
}

type Marker = 'strong' | 'emphasis' | 'strike' | 'link';

export interface InlineOptions {
  /** Token optimisation: runs of spaces and tabs in text are written as one space. */
  optimizeTokens?: boolean;
}

/** What one rendering carries down the node tree. */
interface Context {
  open: Set<Marker>;
  opts: InlineOptions;
}

/**
 * Inline nodes as Markdown: the one place that escapes text and nests emphasis markers
 * (`**` strong, `*` emphasis, `~~` strike; a marker already open is not opened again, and
 * links never nest). `oneLine` is for headings, list items and table cells: breaks become spaces.
 */
export function renderInline(content: InlineContent, oneLine = false, opts: InlineOptions = {}): string {
  const md = renderNodes(content, { open: new Set(), opts })
    .replace(/^[\s\uE000]+|[\s\uE000]+$/g, '')
    .replace(/ *\uE000 */g, BREAK);
  return oneLine ? md.replace(/\s*\n\s*/g, ' ').replace(/\uE000/g, ' ') : md.replace(/\uE000/g, '\\\n');
}

function renderNodes(nodes: Inline[], ctx: Context): string {
  let out = '';
  for (const node of mergeNeighbours(nodes, ctx.opts.optimizeTokens)) out += renderNode(node, ctx);
  return out;
}

type Formatting = Extract<Inline, { type: 'strong' | 'emphasis' | 'strike' | 'superscript' | 'subscript' }>;

const FORMATTING: ReadonlySet<Inline['type']> = new Set(['strong', 'emphasis', 'strike', 'superscript', 'subscript']);

/** Formatting wrapped around inline children (not links: those carry a target). */
export const isFormatting = (n: Inline | undefined): n is Formatting => n !== undefined && FORMATTING.has(n.type);

/**
 * Neighbouring nodes of the same formatting as one (`**bold *both* again**`, not
 * `**bold*****both*****again**`): readers that see a run per formatting change need not merge.
 * With `acrossSpace` (token optimisation) a space between them joins too: `**Air India**`.
 */
function mergeNeighbours(nodes: Inline[], acrossSpace = false): Inline[] {
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

const isNoteMark = (n: Inline): boolean => n.type === 'noteRef' || (n.type === 'text' && !n.text.trim());

const isSpace = (n: Inline | undefined): boolean => n?.type === 'text' && n.text !== '' && !n.text.trim();

function renderNode(node: Inline, ctx: Context): string {
  switch (node.type) {
    case 'text':
      return escapeText(ctx.opts.optimizeTokens ? node.text.replace(/[ \t]{2,}/g, ' ') : node.text);
    case 'strong':
      return nested(node.children, ctx, 'strong', bold);
    case 'emphasis':
      return nested(node.children, ctx, 'emphasis', italic);
    case 'strike':
      return nested(node.children, ctx, 'strike', strike);
    case 'superscript':
    case 'subscript': {
      // GFM's inline HTML, with token optimisation too: `^2` and `~2~` are not GFM (`~2~` is even
      // strike-through there). HTML tags nest, so these open again inside themselves.
      const md = renderNodes(node.children, ctx);
      // A raised note mark is a note reference already: `[^1]`, not `<sup>[^1]</sup>`.
      if (node.children.every(isNoteMark)) return md;
      const tag = node.type === 'superscript' ? 'sup' : 'sub';
      return wrap(md, `<${tag}>`, `</${tag}>`);
    }
    case 'code':
      return node.text ? code(node.text.replace(/\s*\n\s*/g, ' ')) : '';
    case 'link': {
      if (ctx.open.has('link') || !node.url) return renderNodes(node.children, ctx);
      // White space at the link text's edges stays beside the link, as it shows (`a <a>link </a>b`).
      const md = renderNodes(node.children, { ...ctx, open: new Set([...ctx.open, 'link']) });
      const inner = md.replace(EDGES, '');
      if (!inner) return link('', node.url);
      const start = md.indexOf(inner);
      return `${md.slice(0, start)}${link(inner.replace(/\uE000/g, ' '), node.url)}${md.slice(start + inner.length)}`;
    }
    case 'image':
      return imagePlaceholder(node.alt, node.src);
    case 'noteRef':
      return `[^${node.id.replace(/[\s\]^]+/g, '-')}]`;
    case 'math': {
      const tex = node.tex.trim();
      if (!tex) return '';
      return node.display ? `$$${tex}$$` : `$${tex}$`;
    }
    case 'break':
      return BREAK;
    case 'raw':
      return node.markdown;
  }
}

function nested(children: Inline[], ctx: Context, marker: Marker, apply: (md: string) => string): string {
  if (ctx.open.has(marker)) return renderNodes(children, ctx);
  return apply(renderNodes(children, { ...ctx, open: new Set([...ctx.open, marker]) }));
}
