import { descendantsOf, parseHtml, type HtmlElement } from '../shared/html/dom';

/** The type a stylesheet gives a class: its size in points, and whether it is bold. */
interface ClassFont {
  size?: number;
  bold?: boolean;
}

/** Sizes in other units, in points; relative sizes are taken on the usual 12 pt body. */
const BODY_POINTS = 12;
const POINTS_PER_UNIT: Record<string, number> = {
  pt: 1,
  px: 0.75,
  em: BODY_POINTS,
  rem: BODY_POINTS,
  '%': BODY_POINTS / 100,
};
/** The longest paragraph taken for a heading by its type alone: a title, not a bold lead paragraph. */
const MAX_HEADING_CHARS = 200;
/** Markdown has six heading levels. */
const MAX_LEVEL = 6;
/** Places a heading never stands in: its type there is a cell's or an item's. */
const NOT_IN = new Set(['li', 'td', 'th', 'table', 'dt', 'dd', 'caption', 'figcaption']);
const BOLD_TAGS = new Set(['b', 'strong']);

/**
 * Headings a book marks only by type: LibreOffice's EPUB export writes every paragraph as
 * `<p class="para2"><span class="span2">`, a heading's span styled bold and larger than the body
 * in the stylesheet. A paragraph whose text is all bold and larger than the body's most common
 * size is a heading; the larger its type, the higher its level.
 */
export class StyledHeadings {
  private constructor(
    private readonly fonts: Map<string, ClassFont>,
    private readonly levels: Map<number, number>,
  ) {}

  /**
   * The book's type-marked headings, from its stylesheets and pages; undefined when no class is
   * both bold and sized (most books: their headings are `<h1>`…`<h6>`), without reading the pages.
   */
  static of(stylesheets: string[], pages: string[]): StyledHeadings | undefined {
    const fonts = new Map<string, ClassFont>();
    for (const css of stylesheets) readClassFonts(css, fonts);
    if (![...fonts.values()].some((f) => f.bold && f.size !== undefined)) return undefined;
    const probe = new StyledHeadings(fonts, new Map());
    const chars = new Map<number, number>();
    const candidates: number[] = [];
    for (const html of pages) {
      for (const el of descendantsOf(parseHtml(html))) {
        if (el.tag !== 'p' && el.tag !== 'div') continue;
        if (el.hasBlock) continue;
        const font = probe.paragraphFont(el);
        if (!font) continue;
        chars.set(font.size, (chars.get(font.size) ?? 0) + font.chars);
        if (font.heading) candidates.push(font.size);
      }
    }
    let body = BODY_POINTS;
    let most = 0;
    for (const [size, n] of chars) if (n > most) [body, most] = [size, n];
    const sizes = [...new Set(candidates.filter((s) => s > body))].sort((a, b) => b - a);
    if (!sizes.length) return undefined;
    return new StyledHeadings(fonts, new Map(sizes.map((s, i) => [s, Math.min(i + 1, MAX_LEVEL)])));
  }

  /** The heading level of a paragraph set in a heading's type, else undefined. */
  level(el: HtmlElement): number | undefined {
    if ((el.tag !== 'p' && el.tag !== 'div') || el.hasBlock) return undefined;
    const font = this.paragraphFont(el);
    return font?.heading ? this.levels.get(font.size) : undefined;
  }

  /**
   * A paragraph's type: its smallest text size (points, rounded to a tenth), its length, and
   * whether it could be a heading (all its text bold, short, not in a list, table or figure).
   */
  private paragraphFont(el: HtmlElement): { size: number; chars: number; heading: boolean } | undefined {
    let size = Infinity;
    let chars = 0;
    let bold = true;
    const stack: Array<{ node: HtmlElement; size?: number; bold?: boolean }> = [{ node: el, ...this.inherited(el) }];
    while (stack.length) {
      const { node, size: at, bold: isBold } = stack.pop()!;
      for (const child of node.children) {
        if (typeof child === 'string') {
          const n = child.trim().length;
          if (!n) continue;
          chars += n;
          size = Math.min(size, at ?? BODY_POINTS);
          bold &&= isBold === true;
        } else {
          const own = this.ownFont(child);
          stack.push({ node: child, size: own.size ?? at, bold: own.bold ?? isBold });
        }
      }
    }
    if (!chars) return undefined;
    let inside = false;
    for (let p = el.parent; p && !inside; p = p.parent) inside = NOT_IN.has(p.tag);
    return { size: Math.round(size * 10) / 10, chars, heading: bold && !inside && chars <= MAX_HEADING_CHARS };
  }

  /** The type an element sets itself, by its classes (the last class that says wins) or its tag. */
  private ownFont(el: HtmlElement): ClassFont {
    const out: ClassFont = BOLD_TAGS.has(el.tag) ? { bold: true } : {};
    for (const name of (el.attrs.class ?? '').split(/\s+/)) {
      const font = name ? this.fonts.get(name) : undefined;
      if (font?.size !== undefined) out.size = font.size;
      if (font?.bold !== undefined) out.bold = font.bold;
    }
    return out;
  }

  /** The type an element has: its own, else the nearest ancestor's that sets it. */
  private inherited(el: HtmlElement): ClassFont {
    const out: ClassFont = {};
    for (
      let at: HtmlElement | undefined = el;
      at && (out.size === undefined || out.bold === undefined);
      at = at.parent
    ) {
      const own = this.ownFont(at);
      out.size ??= own.size;
      out.bold ??= own.bold;
    }
    return out;
  }
}

/**
 * The font size and weight of the stylesheet's class rules (`.name`, `p.name`, one class per
 * selector): what LibreOffice writes, and what is enough to tell a heading's type from the body's.
 */
function readClassFonts(css: string, into: Map<string, ClassFont>): void {
  const rules = css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g);
  for (const [, selectors, body] of rules) {
    const font: ClassFont = {};
    const size = /(?:^|;)\s*font-size\s*:\s*([\d.]+)\s*(pt|px|em|rem|%)/i.exec(body!);
    if (size) font.size = parseFloat(size[1]!) * POINTS_PER_UNIT[size[2]!.toLowerCase()]!;
    const weight = /(?:^|;)\s*font-weight\s*:\s*([\w]+)/i.exec(body!)?.[1]?.toLowerCase();
    if (weight) font.bold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
    if (font.size === undefined && font.bold === undefined) continue;
    for (const selector of selectors!.split(',')) {
      const name = /^\s*[a-z]*\.([\w-]+)\s*$/i.exec(selector)?.[1];
      if (name) into.set(name, { ...into.get(name), ...font });
    }
  }
}
