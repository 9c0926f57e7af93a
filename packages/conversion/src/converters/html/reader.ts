import type { Block, Inline, ListItem } from '../../markdown/model';
import { BLOCK_TAGS, descendantsOf, parseHtml, textOf, type HtmlElement, type HtmlNode } from './dom';

/** Elements nested deeper than this are read as their plain text (no stack overflow on hostile nesting). */
export const MAX_HTML_DEPTH = 200;
/** Cells kept per table when expanding spans, so a hostile rowspan cannot blow up memory. */
const MAX_GRID_CELLS = 200_000;
const MAX_SPAN = 100;

/** Never content: scripts, styles, embedded objects and form controls. */
const SKIPPED_TAGS = new Set([
  'head',
  'title',
  'meta',
  'link',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'button',
  'select',
  'textarea',
  'input',
]);
/** Class or id words that mark navigation and page chrome rather than content. */
const CHROME_WORDS = new Set([
  'nav',
  'navbar',
  'navbox',
  'navigation',
  'menu',
  'sidebar',
  'breadcrumb',
  'breadcrumbs',
  'toc',
  'cookie',
  'cookies',
  'banner',
  'skip',
  'jump',
  'editsection',
  'catlinks',
  'dropdown',
  'languages',
  'share',
  'social',
  'noprint',
]);
const CHROME_ROLES = new Set(['navigation', 'search', 'banner', 'contentinfo']);
/** Code languages named in class attributes: `language-py`, `lang-js`, `highlight-source-rust`, `brush: sql`. */
const LANGUAGE_CLASS = [
  /\blang(?:uage)?-([\w+#-]+)/i,
  /\bhighlight-source-([\w+#-]+)/i,
  /\bhighlight-([\w+#-]+)/i,
  /\bbrush:\s*([\w+#-]+)/i,
];

/** An HTML document or fragment as document blocks: the main content, page chrome left out. */
export function htmlToBlocks(html: string): Block[] {
  return readHtml(parseHtml(html));
}

export function readHtml(root: HtmlElement): Block[] {
  const content = mainContent(root);
  const blocks = new HtmlReader(true).blocks(content, 0);
  // A page that is all chrome (a bare menu) keeps what it has rather than converting to nothing.
  if (blocks.length === 0 && textOf(root, (el) => SKIPPED_TAGS.has(el.tag)).trim()) {
    return new HtmlReader(false).blocks(content, 0);
  }
  return blocks;
}

/** The <main> element, else the articles, else the whole document. */
function mainContent(root: HtmlElement): HtmlNode[] {
  const articles: HtmlElement[] = [];
  for (const el of descendantsOf(root)) {
    if (el.tag === 'main') return [el];
    if (el.tag === 'article' && !articles.some((a) => contains(a, el))) articles.push(el);
  }
  return articles.length ? articles : root.children;
}

function contains(ancestor: HtmlElement, el: HtmlElement): boolean {
  for (let p = el.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

const textNode = (value: string): Inline => ({ type: 'text', text: value });

class HtmlReader {
  constructor(private readonly dropChrome: boolean) {}

  /** Block context: inline runs gather into paragraphs, block elements become their blocks. */
  blocks(nodes: HtmlNode[], depth: number): Block[] {
    const out: Block[] = [];
    let run: Inline[] = [];
    const flush = (): void => {
      if (hasVisible(run)) out.push({ type: 'paragraph', text: tidy(run) });
      run = [];
    };
    for (const node of nodes) {
      if (typeof node === 'string') run.push(textNode(node));
      else if (this.skipped(node)) continue;
      else if (depth >= MAX_HTML_DEPTH) run.push(textNode(` ${textOf(node)} `));
      else if (BLOCK_TAGS.has(node.tag) || node.hasBlock) {
        flush();
        out.push(...this.block(node, depth + 1));
      } else run.push(...this.inline(node, depth + 1));
    }
    flush();
    return out;
  }

  private block(el: HtmlElement, depth: number): Block[] {
    const heading = /^h([1-6])$/.exec(el.tag);
    if (heading) {
      const text = tidy(this.inlines(el.children, depth));
      return hasVisible(text) ? [{ type: 'heading', level: Number(heading[1]), text }] : [];
    }
    switch (el.tag) {
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        return this.list(el, depth);
      case 'dl':
        return this.descriptionList(el, depth);
      case 'pre':
        return [codeBlock(el)];
      case 'blockquote': {
        const blocks = this.blocks(el.children, depth);
        return blocks.length ? [{ type: 'quote', blocks }] : [];
      }
      case 'hr':
        return [{ type: 'rule' }];
      case 'table':
        return this.table(el, depth);
      default:
        return this.blocks(el.children, depth);
    }
  }

  private list(el: HtmlElement, depth: number): Block[] {
    const items: ListItem[] = [];
    for (const child of el.children) {
      if (typeof child === 'string') {
        if (child.trim()) items.push({ text: tidy([textNode(child)]) });
        continue;
      }
      if (this.skipped(child)) continue;
      const blocks = child.tag === 'li' ? this.blocks(child.children, depth + 1) : this.block(child, depth + 1);
      if (child.tag !== 'li' && items.length) {
        // A list written straight inside a list (invalid, common) belongs to the item before it.
        const last = items[items.length - 1]!;
        last.children = [...(last.children ?? []), ...blocks];
        continue;
      }
      const [first, ...rest] = blocks;
      if (first?.type === 'paragraph') items.push({ text: first.text, children: rest.length ? rest : undefined });
      else if (blocks.length) items.push({ text: [], children: blocks });
    }
    if (!items.length) return [];
    const ordered = el.tag === 'ol';
    const start = Number.parseInt(el.attrs.start ?? '', 10);
    return [{ type: 'list', ordered, start: ordered && Number.isFinite(start) ? start : undefined, items }];
  }

  /** <dl>: each term a bold list item, its descriptions nested under it. */
  private descriptionList(dl: HtmlElement, depth: number): Block[] {
    const items: ListItem[] = [];
    let details: ListItem[] | undefined;
    const entries = dl.children.flatMap((c) => (typeof c !== 'string' && c.tag === 'div' ? c.children : [c]));
    for (const el of entries) {
      if (typeof el === 'string' || this.skipped(el)) continue;
      if (el.tag === 'dt') {
        details = [];
        items.push({ text: [{ type: 'strong', children: tidy(this.inlines(el.children, depth)) }] });
      } else if (el.tag === 'dd') {
        if (!details) {
          details = [];
          items.push({ text: [] });
        }
        const blocks = this.blocks(el.children, depth + 1);
        const [first, ...rest] = blocks;
        if (first?.type === 'paragraph') details.push({ text: first.text, children: rest.length ? rest : undefined });
        else if (blocks.length) details.push({ text: [], children: blocks });
        items[items.length - 1]!.children = [{ type: 'list', ordered: false, items: details }];
      }
    }
    return items.length ? [{ type: 'list', ordered: false, items }] : [];
  }

  /**
   * A table as a plain grid: merged cells repeated into each cell they cover (as a reader sees
   * them), nested tables flattened to text, the first row as the header. A table of one cell is
   * a layout box (a frame around a list or another table): its content is read as blocks.
   */
  private table(table: HtmlElement, depth: number): Block[] {
    const rows: HtmlElement[] = [];
    const captions: HtmlElement[] = [];
    for (const child of table.children) {
      if (typeof child === 'string' || this.skipped(child)) continue;
      if (child.tag === 'tr') rows.push(child);
      else if (child.tag === 'caption') captions.push(child);
      else if (/^t(head|body|foot)$/.test(child.tag)) {
        for (const tr of child.children) if (typeof tr !== 'string' && tr.tag === 'tr') rows.push(tr);
      }
    }
    const cellsOf = (tr: HtmlElement): HtmlElement[] =>
      tr.children.filter((c): c is HtmlElement => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th'));
    const allCells = rows.flatMap(cellsOf);
    if (allCells.length <= 1) return allCells[0] ? this.blocks(allCells[0].children, depth) : [];
    const grid: Inline[][][] = [];
    // Rows holding only the start of cells that span down, with gaps beside them, show as no row at all.
    const collapsed = new Set<number>();
    let count = 0;
    rows.forEach((tr, r) => {
      grid[r] ??= [];
      let c = 0;
      let ownRow = false;
      for (const cell of cellsOf(tr)) {
        while (grid[r]![c] !== undefined) c++;
        const colspan = span(cell.attrs.colspan);
        const rowspan = span(cell.attrs.rowspan);
        ownRow ||= rowspan === 1 || r + 1 >= rows.length;
        const content = tidy(this.inlines(cell.children, depth + 1));
        for (let dr = 0; dr < rowspan && r + dr < rows.length; dr++) {
          grid[r + dr] ??= [];
          for (let dc = 0; dc < colspan && count < MAX_GRID_CELLS; dc++, count++) grid[r + dr]![c + dc] = content;
        }
        c += colspan;
      }
      if (!ownRow) collapsed.add(r);
    });
    const width = grid.reduce((n, row) => Math.max(n, row.length), 0);
    for (const r of collapsed) {
      const row = grid[r]!;
      if (Array.from({ length: width }, (_, c) => row[c]).every((cell) => cell !== undefined)) collapsed.delete(r);
    }
    const caption = captions.map((el) => tidy(this.inlines(el.children, depth))).filter(hasVisible);
    return [
      ...caption.map((text): Block => ({ type: 'paragraph', text })),
      {
        type: 'table',
        rows: grid.filter((_, r) => !collapsed.has(r)).map((row) => Array.from(row, (cell) => cell ?? [])),
        headerRows: 1,
      },
    ];
  }

  /** Inline context: formatting becomes nodes; block elements met here are set apart by spaces. */
  private inlines(nodes: HtmlNode[], depth: number): Inline[] {
    const out: Inline[] = [];
    for (const node of nodes) {
      if (typeof node === 'string') out.push(textNode(node));
      else if (!this.skipped(node)) {
        if (depth >= MAX_HTML_DEPTH) out.push(textNode(` ${textOf(node)} `));
        else out.push(...this.inline(node, depth + 1));
      }
    }
    return out;
  }

  private inline(el: HtmlElement, depth: number): Inline[] {
    const children = (): Inline[] => this.inlines(el.children, depth);
    switch (el.tag) {
      case 'strong':
      case 'b':
        return [{ type: 'strong', children: children() }];
      case 'em':
      case 'i':
      case 'var':
      case 'dfn':
        return [{ type: 'emphasis', children: children() }];
      case 's':
      case 'strike':
      case 'del':
        return [{ type: 'strike', children: children() }];
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        return [{ type: 'code', text: textOf(el).replace(/\s+/g, ' ') }];
      case 'a': {
        const inner = children();
        const url = linkTarget(el.attrs.href);
        if (!url || !hasVisible(inner)) return inner;
        return [{ type: 'link', url, children: inner }];
      }
      case 'img': {
        const alt = (el.attrs.alt ?? '').replace(/\s+/g, ' ').trim();
        return alt ? [{ type: 'image', alt }] : [];
      }
      case 'br':
        return [{ type: 'break' }];
      case 'math': {
        const tex = el.attrs.alttext ?? '';
        return tex ? [{ type: 'math', tex, display: el.attrs.display === 'block' }] : [textNode(textOf(el))];
      }
      case 'ul':
      case 'ol':
      case 'menu': {
        // A list inside a table cell stays on the cell's line, its items set apart by dashes.
        const items = el.children.filter((c): c is HtmlElement => typeof c !== 'string' && c.tag === 'li');
        const joined = items
          .filter((li) => !this.skipped(li))
          .map((li) => this.inlines(li.children, depth))
          .filter(hasVisible)
          .flatMap((nodes, i) => (i ? [textNode(' - '), ...nodes] : nodes));
        return [textNode(' '), ...joined, textNode(' ')];
      }
      default:
        return BLOCK_TAGS.has(el.tag) || el.tag === 'td' || el.tag === 'th'
          ? [textNode(' '), ...children(), textNode(' ')]
          : children();
    }
  }

  private skipped(el: HtmlElement): boolean {
    if (SKIPPED_TAGS.has(el.tag) || el.attrs.hidden !== undefined) return true;
    if (/display:\s*none/i.test(el.attrs.style ?? '')) return true;
    if (!this.dropChrome) return false;
    if (el.tag === 'nav' || CHROME_ROLES.has(el.attrs.role ?? '') || el.attrs['aria-hidden'] === 'true') return true;
    if (el.attrs.class === undefined && el.attrs.id === undefined) return false;
    const words = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`.toLowerCase().split(/[\s_-]+/);
    return words.some((w) => CHROME_WORDS.has(w)) && !el.hasContent;
  }
}

function span(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), MAX_SPAN) : 1;
}

/** <pre>: a fenced block in the language its classes name, indentation shared by every line removed. */
function codeBlock(pre: HtmlElement): Block {
  const code = pre.children.find((c): c is HtmlElement => typeof c !== 'string' && c.tag === 'code');
  const language = [pre, code, pre.parent]
    .flatMap((el) => LANGUAGE_CLASS.map((re) => re.exec(el?.attrs.class ?? '')?.[1]))
    .find((l) => l && !/^(none|plain|text|nohighlight)$/i.test(l));
  return { type: 'code', text: dedent(textOf(pre)), language: language?.toLowerCase() };
}

/** Code text without the blank edge lines and the indentation every line shares (from the HTML source layout). */
function dedent(text: string): string {
  const lines = text
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
  return Number.isFinite(indent) && indent > 0 ? lines.map((l) => l.slice(indent)).join('\n') : lines.join('\n');
}

/** Where a link leads: search engines' tracking redirects unwrapped, script pseudo-links dropped. */
function linkTarget(href: string | undefined): string | undefined {
  const raw = href?.trim();
  if (!raw) return undefined;
  const target = unwrapRedirect(raw) ?? raw;
  return /^javascript:/i.test(target) ? undefined : target;
}

/** The destination of a search engine's click-tracking link (Bing ck/a, Google /url, DuckDuckGo /l/), if it is one. */
function unwrapRedirect(href: string): string | undefined {
  if (!/^https?:\/\/[^/]*(bing|google|duckduckgo)\./i.test(href)) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const u = url.searchParams.get('u');
  if (url.pathname.startsWith('/ck/') && u?.startsWith('a1')) {
    const decoded = Buffer.from(u.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (/^javascript:/i.test(decoded)) return decoded;
    return /^(https?:\/\/|\/[^/])/.test(decoded) ? new URL(decoded, url.origin).href : undefined;
  }
  const target =
    url.searchParams.get('uddg') ??
    (url.pathname === '/url' ? (url.searchParams.get('q') ?? url.searchParams.get('url')) : null);
  return target && /^https?:\/\//.test(target) ? target : undefined;
}

/** Content a reader sees: text other than white space, pictures, code, formulas, note marks. */
function hasVisible(nodes: Inline[]): boolean {
  const stack = [...nodes];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') {
      if (n.text.trim()) return true;
    } else if ('children' in n) stack.push(...n.children);
    else if (n.type !== 'break') return true;
  }
  return false;
}

/** HTML white space: runs collapse to one space, across formatting boundaries too; none after a break. */
function tidy(nodes: Inline[]): Inline[] {
  let spaced = true;
  const walk = (list: Inline[]): Inline[] =>
    list.flatMap((n): Inline[] => {
      switch (n.type) {
        case 'text': {
          let t = n.text.replace(/[ \t\n\r\f]+/g, ' ');
          if (spaced) t = t.replace(/^ /, '');
          if (!t) return [];
          spaced = t.endsWith(' ');
          return [{ type: 'text', text: t }];
        }
        case 'break':
          spaced = true;
          return [n];
        case 'strong':
        case 'emphasis':
        case 'strike':
        case 'link':
          return [{ ...n, children: walk(n.children) }];
        default:
          spaced = false;
          return [n];
      }
    });
  return walk(nodes);
}
