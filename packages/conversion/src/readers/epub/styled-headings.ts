import { descendantsOf, type HtmlElement } from '../shared/html/dom';
import { BODY_POINTS, type ClassFont } from '../shared/html/class-fonts';

/** A paragraph's type, as the heading rule reads it. */
interface ParagraphFont {
  /** Its smallest text size, in points rounded to a tenth. */
  size: number;
  chars: number;
  /** All its text bold. */
  bold: boolean;
  /** Short, and not in a list, table or figure: it may be a heading. */
  standalone: boolean;
  /** The family and colour of all its text ('' where none is set or its runs differ). */
  face: string;
}

/** The longest paragraph taken for a heading by its type alone: a title, not a bold lead paragraph. */
const MAX_HEADING_CHARS = 200;
/** Type this much larger than the body's marks a heading by its size alone (Word's 16 pt Heading 1 over 12 pt). */
const HEADING_SIZE_RATIO = 1.2;
/** Markdown has six heading levels. */
const MAX_LEVEL = 6;
/** Places a heading never stands in: its type there is a cell's or an item's. */
const NOT_IN = new Set(['li', 'td', 'th', 'table', 'dt', 'dd', 'caption', 'figcaption']);
const BOLD_TAGS = new Set(['b', 'strong']);

/**
 * Headings a book marks only by type: LibreOffice's EPUB export writes every paragraph as
 * `<p class="para2"><span class="span2">`, a heading's span styled in the stylesheet. A short
 * paragraph is a heading when its type is set apart from the body's (the most common size, family
 * and colour): larger and bold, larger in another family or colour, or much larger (Word's Title
 * and Heading 1 are not bold); at the body's size, bold in another family or colour (Word's
 * Heading 3). The larger its type, the higher its level; body-size headings come last.
 */
export class StyledHeadings {
  private levels = new Map<number, number>();
  /** The type of each paragraph of the pages read to find the body's (looked up again when they are read). */
  private readonly seen = new Map<HtmlElement, ParagraphFont>();

  private constructor(
    private readonly fonts: ReadonlyMap<string, ClassFont>,
    private readonly body = BODY_POINTS,
    private readonly bodyFace = '',
  ) {}

  /** Whether the book's class rules can mark a heading at all (most books' headings are `<h1>`…`<h6>`). */
  static couldMark(fonts: ReadonlyMap<string, ClassFont>): boolean {
    for (const f of fonts.values()) if (f.size !== undefined || (f.bold && (f.family || f.color))) return true;
    return false;
  }

  /** The book's type-marked headings, from its class rules and its parsed pages; undefined when none is. */
  static of(fonts: ReadonlyMap<string, ClassFont>, pages: HtmlElement[]): StyledHeadings | undefined {
    const probe = new StyledHeadings(fonts);
    const sizes = new Map<number, number>();
    const faces = new Map<string, number>();
    const candidates: ParagraphFont[] = [];
    for (const root of pages) {
      for (const el of descendantsOf(root)) {
        const font = probe.paragraphFont(el);
        if (font) probe.seen.set(el, font);
        if (!font) continue;
        sizes.set(font.size, (sizes.get(font.size) ?? 0) + font.chars);
        faces.set(font.face, (faces.get(font.face) ?? 0) + font.chars);
        if (font.standalone) candidates.push(font);
      }
    }
    const book = new StyledHeadings(fonts, mostCommon(sizes) ?? BODY_POINTS, mostCommon(faces) ?? '');
    for (const [el, font] of probe.seen) book.seen.set(el, font);
    const headingSizes = [...new Set(candidates.filter((c) => book.setApart(c)).map((c) => c.size))];
    if (!headingSizes.length) return undefined;
    headingSizes.sort((a, b) => b - a).forEach((size, i) => book.levels.set(size, Math.min(i + 1, MAX_LEVEL)));
    return book;
  }

  /** The heading level of a paragraph set in a heading's type, else undefined. */
  level(el: HtmlElement): number | undefined {
    const font = this.seen.get(el) ?? this.paragraphFont(el);
    return font?.standalone && this.setApart(font) ? this.levels.get(font.size) : undefined;
  }

  /** Whether a paragraph's type is a heading's beside the body's (see the class comment). */
  private setApart(font: ParagraphFont): boolean {
    const otherFace = font.face !== this.bodyFace;
    if (font.size === this.body) return font.bold && otherFace;
    return font.size > this.body && (font.bold || otherFace || font.size >= this.body * HEADING_SIZE_RATIO);
  }

  /** A paragraph's type (see ParagraphFont); undefined for other elements and paragraphs without text. */
  private paragraphFont(el: HtmlElement): ParagraphFont | undefined {
    if ((el.tag !== 'p' && el.tag !== 'div') || el.hasBlock) return undefined;
    let size = Infinity;
    let chars = 0;
    let bold = true;
    let face: string | undefined;
    const stack: Array<{ node: HtmlElement; font: ClassFont }> = [{ node: el, font: this.inherited(el) }];
    while (stack.length) {
      const { node, font } = stack.pop()!;
      for (const child of node.children) {
        if (typeof child !== 'string') {
          stack.push({ node: child, font: { ...font, ...this.ownFont(child) } });
          continue;
        }
        const n = child.trim().length;
        if (!n) continue;
        chars += n;
        size = Math.min(size, font.size ?? BODY_POINTS);
        bold &&= font.bold === true;
        const own = `${font.family ?? ''} ${font.color ?? ''}`.trim();
        face = face === undefined || face === own ? own : '';
      }
    }
    if (!chars) return undefined;
    let inside = false;
    for (let p = el.parent; p && !inside; p = p.parent) inside = NOT_IN.has(p.tag);
    return {
      size: Math.round(size * 10) / 10,
      chars,
      bold,
      standalone: !inside && chars <= MAX_HEADING_CHARS,
      face: face ?? '',
    };
  }

  /** The type an element sets itself, by its classes (the last class that says wins) or its tag. */
  private ownFont(el: HtmlElement): ClassFont {
    const out: ClassFont = BOLD_TAGS.has(el.tag) ? { bold: true } : {};
    for (const name of (el.attrs.class ?? '').split(/\s+/)) {
      const font = name ? this.fonts.get(name) : undefined;
      if (font) Object.assign(out, font);
    }
    return out;
  }

  /** The type an element has: each property its own, else the nearest ancestor's that sets it. */
  private inherited(el: HtmlElement): ClassFont {
    const chain: ClassFont[] = [];
    for (let at: HtmlElement | undefined = el; at; at = at.parent) chain.push(this.ownFont(at));
    return Object.assign({}, ...chain.reverse()) as ClassFont;
  }
}

/** The key counted most often, or undefined when there are none. */
function mostCommon<K>(counts: Map<K, number>): K | undefined {
  let best: K | undefined;
  let most = 0;
  for (const [key, n] of counts) if (n > most) [best, most] = [key, n];
  return best;
}
