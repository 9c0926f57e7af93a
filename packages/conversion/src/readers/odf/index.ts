import type { Element } from '@xmldom/xmldom';
import type { DocumentMetadata } from '../../types';
import type { Reader } from '../reader';
import { noPageSelected, selectedPages } from '../../page-range';
import { ConversionError } from '../../types';
import { SafeZip } from '../../archive/safe-zip';
import { parseXml, type Document } from '../shared/office-properties';
import { attr, child, children, descendants } from '../shared/xml-dom';
import type { Block, Inline, ListItem, Note } from '../../document/model';
import { blocksAsInline, styled, withoutWholeEmphasis, type InlineStyle, type Position } from '../../document/builders';
import { inlineText, isBlankInline } from '../../document/predicates';
import { CODE_CHARS, CODE_CHAR_STYLE, CODE_STYLE, MONOSPACE, joinsCodeBeside } from '../shared/code-paragraphs';
import { QUOTE_STYLE } from '../shared/quote-styles';
import { DEFINITION_STYLE, TERM_STYLE, definitionLists, type DefinitionRole } from '../shared/definition-lists';
import { headingLevelOfStyleName } from '../shared/heading-styles';
import {
  inlines,
  isBlank,
  paragraphsToBlocks,
  slidesToBlocks,
  type ParagraphModel,
  type SlideModel,
} from '../shared/slides';
import { chartDataBlocks, type ChartData } from '../shared/charts';
import { odfChart } from '../shared/odf-chart';
import { imageAltText } from '../shared/alt-text';
import { formatNumber } from '../shared/list-numbers';
import { checkBoxCharacter } from '../shared/check-boxes';
import { withDrawnLists } from '../shared/drawn-lists';
import { inSymbolFont, symbolFont, type SymbolFont } from '../shared/symbol-font';
import { parseHtml, type HtmlElement } from '../shared/html/dom';
import { mathTex } from '../shared/html/mathml';

/** Text properties as one style sets them; undefined where it says nothing. */
interface TextProperties {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  position?: Position | 'baseline';
  /** Font size in points, where the style sets one in points. */
  size?: number;
  /** The font (style:font-name, else fo:font-family) is monospaced by its name. */
  mono?: boolean;
  /** The font is a symbol font ('none': a style's font that is not one, ending what a parent set). */
  symbolFont?: SymbolFont | 'none';
}

interface OdfStyle {
  parent?: string;
  text: TextProperties;
}

/** A run's look, and the symbol font its codes are drawn in (Symbol's Greek, Wingdings' marks). */
type OdfInlineStyle = InlineStyle & { symbolFont?: SymbolFont };

/** Parent hops followed at most (a cycle or a hostile chain stops there). */
const MAX_STYLE_DEPTH = 16;

/** How a numbered list level draws its label (ODF list-level-style-number). */
interface ListLabelFormat {
  format: string;
  prefix: string;
  suffix: string;
  /** Levels the label shows, this one and those above it ("1.2" shows 2). */
  shown: number;
  start: number;
}

/** List levels ODF defines (text:level 1 to 10). */
const MAX_LIST_LEVELS = 10;

interface OdfPackage {
  content: Document;
  meta: Document | undefined;
  zip: SafeZip;
  /** List style name → whether level 1.. is numbered. */
  numberedLists: Map<string, boolean[]>;
  /** `family:name` → the style's parent and own text properties (content's automatic styles first, then common ones). */
  styles: Map<string, OdfStyle>;
  /** Family → text properties of its default style. */
  defaults: Map<string, TextProperties>;
  /** Paragraph style name → its parent style, to find Title / Subtitle paragraphs. */
  parents: Map<string, string>;
  /** Style name → its display name, where the name alone does not say it ("heading-1" for "heading 1"). */
  displayNames: Map<string, string>;
  /** The last number of each top-level list read, by its xml:id and (the latest) by its list style. */
  listEnds: { byId: Map<string, number>; byStyle: Map<string, number> };
  /** A short monospaced paragraph's text (by its inline nodes), to join the code block it stands next to. */
  monoLines: WeakMap<Inline[], string>;
  /** Paragraphs in a definition list's term or definition style, by their text. */
  definitionRoles: WeakMap<Inline[], DefinitionRole>;
  /** Text boxes and shapes read as blocks after the paragraph they are anchored in, not as its text. */
  liftedShapes: WeakSet<Element>;
  /** While a table is read: the blocks of the charts in its cells, which follow the table. */
  cellCharts?: Block[];
  /** List style name → how each level (from 1) numbers: format ("1", "a", "I"…), prefix, suffix, levels shown. */
  listLabels: Map<string, ListLabelFormat[]>;
  /** Numbered headings' counters by list style, carried from list to list while numbering continues. */
  headingCounters: Map<string, number[]>;
  /** A comment's note id by its name, marked at its `office:annotation-end`. */
  commentEnds: Map<string, string>;
}

function openOdf(input: Buffer, label: string): OdfPackage {
  const zip = new SafeZip(input, label);
  const contentXml = zip.textOf('content.xml');
  if (!contentXml) throw new ConversionError('corrupt_file', `The ${label} has no content.xml.`);
  const manifest = zip.textOf('META-INF/manifest.xml') ?? '';
  if (/encryption-data/.test(manifest))
    throw new ConversionError('encrypted_file', `The ${label} is password-protected.`);
  const content = parseXml(contentXml, label);
  const stylesXml = zip.textOf('styles.xml');
  const stylesDoc = stylesXml ? parseXml(stylesXml, label) : undefined;
  // styles.xml's own automatic styles serve its headers and footers and reuse content's names (P1, T1).
  const styleElements = [
    ...descendants(content, 'style'),
    ...descendants(stylesDoc, 'style').filter((st) => (st.parentNode as Element | null)?.localName === 'styles'),
  ];
  const numberedLists = new Map<string, boolean[]>();
  const styles = new Map<string, OdfStyle>();
  const parents = new Map<string, string>();
  const displayNames = new Map<string, string>();
  for (const st of styleElements) {
    const name = attr(st, 'name') ?? '';
    const key = `${attr(st, 'family') ?? ''}:${name}`;
    if (styles.has(key)) continue;
    const parent = attr(st, 'parent-style-name');
    if (parent && !parents.has(name)) parents.set(name, parent);
    const displayName = attr(st, 'display-name');
    if (displayName && !displayNames.has(name)) displayNames.set(name, displayName);
    styles.set(key, { parent, text: textProperties(child(st, 'text-properties')) });
  }
  const defaults = new Map<string, TextProperties>();
  for (const st of descendants(stylesDoc, 'default-style'))
    defaults.set(attr(st, 'family') ?? '', textProperties(child(st, 'text-properties')));
  const listLabels = new Map<string, ListLabelFormat[]>();
  for (const doc of [content, stylesDoc]) {
    for (const ls of descendants(doc, 'list-style')) {
      const levels: boolean[] = [];
      const labels: ListLabelFormat[] = [];
      for (const lvl of children(ls)) {
        const at = Number(attr(lvl, 'level') ?? 1) - 1;
        levels[at] = lvl.localName === 'list-level-style-number';
        if (levels[at] && at >= 0 && at < MAX_LIST_LEVELS)
          labels[at] = {
            format: attr(lvl, 'num-format') ?? '',
            prefix: attr(lvl, 'num-prefix') ?? '',
            suffix: attr(lvl, 'num-suffix') ?? '',
            shown: Math.max(1, Number(attr(lvl, 'display-levels') ?? 1) || 1),
            start: Number(attr(lvl, 'start-value') ?? 1) || 1,
          };
      }
      numberedLists.set(attr(ls, 'name') ?? '', levels);
      if (!listLabels.has(attr(ls, 'name') ?? '')) listLabels.set(attr(ls, 'name') ?? '', labels);
    }
  }
  const metaXml = zip.textOf('meta.xml');
  return {
    zip,
    content,
    meta: metaXml ? parseXml(metaXml, label) : undefined,
    numberedLists,
    styles,
    defaults,
    parents,
    displayNames,
    listEnds: { byId: new Map(), byStyle: new Map() },
    monoLines: new WeakMap(),
    definitionRoles: new WeakMap(),
    liftedShapes: new WeakSet(),
    commentEnds: new Map(),
    listLabels,
    headingCounters: new Map(),
  };
}

/** What a style:text-properties element sets: weight, slant, line-through, raise or lower. */
function textProperties(tp: Element | undefined): TextProperties {
  const weight = attr(tp, 'font-weight');
  const slant = attr(tp, 'font-style');
  // AbiWord writes only the type ("single"); the style's "none" still wins where both are set.
  const through = attr(tp, 'text-line-through-style') ?? attr(tp, 'text-line-through-type');
  const position = attr(tp, 'text-position');
  const size = /^([\d.]+)pt$/.exec(attr(tp, 'font-size') ?? '')?.[1];
  const font = attr(tp, 'font-name') ?? attr(tp, 'font-family');
  return {
    mono: font === undefined ? undefined : MONOSPACE.test(font),
    symbolFont: font === undefined ? undefined : (symbolFont(font) ?? 'none'),
    size: size === undefined ? undefined : Number(size),
    bold: weight === undefined ? undefined : /bold|[6-9]00/.test(weight),
    italic: slant === undefined ? undefined : slant === 'italic' || slant === 'oblique',
    strike: through === undefined ? undefined : through !== 'none',
    position: position === undefined ? undefined : (textPosition(position) ?? 'baseline'),
  };
}

/** What a style (through its parents, then with `withDefault` the family's default style) sets for `key`. */
function styleProperty<K extends keyof TextProperties>(
  pkg: OdfPackage,
  family: string,
  name: string,
  key: K,
  withDefault: boolean,
): TextProperties[K] {
  for (let n: string | undefined = name, hops = 0; n && hops < MAX_STYLE_DEPTH; hops++) {
    const st = pkg.styles.get(`${family}:${n}`);
    if (!st) break;
    if (st.text[key] !== undefined) return st.text[key];
    n = st.parent;
  }
  return withDefault ? pkg.defaults.get(family)?.[key] : undefined;
}

/**
 * Whether all of a paragraph's text is set in a monospaced font (by its paragraph style, or by the
 * spans around each piece of text), as a code listing typed in Courier or Consolas is.
 */
function isMonospaced(p: Element, pkg: OdfPackage): boolean {
  let text = false;
  const all = (el: Element, mono: boolean): boolean => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && (n.nodeValue ?? '').trim()) {
        text = true;
        if (!mono) return false;
      } else if (n.nodeType === 1) {
        const e = n as Element;
        if (e.localName === 'note' || e.localName === 'annotation' || e.localName === 'frame') continue;
        const own =
          e.localName === 'span' ? styleProperty(pkg, 'text', attr(e, 'style-name') ?? '', 'mono', false) : undefined;
        if (!all(e, own ?? mono)) return false;
      }
    }
    return true;
  };
  const paragraphMono = styleProperty(pkg, 'paragraph', attr(p, 'style-name') ?? '', 'mono', true) ?? false;
  return all(p, paragraphMono) && text;
}

/**
 * `base` with a style applied: each property from the style, else the nearest parent that sets it,
 * else (with `withDefault`) the family's default style; what none of them sets stays as in `base`.
 */
function applyStyle(
  base: OdfInlineStyle,
  pkg: OdfPackage,
  family: string,
  name: string,
  withDefault: boolean,
): OdfInlineStyle {
  const levels: TextProperties[] = [];
  for (let n: string | undefined = name, hops = 0; n && hops < MAX_STYLE_DEPTH; hops++) {
    const st = pkg.styles.get(`${family}:${n}`);
    if (!st) break;
    levels.push(st.text);
    n = st.parent;
  }
  if (withDefault) levels.push(pkg.defaults.get(family) ?? {});
  const first = <K extends keyof TextProperties>(key: K): TextProperties[K] =>
    levels.find((l) => l[key] !== undefined)?.[key];
  const position = first('position') ?? base.position;
  const font = first('symbolFont') ?? base.symbolFont;
  return {
    bold: first('bold') ?? base.bold,
    italic: first('italic') ?? base.italic,
    strike: first('strike') ?? base.strike,
    position: position === 'baseline' ? undefined : position,
    ...(font && font !== 'none' && { symbolFont: font }),
  };
}

/** Formatting a paragraph's text starts from: its paragraph style's; none for headings (docs/decisions.md). */
function paragraphStyle(el: Element, pkg: OdfPackage): OdfInlineStyle {
  const style = attr(el, 'style-name') ?? '';
  if (el.localName !== 'p' || titleRole(style, pkg)) return PLAIN;
  return applyStyle(PLAIN, pkg, 'paragraph', style, true);
}

const PLAIN: InlineStyle = {};

/**
 * style:text-position ("super 58%", "sub", "33% 58%", "-33% 58%"): its first value is the raise,
 * a keyword or a percentage of the font height; positive is raised, negative lowered, 0% none.
 */
function textPosition(value: string | undefined): Position | undefined {
  const raise = value?.trim().split(/\s+/)[0];
  if (raise === 'super' || raise === 'sub') return raise;
  const percent = Number.parseFloat(raise ?? '');
  if (!Number.isFinite(percent) || percent === 0) return undefined;
  return percent > 0 ? 'super' : 'sub';
}

function odfMetadata(pkg: OdfPackage, pages: number): DocumentMetadata {
  const text = (local: string): string => descendants(pkg.meta, local)[0]?.textContent?.trim() ?? '';
  return { title: text('title'), author: text('creator') || text('initial-creator'), page_count: pages };
}

const space: Inline = { type: 'text', text: ' ' };
const SVG_NS = 'urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0';
/** Spaces one <text:s c="…"/> may stand for (a hostile count cannot allocate without bound). */
const MAX_SPACES = 64;

/**
 * Inline nodes of a paragraph-like element: spans with emphasis, links, spaces, tabs, notes. Text
 * carries the formatting its paragraph and enclosing spans resolve to (`fmt`), so a span can also
 * turn off what its paragraph sets; the writer joins neighbours formatted alike.
 */
function inline(el: Element, pkg: OdfPackage, notes: Note[], fmt: OdfInlineStyle = paragraphStyle(el, pkg)): Inline[] {
  const out: Inline[] = [];
  const text = (t: string): void => {
    // Text in a symbol font (LibreOffice keeps Word's symbols as private-use codes in that font).
    const drawn = fmt.symbolFont ? inSymbolFont(t, fmt.symbolFont) : t;
    out.push(...styled([{ type: 'text', text: drawn }], fmt));
  };
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) {
      text((n.nodeValue ?? '').replace(/\s+/g, ' '));
      continue;
    }
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    switch (e.localName) {
      case 's':
        text(' '.repeat(Math.min(Number(attr(e, 'c') ?? 1) || 1, MAX_SPACES)));
        break;
      case 'tab':
        text(' ');
        break;
      case 'line-break':
        out.push({ type: 'break' });
        break;
      case 'span': {
        const style = attr(e, 'style-name') ?? '';
        // Inline code (pandoc's and LibreOffice's "Source Text", "Verbatim Char"): its text as typed,
        // spaces kept; a span holding a note or a comment is read as text, so they keep their references.
        const code =
          styleNamed(style, pkg, CODE_CHAR_STYLE, 'text') &&
          !descendants(e, 'note').length &&
          !descendants(e, 'annotation').length
            ? inlineText(inline(e, pkg, notes, PLAIN), '')
            : '';
        if (code.trim()) out.push(...styled([{ type: 'code', text: code }], fmt));
        else out.push(...inline(e, pkg, notes, applyStyle(fmt, pkg, 'text', style, false)));
        break;
      }
      case 'a': {
        const url = attr(e, 'href') ?? '';
        const inner = inline(e, pkg, notes, fmt);
        out.push(...(url ? [{ type: 'link' as const, url, children: inner }] : inner));
        break;
      }
      case 'note': {
        const id = String(notes.filter((x) => !x.id.startsWith('c')).length + 1);
        const note: Note = { id, blocks: [] };
        notes.push(note);
        note.blocks = textBlocks(child(e, 'note-body'), pkg, notes);
        out.push({ type: 'noteRef', id });
        break;
      }
      case 'annotation': {
        // A reviewer's comment anchored in the text: a note like DOCX comments, not text of the line.
        const id = `c${notes.filter((x) => x.id.startsWith('c')).length + 1}`;
        const note: Note = { id, blocks: [] };
        notes.push(note);
        const author = child(e, 'creator')?.textContent?.trim();
        const lead: Inline = { type: 'text', text: author ? `Comment by ${author}: ` : 'Comment: ' };
        const [first, ...rest] = textBlocks(e, pkg, notes);
        note.blocks =
          first?.type === 'paragraph'
            ? [{ type: 'paragraph', text: [lead, ...first.text] }, ...rest]
            : [{ type: 'paragraph', text: [lead] }, ...(first ? [first, ...rest] : [])];
        // A comment on a span of text is marked where the span ends, as Word marks it, when that is in this paragraph.
        const name = attr(e, 'name');
        if (name && annotationEnd(e, name)) pkg.commentEnds.set(name, id);
        else out.push({ type: 'noteRef', id });
        break;
      }
      case 'annotation-end': {
        const id = pkg.commentEnds.get(attr(e, 'name') ?? '');
        if (id) out.push({ type: 'noteRef', id });
        break;
      }
      case 'fieldmark':
        // A Word form check box through LibreOffice: its state is a parameter, it has no text.
        if (/FORMCHECKBOX$/.test(attr(e, 'type') ?? '')) {
          const checked = children(e, 'param').some(
            (p) => attr(p, 'name') === 'Checkbox_Checked' && attr(p, 'value') === 'true',
          );
          text(checkBoxCharacter(checked));
        }
        break;
      case 'title':
      case 'desc':
        // A drawn shape's SVG title and description name it for accessibility; they are not shown.
        if (e.namespaceURI !== SVG_NS) out.push(...inline(e, pkg, notes, fmt));
        break;
      case 'p':
        // A paragraph inside a drawn shape anchored in this one: its text, set apart by spaces.
        out.push(space, ...inline(e, pkg, notes), space);
        break;
      case 'frame':
        if (!pkg.liftedShapes.has(e)) out.push(...frameText(e, pkg, notes));
        break;
      case 'bookmark':
      case 'bookmark-start':
      case 'bookmark-end':
      case 'soft-page-break':
        break;
      default:
        if (!pkg.liftedShapes.has(e)) out.push(...inline(e, pkg, notes, fmt));
    }
  }
  return out;
}

/** The end of the comment named `name` in the paragraph that holds `annotation`, if there is one. */
function annotationEnd(annotation: Element, name: string): Element | undefined {
  let p = annotation.parentNode as Element | null;
  while (p && p.localName !== 'p' && p.localName !== 'h') p = p.parentNode as Element | null;
  return p ? descendants(p, 'annotation-end').find((end) => attr(end, 'name') === name) : undefined;
}

/** Drawing shapes that can hold paragraphs of their own (ODF 1.2, 10.3). */
const TEXT_SHAPES = new Set([
  'custom-shape',
  'rect',
  'ellipse',
  'circle',
  'polygon',
  'regular-polygon',
  'polyline',
  'path',
  'caption',
]);

/** What makes a text box or shape a body of its own: paragraphs, headings, lists, tables (a Word table in a frame). */
const BLOCKS_IN_SHAPES = new Set(['p', 'h', 'list', 'table', 'section']);

/** What a paragraph's text leaves out and its blocks follow: a text box's or shape's container of blocks, or a chart object's data. */
type Lifted = { container: Element } | { chart: ChartData };

/**
 * The text boxes and shapes with paragraphs anchored in a paragraph (a sidebar, a callout), and the
 * chart objects in it: each marked so the paragraph's own text leaves them out. Their text, and a
 * chart's title, kind and data (as a slide's chart reads), are blocks after the paragraph, as the
 * DOCX and DOC readers place text boxes.
 */
function anchoredTextShapes(p: Element, pkg: OdfPackage): Lifted[] {
  const out: Lifted[] = [];
  const walk = (el: Element): void => {
    for (const c of children(el)) {
      const box = c.localName === 'frame' ? child(c, 'text-box') : undefined;
      const container = box ?? (TEXT_SHAPES.has(c.localName ?? '') ? c : undefined);
      const object = c.localName === 'frame' && !box ? child(c, 'object') : undefined;
      const chart = object ? odfChart(pkg.zip, attr(object, 'href') ?? '') : undefined;
      if (container && children(container).some((k) => BLOCKS_IN_SHAPES.has(k.localName ?? ''))) {
        pkg.liftedShapes.add(c);
        out.push({ container });
      } else if (chart) {
        pkg.liftedShapes.add(c);
        out.push({ chart });
      } else if (c.localName !== 'note' && c.localName !== 'annotation' && c.localName !== 'frame') walk(c);
    }
  };
  walk(p);
  return out;
}

function frameText(frame: Element, pkg: OdfPackage, notes: Note[]): Inline[] {
  const box = child(frame, 'text-box');
  if (box) return children(box).flatMap((p) => [space, ...inline(p, pkg, notes), space]);
  const object = child(frame, 'object');
  const tex = object ? formulaTex(pkg.zip, attr(object, 'href') ?? '') : undefined;
  if (tex) return [{ type: 'math', tex }];
  if (child(frame, 'image')) {
    const alt = imageAltText(
      child(frame, 'desc')?.textContent,
      child(frame, 'title')?.textContent,
      attr(frame, 'name'),
    );
    return [{ type: 'image', alt }];
  }
  return [];
}

/**
 * A formula object's TeX: LibreOffice Math keeps the formula as MathML in the object's
 * content.xml (its picture replacement beside it is only a rendering).
 */
function formulaTex(zip: SafeZip, href: string): string | undefined {
  const dir = href.replace(/^\.\//, '').replace(/\/$/, '');
  const xml = dir ? zip.textOf(`${dir}/content.xml`) : undefined;
  if (!xml || !/<(?:\w+:)?math\b/.test(xml)) return undefined;
  // The MathML namespace may carry a prefix (math:mi): the reader of MathML goes by bare names.
  const root = parseHtml(xml.replace(/<(\/?)\w+:/g, '<$1'));
  const math = findElement(root, 'math');
  const tex = math ? mathTex(math) : '';
  return tex || undefined;
}

function findElement(root: HtmlElement, tag: string): HtmlElement | undefined {
  const stack: HtmlElement[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.tag === tag) return el;
    for (const c of el.children) if (typeof c !== 'string') stack.push(c);
  }
  return undefined;
}

/** Body elements of a text document (or a cell, a section, a list item) to blocks. */
function textBlocks(container: Element | undefined, pkg: OdfPackage, notes: Note[]): Block[] {
  return bodyBlocks(elementBlocks(children(container), pkg, notes), pkg);
}

function elementBlocks(elements: Element[], pkg: OdfPackage, notes: Note[]): Block[] {
  const blocks: Block[] = [];
  for (const el of elements) {
    if (el.localName === 'p' && styleNamed(attr(el, 'style-name') ?? '', pkg, CODE_STYLE)) {
      // Blank lines of a listing are code paragraphs too: kept until the blocks are joined.
      blocks.push({ type: 'code', text: inlineText(inline(el, pkg, notes), '\n') });
      continue;
    }
    if (
      el.localName === 'p' &&
      !titleRole(attr(el, 'style-name') ?? '', pkg) &&
      !descendants(el, 'note').length &&
      !descendants(el, 'annotation').length &&
      isMonospaced(el, pkg)
    ) {
      // All in a monospaced font: code when it reads like code (as in the DOCX and RTF readers), and
      // a short line ("done") a line of the code beside it. (Without notes, reading it twice adds none.)
      const nodes = inline(el, pkg, notes);
      const text = inlineText(nodes, '\n').replace(/\s+$/, '');
      if (CODE_CHARS.test(text)) {
        blocks.push({ type: 'code', text });
        continue;
      }
      if (joinsCodeBeside(text)) {
        const block: Block = { type: 'paragraph', text: nodes };
        pkg.monoLines.set(block.text, text);
        blocks.push(block);
        continue;
      }
    }
    const shapes = el.localName === 'p' || el.localName === 'h' ? anchoredTextShapes(el, pkg) : [];
    switch (el.localName) {
      case 'h':
        blocks.push({
          type: 'heading',
          level: Number(attr(el, 'outline-level') ?? 1),
          text: withoutWholeEmphasis(inline(el, pkg, notes)),
        });
        break;
      case 'p': {
        const text = displayedFormula(inline(el, pkg, notes));
        const role = titleRole(attr(el, 'style-name') ?? '', pkg);
        if (isBlank(text)) break;
        if (role) blocks.push({ type: 'heading', level: role, text: withoutWholeEmphasis(text) });
        else if (styleNamed(attr(el, 'style-name') ?? '', pkg, QUOTE_STYLE))
          blocks.push({ type: 'quote', blocks: [{ type: 'paragraph', text }] });
        else {
          const style = attr(el, 'style-name') ?? '';
          if (styleNamed(style, pkg, TERM_STYLE)) pkg.definitionRoles.set(text, 'term');
          else if (styleNamed(style, pkg, DEFINITION_STYLE)) pkg.definitionRoles.set(text, 'definition');
          blocks.push({ type: 'paragraph', text });
        }
        break;
      }
      case 'list':
        if (holdsOnlyHeadings(el)) blocks.push(...numberedHeadings(el, pkg, notes));
        else blocks.push(...listBlocks(el, pkg, notes, attr(el, 'style-name') ?? '', 0));
        break;
      case 'table':
        blocks.push(...tableBlocks(el, pkg, notes));
        break;
      case 'section':
      case 'text-content':
      case 'index-title':
        blocks.push(...textBlocks(el, pkg, notes));
        break;
      case 'table-of-content':
      case 'illustration-index':
      case 'table-index':
      case 'object-index':
      case 'user-index':
      case 'alphabetical-index':
      case 'bibliography':
        // A generated index as the file last showed it (as DOCX keeps a TOC field's result); its entries'
        // links to the document's own headings lead nowhere outside it.
        blocks.push(...textBlocks(child(el, 'index-body'), pkg, notes).map(withoutInternalLinks));
        break;
      default:
        break;
    }
    for (const shape of shapes) {
      if ('chart' in shape) (pkg.cellCharts ?? blocks).push(...chartDataBlocks(shape.chart));
      else blocks.push(...textBlocks(shape.container, pkg, notes));
    }
  }
  return blocks;
}

/** A formula that stands alone in its paragraph is displayed, as Word's equation on its own line. */
function displayedFormula(text: Inline[]): Inline[] {
  const shown = text.filter((n) => n.type !== 'text' || n.text.trim());
  const only = shown.length === 1 ? shown[0] : undefined;
  return only?.type === 'math' ? [{ ...only, display: true }] : text;
}

/** A paragraph or heading whose links to places in the document (`#…`) are plain text. */
function withoutInternalLinks(block: Block): Block {
  if (block.type !== 'paragraph' && block.type !== 'heading') return block;
  const unlink = (nodes: Inline[]): Inline[] =>
    nodes.flatMap((n) => (n.type === 'link' && n.url.startsWith('#') ? unlink(n.children) : [n]));
  return { ...block, text: unlink(block.text) };
}

/** A text body's blocks with code paragraphs joined, continued lists nested and definition lists made. */
function bodyBlocks(blocks: Block[], pkg: OdfPackage): Block[] {
  return definitionLists(joinCodeParagraphs(nestContinuedLists(blocks), pkg), (b) =>
    b.type === 'paragraph' ? pkg.definitionRoles.get(b.text) : undefined,
  );
}

type ListBlock = Extract<Block, { type: 'list' }>;

/**
 * A list that opens with an item of no paragraph of its own holding a nested list goes on from the
 * list just before it: its nested items belong under that list's last item, one level down (ODF
 * 1.2, 5.3.3: such an item only carries the level; LibreOffice writes a Word list whose levels use
 * different list styles so, each level a list of its own). Without this the item is an empty bullet.
 */
function nestContinuedLists(blocks: Block[]): Block[] {
  if (!blocks.some((b, i) => i > 0 && b.type === 'list' && blocks[i - 1]!.type === 'list' && opensNested(b)))
    return blocks;
  const out: Block[] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (block.type !== 'list' || last?.type !== 'list' || !opensNested(block)) {
      out.push(block);
      continue;
    }
    const [first, ...rest] = block.items;
    const joined = withNestedUnderLast(last, first!.children![0] as ListBlock);
    out[out.length - 1] =
      rest.length && joined.ordered === block.ordered ? { ...joined, items: [...joined.items, ...rest] } : joined;
    if (rest.length && joined.ordered !== block.ordered) out.push({ ...block, items: rest });
  }
  return out;
}

/** Whether a list's first item has no text and holds just a nested list. */
function opensNested(list: ListBlock): boolean {
  const first = list.items[0];
  return (
    first !== undefined && isBlank(first.text) && first.children?.length === 1 && first.children[0]!.type === 'list'
  );
}

/** `list` with `nested` under its last item, going down further where `nested` opens with a level of its own too. */
function withNestedUnderLast(list: ListBlock, nested: ListBlock): ListBlock {
  const items = [...list.items];
  const last = items[items.length - 1]!;
  const children = [...(last.children ?? [])];
  const inner = children[children.length - 1];
  if (inner?.type === 'list' && opensNested(nested)) {
    const [first, ...rest] = nested.items;
    const deeper = withNestedUnderLast(inner, first!.children![0] as ListBlock);
    children[children.length - 1] = rest.length ? { ...deeper, items: [...deeper.items, ...rest] } : deeper;
  } else if (inner?.type === 'list' && inner.ordered === nested.ordered) {
    children[children.length - 1] = { ...inner, items: [...inner.items, ...nested.items] };
  } else children.push(nested);
  items[items.length - 1] = { ...last, children };
  return { ...list, items };
}

/**
 * Code paragraphs in a row are one block, blank lines inside kept, as in the DOCX and RTF readers;
 * short monospaced lines next to them (directly or through others like them) are lines of the block.
 */
function joinCodeParagraphs(blocks: Block[], pkg: OdfPackage): Block[] {
  const line = (b: Block | undefined): string | undefined =>
    b?.type === 'paragraph' ? pkg.monoLines.get(b.text) : undefined;
  blocks = [...blocks];
  for (let i = 0; i < blocks.length; i++) {
    if (blocks[i]!.type !== 'code') continue;
    for (const step of [-1, 1]) {
      for (let j = i + step; line(blocks[j]) !== undefined; j += step) {
        const { text: _text, type: _type, ...provenance } = blocks[j] as Extract<Block, { type: 'paragraph' }>;
        blocks[j] = { ...provenance, type: 'code', text: line(blocks[j])! };
      }
    }
  }
  const out: Block[] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (block.type === 'code' && last?.type === 'code') last.text += `\n${block.text}`;
    else out.push(block.type === 'code' ? { ...block } : block);
  }
  return out
    .map((b) => (b.type === 'code' ? { ...b, text: b.text.replace(/^(\s*\n)+/, '').replace(/\s+$/, '') } : b))
    .filter((b) => b.type !== 'code' || b.text !== '');
}

/** Whether the style (of `family`), or one it derives from, has a name that `pattern` matches. */
function styleNamed(style: string, pkg: OdfPackage, pattern: RegExp, family = 'paragraph'): boolean {
  for (let name = style, hops = 0; name && hops < 8; hops++) {
    // Style names encode spaces as _20_ (LibreOffice) or _ (pandoc's "Source_Text").
    if (pattern.test(name.replace(/_20_/g, ' ')) || pattern.test(name.replace(/_20_|_/g, ' '))) return true;
    name = family === 'paragraph' ? (pkg.parents.get(name) ?? '') : (pkg.styles.get(`${family}:${name}`)?.parent ?? '');
  }
  return false;
}

/**
 * The heading level a paragraph's style gives it (directly or through parent styles): 1 for Title,
 * 2 for Subtitle, N for "Heading N" (or a localised name, "Titre 2") on a plain paragraph (a DOCX heading whose style carried no
 * outline level, as the docx library writes them, comes out of LibreOffice so), else 0.
 */
function titleRole(style: string, pkg: OdfPackage): number {
  for (let name = style, hops = 0; name && hops < 8; name = pkg.parents.get(name) ?? '', hops++) {
    const level =
      headingLevelOfStyleName(name.replace(/_20_/g, ' ')) || headingLevelOfStyleName(pkg.displayNames.get(name) ?? '');
    if (level) return level;
  }
  return 0;
}

/** A list whose items hold headings and nothing else (a Word heading numbered by a list, through LibreOffice). */
function holdsOnlyHeadings(list: Element): boolean {
  let headings = 0;
  const walk = (el: Element): boolean =>
    children(el).every((c) => {
      if (c.localName === 'h') return ++headings > 0;
      if (c.localName === 'list' || c.localName === 'list-item' || c.localName === 'list-header') return walk(c);
      return false;
    });
  return walk(list) && headings > 0;
}

/**
 * The headings of such a list, each with the number its list level draws ("1.2"), counted on from
 * the list before it in the same style while numbering continues (each heading is a list of its own).
 */
function numberedHeadings(list: Element, pkg: OdfPackage, notes: Note[]): Block[] {
  const style = attr(list, 'style-name') ?? '';
  const formats = pkg.listLabels.get(style) ?? [];
  const continues = attr(list, 'continue-numbering') === 'true' || attr(list, 'continue-list') !== undefined;
  const counters = continues ? (pkg.headingCounters.get(style) ?? []) : [];
  pkg.headingCounters.set(style, counters);
  const out: Block[] = [];
  const walk = (el: Element, depth: number): void => {
    for (const c of children(el)) {
      if (c.localName === 'list-item' || c.localName === 'list-header') walk(c, depth);
      else if (c.localName === 'list') walk(c, Math.min(depth + 1, MAX_LIST_LEVELS - 1));
      else if (c.localName === 'h') {
        const format = formats[depth];
        counters[depth] = (counters[depth] ?? (format?.start ?? 1) - 1) + 1;
        counters.length = depth + 1;
        const label = format ? headingLabel(formats, counters, depth) : '';
        const text = withoutWholeEmphasis(inline(c, pkg, notes));
        out.push({
          type: 'heading',
          level: Number(attr(c, 'outline-level') ?? depth + 1),
          text: label ? [{ type: 'text', text: `${label} ` }, ...text] : text,
        });
      }
    }
  };
  walk(list, 0);
  return out;
}

/** The label a numbered level draws for the counters: the levels it shows, joined by dots, with its prefix and suffix. */
function headingLabel(formats: ListLabelFormat[], counters: number[], depth: number): string {
  const format = formats[depth]!;
  const numbers: string[] = [];
  for (let d = Math.max(0, depth - format.shown + 1); d <= depth; d++) {
    const shown = numberAs(formats[d]?.format ?? '1', counters[d] ?? formats[d]?.start ?? 1);
    if (shown === undefined) return '';
    numbers.push(shown);
  }
  return `${format.prefix}${numbers.join('.')}${format.suffix}`;
}

/** Word's names for ODF's number formats (style:num-format); others draw no number here. */
const ODF_NUMBER_FORMATS: Record<string, string> = {
  '1': 'decimal',
  a: 'lowerLetter',
  A: 'upperLetter',
  i: 'lowerRoman',
  I: 'upperRoman',
};

/** A counter in an ODF number format: 1, a, A, i, I; none for other formats. */
function numberAs(format: string, n: number): string | undefined {
  const word = ODF_NUMBER_FORMATS[format];
  return word ? formatNumber(n, word) : undefined;
}

/**
 * A list, after the paragraphs of its header: `text:list-header` is the list's opening entry
 * without a number or bullet (ODF 1.2, 5.3.3; LibreOffice's "unnumbered entry" first in a list),
 * written as paragraphs before the list, not counted. A header holding a nested list stays an item:
 * Markdown has no deeper list without an item above it (and one holding only that list carries its
 * level, see nestContinuedLists).
 */
function listBlocks(list: Element, pkg: OdfPackage, notes: Note[], styleName: string, depth: number): Block[] {
  const name = attr(list, 'style-name') ?? styleName;
  const ordered = pkg.numberedLists.get(name)?.[depth] ?? false;
  const items: ListItem[] = [];
  const header: Block[] = [];
  for (const item of children(list).filter((c) => c.localName === 'list-item' || c.localName === 'list-header')) {
    const parts: Inline[][] = [];
    const nested: Block[] = [];
    for (const c of children(item)) {
      if (c.localName === 'list') nested.push(...listBlocks(c, pkg, notes, name, depth + 1));
      else if (c.localName === 'p' || c.localName === 'h') parts.push(inline(c, pkg, notes));
      else nested.push(...elementBlocks([c], pkg, notes));
    }
    if (item.localName === 'list-header' && !items.length && !nested.length && parts.some((p) => !isBlank(p))) {
      header.push(...parts.filter((p) => !isBlank(p)).map((text): Block => ({ type: 'paragraph', text })));
      continue;
    }
    if (parts.length === 0 && nested.length && children(item).every((c) => c.localName === 'list') && items.length) {
      const prev = items[items.length - 1]!;
      prev.children = [...(prev.children ?? []), ...nested];
      continue;
    }
    items.push({
      text: parts.flatMap((p, i) => (i ? [space, ...p] : p)),
      children: nested.length ? nested : undefined,
    });
  }
  if (!items.length) return header;
  if (depth > 0) return [...header, { type: 'list', ordered, items }];
  const start = ordered ? listStart(list, name, pkg) : undefined;
  const end = (start ?? 1) - 1 + items.length;
  const id = attr(list, 'id');
  if (id) pkg.listEnds.byId.set(id, end);
  pkg.listEnds.byStyle.set(name, end);
  return [
    ...header,
    start === undefined || start === 1 ? { type: 'list', ordered, items } : { type: 'list', ordered, start, items },
  ];
}

/**
 * The first number of a top-level numbered list: its first item's start value, else one after the
 * list it goes on from (`text:continue-list`, as LibreOffice writes a Word list interrupted by
 * another, or `text:continue-numbering` with the same list style), else its list style's start value.
 */
function listStart(list: Element, style: string, pkg: OdfPackage): number | undefined {
  const first = children(list).find((c) => c.localName === 'list-item');
  const value = Number(attr(first, 'start-value'));
  if (Number.isInteger(value) && value >= 0) return value;
  const from = attr(list, 'continue-list');
  const before = from
    ? pkg.listEnds.byId.get(from)
    : attr(list, 'continue-numbering') === 'true'
      ? pkg.listEnds.byStyle.get(style)
      : undefined;
  // Else where its list style's first level starts counting (a Word list restarted at 5, through LibreOffice).
  return before === undefined ? pkg.listLabels.get(style)?.[0]?.start : before + 1;
}

/**
 * A table with spanned cells repeated across their span: a covered cell takes the text of the cell
 * whose row or column span reaches over it (else, a file without spans, its left or upper neighbour).
 */
function tableBlocks(table: Element, pkg: OdfPackage, notes: Note[]): Block[] {
  // Charts in cells follow the outermost table: their data tables would be flattened into a cell's text.
  const outer = !pkg.cellCharts;
  const charts = (pkg.cellCharts ??= []);
  const rows: Inline[][][] = [];
  const rowEls = descendants(table, 'table-row').filter((r) => nearestTable(r) === table);
  const above: Inline[][] = [];
  // Column → the spanning cell's text and the last row (index) its row span reaches.
  const spanning = new Map<number, { text: Inline[]; untilRow: number }>();
  rowEls.forEach((tr, r) => {
    const row: Inline[][] = [];
    for (const cell of children(tr).filter(
      (c) => c.localName === 'table-cell' || c.localName === 'covered-table-cell',
    )) {
      const repeat = Math.min(Number(attr(cell, 'number-columns-repeated') ?? 1), 64);
      const own = cell.localName === 'covered-table-cell' ? undefined : blocksAsInline(textBlocks(cell, pkg, notes));
      for (let k = 0; k < repeat; k++) {
        const col = row.length;
        const span = spanning.get(col);
        const text = own ?? (span && span.untilRow >= r ? span.text : (row[col - 1] ?? above[col] ?? []));
        if (own && k === 0) {
          const cols = Math.min(Math.max(Number(attr(cell, 'number-columns-spanned') ?? 1) || 1, 1), 64);
          const untilRow = r + Math.max(Number(attr(cell, 'number-rows-spanned') ?? 1) || 1, 1) - 1;
          for (let c = col; c < col + cols; c++) if (cols > 1 || untilRow > r) spanning.set(c, { text, untilRow });
        }
        row.push(text);
      }
    }
    while (row.length && isEmpty(row[row.length - 1]!)) row.pop();
    rows.push(row);
    row.forEach((v, i) => (above[i] = v));
  });
  const nonEmpty = rows.filter((r) => r.some((c) => !isEmpty(c)));
  if (outer) pkg.cellCharts = undefined;
  const blocks: Block[] = nonEmpty.length ? [{ type: 'table', rows: nonEmpty }] : [];
  return outer ? [...blocks, ...charts] : blocks;
}

/** A cell that shows nothing. */
function isEmpty(cell: Inline[]): boolean {
  return isBlankInline(cell);
}

function nearestTable(el: Element): Element | undefined {
  let p = el.parentNode as Element | null;
  while (p && p.localName !== 'table') p = p.parentNode as Element | null;
  return p ?? undefined;
}

function withNotes(blocks: Block[], notes: Note[]): Block[] {
  return notes.length ? [...blocks, { type: 'notes', notes }] : blocks;
}

/** Automatic paragraph styles that start (`before`) or end (`after`) a page: `fo:break-before/after="page"`. */
function pageBreakStyles(content: Document): Map<string, { before: boolean; after: boolean }> {
  const out = new Map<string, { before: boolean; after: boolean }>();
  for (const st of descendants(content, 'style')) {
    const props = child(st, 'paragraph-properties');
    const before = attr(props, 'break-before') === 'page';
    const after = attr(props, 'break-after') === 'page';
    if (before || after) out.set(attr(st, 'name') ?? '', { before, after });
  }
  return out;
}

/**
 * The page breaks an ODT body records, in document order: paragraphs whose style breaks the page
 * before or after them, and the soft page breaks (`text:soft-page-break`) where LibreOffice last
 * laid the page out. A break with no text since the last one is the same break.
 */
class OdfPageBreaks {
  page = 1;
  private textSinceBreak = false;

  constructor(private readonly styles: Map<string, { before: boolean; after: boolean }>) {}

  /** Walks a top-level element; returns the page its content starts on. */
  walk(el: Element): number {
    let start: number | undefined;
    // Walked with a stack (elements nest as deep as the file's); an exit entry applies a break after its paragraph.
    const stack: Array<{ node: Element; exit?: boolean }> = [{ node: el }];
    while (stack.length) {
      const { node, exit } = stack.pop()!;
      const paragraph = node.localName === 'p' || node.localName === 'h';
      const style = paragraph ? this.styles.get(attr(node, 'style-name') ?? '') : undefined;
      if (exit) {
        if (style?.after) this.break();
        continue;
      }
      if (node.localName === 'soft-page-break') {
        this.break();
        continue;
      }
      if (style?.before) this.break();
      if (paragraph && node.textContent?.trim()) {
        start ??= this.page;
        this.textSinceBreak = true;
      }
      stack.push({ node, exit: true });
      const kids = children(node);
      for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k]! });
    }
    return start ?? this.page;
  }

  private break(): void {
    if (!this.textSinceBreak) return;
    this.page++;
    this.textSinceBreak = false;
  }
}

/** ODT: headings, nested lists (numbered from their list styles), tables, emphasis, links, notes, frames. */
export const odtReader: Reader = {
  name: 'odt',
  async read(input) {
    const pkg = openOdf(input, 'ODT file');
    // office:body's office:text; a first element named "text" may be a data style's number:text (a date field's ".").
    const officeBody = child(pkg.content.documentElement, 'body');
    const body = child(officeBody, 'text') ?? officeBody;
    const notes: Note[] = [];
    // Each top-level element's blocks on the page it starts on (E1), at the page breaks the file records.
    const breaks = new OdfPageBreaks(pageBreakStyles(pkg.content));
    const blocks: Block[] = [];
    for (const el of children(body)) {
      const page = breaks.walk(el);
      for (const block of elementBlocks([el], pkg, notes)) blocks.push({ ...block, page });
    }
    const joined = withDrawnLists(bodyBlocks(blocks, pkg));
    const pages = Number(attr(descendants(pkg.meta, 'document-statistic')[0], 'page-count') ?? 0);
    return {
      blocks: withNotes(joined, notes),
      metadata: odfMetadata(pkg, pages),
      pages: Array.from({ length: breaks.page }, (_, i) => i + 1),
    };
  },
};

/** ODP: one section per page (slide): title frame as heading, outline frames as lists, tables, notes. */
export const odpReader: Reader = {
  name: 'odp',
  async read(input, options) {
    const pkg = openOdf(input, 'ODP file');
    const notes: Note[] = [];
    const all = descendants(pkg.content, 'page');
    // E2: slides outside the page range are not read.
    const numbers = selectedPages(options.pageRange, all.length);
    if (options.pageRange && !numbers.length) throw noPageSelected(all.length);
    const slides: SlideModel[] = numbers.map((number) => {
      const page = all[number - 1]!;
      let title: Inline[] = [];
      const blocks: Block[] = [];
      // Text frames other than placeholders: where their blocks start, their type size, their line if one.
      const drawn: DrawnFrame[] = [];
      for (const frame of children(page).flatMap((c) => (c.localName === 'g' ? children(c) : [c]))) {
        const cls = attr(frame, 'class') ?? '';
        // Slide numbers, footers and dates repeat on every slide (a "<number>" field, the footer text).
        if (RUNNING_CLASSES.has(cls)) continue;
        const box = child(frame, 'text-box') ?? (frame.localName === 'custom-shape' ? frame : undefined);
        const table = child(frame, 'table');
        const object = child(frame, 'object');
        const chart = object ? odfChart(pkg.zip, attr(object, 'href') ?? '') : undefined;
        const code = box && cls !== 'title' ? frameCode(box, pkg, notes) : undefined;
        if (table) {
          blocks.push(...tableBlocks(table, pkg, notes));
        } else if (chart) {
          blocks.push(...chartDataBlocks(chart));
        } else if (code !== undefined) {
          blocks.push({ type: 'code', text: code });
        } else if (box) {
          const paragraphs = frameParagraphs(
            box,
            pkg,
            notes,
            // Outline text is bulleted by default; a subtitle is a line (its own list, if any, still bullets it), as in PPTX.
            cls === 'outline' ? 'bullet' : 'none',
            0,
            // A title's paragraph style is what makes it look like a title, as for ODT headings.
            cls === 'title' ? PLAIN : undefined,
          );
          if (cls === 'title' && isBlank(title))
            title = withoutWholeEmphasis(
              paragraphs.flatMap((p, i) => (i ? [space, ...inlines(p.text)] : inlines(p.text))),
            );
          else {
            const filled = paragraphs.filter((p) => !isBlank(p.text));
            if (filled.length && !cls) {
              const line = filled.length === 1 && filled[0]!.bullet === 'none' ? filled[0]!.text : undefined;
              drawn.push({ at: blocks.length, size: smallestTextSize(box, pkg), line });
            }
            blocks.push(...paragraphsToBlocks(paragraphs));
          }
        } else if (child(frame, 'image')) {
          blocks.push({ type: 'paragraph', text: frameText(frame, pkg, notes) });
        }
      }
      const notesEl = child(page, 'notes');
      // The notes page's text: its notes placeholder and any text frame drawn on it (notes typed in a box of their own).
      const noteText = notesEl
        ? descendants(notesEl, 'frame')
            .filter((f) => !RUNNING_CLASSES.has(attr(f, 'class') ?? '') && child(f, 'text-box'))
            .flatMap((f) => descendants(f, 'p').map((p) => inline(p, pkg, notes)))
        : [];
      // Reviewers' comments (officeooo:annotation): author, then the comment's paragraphs.
      const comments = children(page, 'annotation').map((a) => ({
        author: child(a, 'creator')?.textContent ?? '',
        text: children(a, 'p').flatMap((p, i) => (i ? [space, ...inline(p, pkg, notes)] : inline(p, pkg, notes))),
      }));
      const titleFrame = isBlank(title) ? drawnTitle(drawn, blocks) : undefined;
      if (titleFrame) {
        title = withoutWholeEmphasis(inlines(titleFrame.line!));
        blocks.splice(titleFrame.at, 1);
      }
      return { title, name: attr(page, 'name'), blocks, notes: noteText, comments, number };
    });
    return {
      blocks: withNotes(slidesToBlocks(slides), notes),
      metadata: odfMetadata(pkg, all.length),
      pages: numbers,
    };
  },
};

/** Presentation classes of frames that repeat on every slide: left out, like running page headers. */
const RUNNING_CLASSES = new Set(['page-number', 'footer', 'date-time', 'header']);

/** A slide's text frame that is no placeholder: where its blocks start, its smallest type size, its one line. */
interface DrawnFrame {
  at: number;
  size?: number;
  line?: ParagraphModel['text'];
}

/** Type at least this large (points) can stand as a slide's title: PowerPoint's smallest title size. */
const MIN_DRAWN_TITLE_POINTS = 24;

/**
 * The title of a slide without a title frame (a deck drawn by pptxgenjs or another generator,
 * through LibreOffice), as for PPTX: its first text frame, when that is one line, opens the slide (pictures only before it),
 * and is set in title type no smaller than the slide's other text frames.
 */
function drawnTitle(frames: DrawnFrame[], blocks: Block[]): DrawnFrame | undefined {
  const first = frames[0];
  if (!first?.line || !blocks.slice(0, first.at).every(isPicture) || (first.size ?? 0) < MIN_DRAWN_TITLE_POINTS)
    return undefined;
  return frames.every((f) => f === first || (f.size ?? 0) <= first.size!) ? first : undefined;
}

/** A paragraph of pictures only (a logo placed above the title): it does not stop a text frame below from being the title. */
function isPicture(block: Block): boolean {
  return (
    block.type === 'paragraph' &&
    block.text.some((i) => i.type === 'image') &&
    block.text.every((i) => i.type === 'image' || (i.type === 'text' && !i.text.trim()))
  );
}

/** The smallest font size (points) the automatic styles of a frame's paragraphs and spans set. */
function smallestTextSize(box: Element, pkg: OdfPackage): number | undefined {
  let smallest: number | undefined;
  for (const [tag, family] of [
    ['p', 'paragraph'],
    ['span', 'text'],
  ] as const) {
    for (const el of descendants(box, tag)) {
      const size = pkg.styles.get(`${family}:${attr(el, 'style-name') ?? ''}`)?.text.size;
      if (size !== undefined && !(size >= (smallest ?? Infinity))) smallest = size;
    }
  }
  return smallest;
}

/**
 * A slide's text frame set all in a monospaced face whose text reads as code (a listing on a
 * lecture slide): its lines, spaces kept; undefined otherwise, as in the PPTX reader.
 */
function frameCode(box: Element, pkg: OdfPackage, notes: Note[]): string | undefined {
  const paragraphs = descendants(box, 'p');
  // A frame with notes or comments is read once, as text (reading it here would add its notes twice).
  if (descendants(box, 'note').length || descendants(box, 'annotation').length) return undefined;
  if (
    !paragraphs.some((p) => p.textContent?.trim()) ||
    !paragraphs.every((p) => !p.textContent?.trim() || isMonospaced(p, pkg))
  )
    return undefined;
  const lines = paragraphs.map((p) => inlineText(inline(p, pkg, notes), '\n').replace(/\s+$/, ''));
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  while (lines.length && !lines[0]!.trim()) lines.shift();
  return lines.some((l) => CODE_CHARS.test(l)) ? lines.join('\n') : undefined;
}

/**
 * The first number of a numbered list in a slide's frame, when not 1: its first item's start value,
 * else its list style's at that level (LibreOffice writes a PowerPoint list's `startAt` there).
 */
function slideListStart(list: Element, style: string, level: number, pkg: OdfPackage): number | undefined {
  const item = Number(
    attr(
      children(list).find((c) => c.localName === 'list-item'),
      'start-value',
    ),
  );
  if (Number.isInteger(item) && item > 0) return item === 1 ? undefined : item;
  const listStyle = descendants(pkg.content, 'list-style').find((ls) => attr(ls, 'name') === style);
  const levelStyle = children(listStyle, 'list-level-style-number').find(
    (l) => Number(attr(l, 'level') ?? 1) === level + 1,
  );
  const value = Number(attr(levelStyle, 'start-value'));
  return Number.isInteger(value) && value > 1 ? value : undefined;
}

function frameParagraphs(
  box: Element,
  pkg: OdfPackage,
  notes: Note[],
  bullet: ParagraphModel['bullet'],
  level: number,
  fmt?: OdfInlineStyle,
): ParagraphModel[] {
  const out: ParagraphModel[] = [];
  for (const c of children(box)) {
    if (c.localName === 'p' || c.localName === 'h') out.push({ text: inline(c, pkg, notes, fmt), level, bullet });
    else if (c.localName === 'list') {
      const style = attr(c, 'style-name') ?? '';
      // A list in the frame itself is at the frame's level; one inside a list item a level deeper.
      const depth = box.localName === 'list-item' ? level + 1 : level;
      const ordered = pkg.numberedLists.get(style)?.[depth] ?? false;
      const first = out.length;
      for (const item of children(c))
        out.push(...frameParagraphs(item, pkg, notes, ordered ? 'number' : 'bullet', depth, fmt));
      const start = ordered ? slideListStart(c, style, depth, pkg) : undefined;
      if (start !== undefined && out[first]) out[first] = { ...out[first]!, start };
    } else if (c.localName === 'list-item') out.push(...frameParagraphs(c, pkg, notes, bullet, level, fmt));
  }
  return out;
}
