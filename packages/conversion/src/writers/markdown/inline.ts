import type { Inline, InlineContent } from '../../document/model';
import { mergeNeighbours } from '../../document/builders';
import { escapeText } from './escaping';
import { inertRawMarkdown, inertTex } from './inert-markup';
import { isSafeTarget } from './link-targets';

/** Inline Markdown: emphasis, links, images, code, notes (escaping: ./escaping.ts). Inputs are plain text unless named `md`. */

/** Stands for a hard line break while inline content is rendered (so emphasis never wraps a break). */
const BREAK = '\uE000';
/** White space as `\s` counts it, above U+00A0 (below it: tab to carriage return and the space). */
const WIDE_SPACE = /\s/;

/**
 * `md` without white space and breaks at its ends, as `md.replace(/^[\s\uE000]+|[\s\uE000]+$/g, '')` gives it, by
 * index: the expression tries its second branch at every space of a paragraph, a large share of the writer's time.
 */
export function withoutEdges(md: string): string {
  let start = 0;
  let end = md.length;
  while (start < end && isEdge(md.charCodeAt(start))) start++;
  while (end > start && isEdge(md.charCodeAt(end - 1))) end--;
  return start === 0 && end === md.length ? md : md.slice(start, end);
}

function isEdge(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xe000) return true;
  return c >= 0xa0 && WIDE_SPACE.test(String.fromCharCode(c));
}

function wrap(md: string, marker: string, close = marker): string {
  const trimmed = withoutEdges(md);
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

/**
 * A link destination as written between `(` and `)`: in angle brackets when it holds spaces or
 * brackets. Line breaks, controls and angle brackets are percent-encoded and a backslash that
 * would escape what follows it is escaped, so the destination always closes where it should (an
 * unclosed `<…` would be read as an HTML tag).
 */
function destination(url: string): string {
  const written = url
    .replace(/[\u0000-\u001f\u007f-\u009f<>]|[^\S ]/g, encodeURIComponent)
    .replace(/\\(?=[!-/:-@[-`{-~]|$)/g, '\\\\');
  return /[\s()]/.test(written) ? `<${written}>` : written;
}

/** A link, when its target is one the Markdown may keep (./link-targets.ts); otherwise its text alone. */
export function link(md: string, url: string): string {
  if (!url || !isSafeTarget(url)) return md;
  const target = destination(url);
  return `[${md || escapeText(target)}](${target})`;
}

/** Images become alt-text placeholders (no data URIs, no binary), pointing at their address when the source gave one it may keep. */
export function imagePlaceholder(alt: string, src = ''): string {
  const text = alt.replace(/\s+/g, ' ').trim();
  const target = src && !/^data:/i.test(src) && isSafeTarget(src) ? destination(src) : '#';
  return `![${escapeText(text || 'image')}](${target})`;
}

/** A note's label as written in `[^label]`: what the source called it, without what would end or break the mark. */
export function noteLabel(id: string): string {
  return id.replace(/[\s\]^<>[\\`]+/g, '-');
}

type Marker = 'strong' | 'emphasis' | 'strike' | 'link';

/** What one rendering carries down the node tree. */
interface Context {
  open: Set<Marker>;
}

/**
 * Inline nodes as Markdown: the one place that escapes text and nests emphasis markers
 * (`**` strong, `*` emphasis, `~~` strike; a marker already open is not opened again, and
 * links never nest). `oneLine` is for headings, list items and table cells: breaks become spaces.
 */
export function renderInline(content: InlineContent, oneLine = false): string {
  let md = withoutEdges(renderNodes(content, { open: new Set() }));
  // Most inline content has no break and no newline: the passes for them are skipped then.
  const breaks = md.includes(BREAK);
  if (breaks) md = md.replace(/ *\uE000 */g, BREAK);
  if (oneLine && md.includes('\n')) md = md.replace(/\s*\n\s*/g, ' ');
  if (!breaks) return md;
  return oneLine ? md.replace(/\uE000/g, ' ') : md.replace(/\uE000/g, '\\\n');
}

function renderNodes(nodes: Inline[], ctx: Context): string {
  // Pieces joined once: a string grown node by node and read at its end each time is flattened again
  // and again (a paragraph of 40,000 styled words took seconds, mostly the kernel mapping memory).
  const parts: string[] = [];
  const all = joinTexts(mergeNeighbours(nodes));
  // Text is escaped knowing what is written after it: the next node, or, after the last, the
  // parent's closing marker (`**`, `~~`, `](`'s `]`, `</sup>`) or the line's end, none of which opens a link.
  const rendered = all.map((node) => (node.type === 'text' ? undefined : renderNode(node, ctx)));
  let following = '\n';
  for (let i = all.length - 1; i >= 0; i--) {
    const node = all[i]!;
    if (node.type === 'text') rendered[i] = escapeText(node.text, following);
    if (rendered[i]) following = rendered[i]![0]!;
  }
  for (const [i, md] of (rendered as string[]).entries()) {
    if (!md) continue;
    // A `<` ending one node and a letter starting the next would make a tag between them.
    const before = parts.length ? parts[parts.length - 1]! : '';
    if (before.endsWith('<') && /^[A-Za-z/!?]/.test(md)) parts[parts.length - 1] = `${before.slice(0, -1)}&lt;`;
    // A picture is a box of its own on the page: a letter or digit right before or after it (a caption
    // typed after its picture, "Figure 1: …") is set apart by a space, not run into its placeholder.
    // A symbol drawn as a picture (a web page's ™ or emoji image) stays where it stands in the word.
    const besideText =
      (isPicture(all[i - 1]) && /^[\p{L}\p{N}]/u.test(md)) || (isPicture(all[i]) && /[\p{L}\p{N}]$/u.test(before));
    if (besideText) parts.push(' ');
    parts.push(md);
  }
  return parts.join('');
}

/**
 * Neighbouring text nodes as one (a parser's line and its soft break are separate nodes): text is
 * escaped by what follows it, so `[!NOTE]` before a newline is seen to open no link. Neighbouring
 * code as one span too: a run in a code font split where its formatting changes (`13579BDF` + a
 * coloured `H`) would otherwise be written `` `13579BDF``H` ``, which Markdown reads as one span
 * holding the backticks.
 */
function joinTexts(nodes: Inline[]): Inline[] {
  const joins = (n: Inline, i: number): boolean =>
    (n.type === 'text' || n.type === 'code') && nodes[i + 1]?.type === n.type;
  if (!nodes.some(joins)) return nodes;
  const out: Inline[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.type === 'text' && last?.type === 'text')
      out[out.length - 1] = { type: 'text', text: last.text + node.text };
    else if (node.type === 'code' && last?.type === 'code')
      out[out.length - 1] = { type: 'code', text: last.text + node.text };
    else out.push(node);
  }
  return out;
}

/** An image that is a picture, not a symbol drawn as one: its text names it, or it has none. */
const isPicture = (n: Inline | undefined): boolean =>
  n?.type === 'image' && (!n.alt.trim() || /[\p{L}\p{N}]/u.test(n.alt));

const isNoteMark = (n: Inline): boolean => n.type === 'noteRef' || (n.type === 'text' && !n.text.trim());

function renderNode(node: Inline, ctx: Context): string {
  switch (node.type) {
    case 'text':
      return escapeText(node.text);
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
      if (ctx.open.has('link') || !node.url || !isSafeTarget(node.url)) return renderNodes(node.children, ctx);
      // White space at the link text's edges stays beside the link, as it shows (`a <a>link </a>b`).
      const md = renderNodes(node.children, { ...ctx, open: new Set([...ctx.open, 'link']) });
      const inner = withoutEdges(md);
      if (!inner) return link('', node.url);
      const start = md.indexOf(inner);
      return `${md.slice(0, start)}${link(inner.replace(/\uE000/g, ' '), node.url)}${md.slice(start + inner.length)}`;
    }
    case 'image':
      return imagePlaceholder(node.alt, node.src);
    case 'noteRef':
      return `[^${noteLabel(node.id)}]`;
    case 'math': {
      const tex = inertTex(node.tex.trim());
      if (!tex) return '';
      return node.display ? `$$${tex}$$` : `$${tex}$`;
    }
    case 'break':
      return BREAK;
    case 'raw':
      return inertRawMarkdown(node.markdown);
  }
}

function nested(children: Inline[], ctx: Context, marker: Marker, apply: (md: string) => string): string {
  if (ctx.open.has(marker)) return renderNodes(children, ctx);
  return apply(renderNodes(children, { ...ctx, open: new Set([...ctx.open, marker]) }));
}
