import type { Element } from '@xmldom/xmldom';
import { text, type Block, type Inline, type Note } from '../../document/model';
import { hyperlinkTarget } from '../shared/word-fields';
import { inSymbolFont, symbolFont, symbolFontChar } from '../shared/symbol-font';
import { imageAltText } from '../shared/alt-text';
import { checkBoxCharacter } from '../shared/check-boxes';
import { CODE_CHAR_STYLE, CODE_CHARS, CODE_STYLE, MONOSPACE, joinsCodeBeside } from '../shared/code-paragraphs';
import { QUOTE_STYLE } from '../shared/quote-styles';
import { DEFINITION_STYLE, TERM_STYLE, definitionLists, type DefinitionRole } from '../shared/definition-lists';
import { headingLevelOfStyleName } from '../shared/heading-styles';
import { nestListItems } from '../../document/lists';
import { withoutWholeEmphasis } from '../../document/builders';
import { blocksAsInline, collapseSpaces, joinedByBreaks, styled } from '../../document/builders';
import { inlineText, isBlankInline } from '../../document/predicates';
import { attr, child, children, descendants, hasAncestor, relAttr } from '../shared/xml-dom';
import { isChartEx } from '../shared/ooxml-parts';
import { ListNumbering } from './numbering';
import { vertAlign, type DocxPackage, type StyleInfo } from './parts';
import { ommlToLatex } from '../shared/omml';
import { applyStyleLevel, defaultFormat, PLAIN, type RunFormat } from './run-format';

interface Format extends RunFormat {
  href?: string;
  /** In a character style that marks inline code. */
  code?: boolean;
}

/** A piece of a paragraph: plain text with its formatting, or an inline node (notes, images, math). */
type Piece = ({ text: string } | { node: Inline } | { display: string }) & Format;

const MAX_NESTING = 32;

/** The namespace of DrawingML charts (`c:chart`), the kind the shared chart reader reads. */
const DRAWINGML_CHART = 'http://schemas.openxmlformats.org/drawingml/2006/chart';

/** One body element after reading: a block, or a list item / code line that groups with its neighbours. */
type Flat =
  /** `monoLine`: a monospaced paragraph's text, a line of a code block it stands next to (joinsCodeBeside). */
  (
    | { kind: 'block'; block: Block; monoLine?: string }
    | {
        kind: 'item';
        level: number;
        ordered: boolean;
        value: number;
        sequence: string;
        text: Inline[];
        /** Left indent in twips (the paragraph's own, else its numbering level's), to nest lists by. */
        indent?: number;
      }
    | { kind: 'code'; text: string }
  ) & { page?: number };

interface Field {
  instr: string;
  inResult: boolean;
  href?: string;
}

/** Reads a DOCX body (or a cell, a text box, a note) into the document model. */
export class DocxReader {
  private readonly numbering: ListNumbering;
  private readonly fields: Field[] = [];
  private readonly noteNumbers = new Map<string, string>();
  private readonly noteDefinitions: Note[] = [];
  private depth = 0;
  /** While a table is read: the blocks of the charts in its cells, which follow the table. */
  private cellCharts: Block[] | undefined;

  /** @param pictureText text read from pictures (enhanced mode), by image relationship id. */
  /** @param embedded the blocks of embedded documents (OLE objects), by relationship id. */
  constructor(
    private readonly pkg: DocxPackage,
    private readonly pictureText: ReadonlyMap<string, string> = new Map(),
    /**
     * What documents inside this one read as, by relationship id, read ahead by the reader: imported
     * chunks (w:altChunk) and embedded objects (docs/decisions.md).
     */
    private readonly embedded: ReadonlyMap<string, Block[]> = new Map(),
  ) {
    this.numbering = new ListNumbering(pkg);
  }

  /** Pages the body's recorded page breaks make (E1), known after `read`. */
  pageCount = 1;

  /**
   * The whole document: body blocks, then footnotes, endnotes and comments as note definitions.
   * Each top-level block records the page it starts on, counted at the page breaks the file records.
   */
  read(): Block[] {
    const flat: Flat[] = [];
    const pages = new PageBreaks();
    this.depth++;
    for (const el of children(this.pkg.body)) {
      const from = flat.length;
      const page = pages.walk(el);
      this.element(el, flat);
      for (let k = from; k < flat.length; k++) flat[k]!.page = page;
    }
    this.depth--;
    this.pageCount = pages.page;
    const blocks = this.group(flat);
    if (!this.noteDefinitions.length) return blocks;
    return [...blocks, { type: 'notes', notes: this.noteDefinitions }];
  }

  blocks(elements: Element[]): Block[] {
    if (++this.depth > MAX_NESTING) {
      this.depth--;
      return [];
    }
    const flat: Flat[] = [];
    for (const el of elements) this.element(el, flat);
    this.depth--;
    return this.group(flat);
  }

  /** Paragraphs in a definition list's term or definition style, by their text. */
  private readonly definitionRoles = new WeakMap<Inline[], DefinitionRole>();

  private group(flat: Flat[]): Block[] {
    return definitionLists(group(flat), (b) => (b.type === 'paragraph' ? this.definitionRoles.get(b.text) : undefined));
  }

  private element(el: Element, out: Flat[]): void {
    switch (el.localName) {
      case 'p':
        this.paragraph(el, out);
        break;
      case 'tbl':
        out.push(...this.table(el).map((block): Flat => ({ kind: 'block', block })));
        break;
      case 'sdt':
        if (showsPlaceholder(el)) break;
        for (const c of children(child(el, 'sdtContent'))) this.element(c, out);
        break;
      case 'customXml':
      case 'ins':
      case 'moveTo':
      case 'txbxContent':
        for (const c of children(el)) this.element(c, out);
        break;
      case 'AlternateContent':
        for (const c of children(children(el, 'Choice')[0] ?? child(el, 'Fallback'))) this.element(c, out);
        break;
      case 'altChunk':
        for (const block of this.embedded.get(relAttr(el) ?? '') ?? []) out.push({ kind: 'block', block });
        break;
      default:
        break;
    }
  }

  private paragraph(p: Element, out: Flat[]): void {
    const pPr = child(p, 'pPr');
    const styleId = attr(child(pPr, 'pStyle'), 'val');
    const chain = this.styleChain(styleId ?? this.pkg.defaultParagraphStyle);
    const headingLevel = this.headingLevel(pPr, chain, styleId);
    const styleNames = chain.map((s) => s.name);
    const quoted = styleNames.some((n) => QUOTE_STYLE.test(n));
    // A heading's or quote's style formatting is what makes it look like one, not emphasis (docs/decisions.md).
    const base = headingLevel || quoted ? PLAIN : applyStyleLevel(defaultFormat(this.pkg.runDefaults), chain);
    const extra: Block[] = [];
    const pieces: Piece[] = [];
    this.inline(children(p), base, pieces, extra);
    commentMarksAfterWords(pieces);
    // Nodes count as what they show (an image alone still makes a paragraph; code keeps note marks).
    const plain = pieces.map((x) => ('text' in x ? x.text : 'node' in x ? shownInCode(x.node) : x.display)).join('');

    const numbered = this.listNumber(pPr, chain);

    if (pieces.some((x) => 'display' in x)) {
      // Display math splits the paragraph: text before, the equation block, text after.
      let run: Piece[] = [];
      const flush = (): void => {
        const text = toInlines(run);
        if (run.some((x) => !('text' in x) || x.text.trim()))
          out.push({ kind: 'block', block: { type: 'paragraph', text } });
        run = [];
      };
      for (const x of pieces) {
        if (!('display' in x)) run.push(x);
        else {
          flush();
          const tex = x.display.trim();
          if (tex)
            out.push({ kind: 'block', block: { type: 'paragraph', text: [{ type: 'math', tex, display: true }] } });
        }
      }
      flush();
    } else if (plain.trim() || numbered?.label) {
      const text = toInlines(pieces);
      if (headingLevel) {
        const label: Inline[] = numbered?.label ? [{ type: 'text', text: `${numbered.label} ` }] : [];
        out.push({
          kind: 'block',
          block: { type: 'heading', level: headingLevel, text: [...label, ...withoutWholeEmphasis(text)] },
        });
      } else if (numbered && numbered.level.format !== 'none' && plain.trim()) {
        const ordered = numbered.level.format !== 'bullet' && !numbered.multiLevel;
        const prefix: Inline[] = !ordered && numbered.label ? [{ type: 'text', text: `${numbered.label} ` }] : [];
        out.push({
          kind: 'item',
          level: numbered.ilvl || builtInListLevel(styleNames),
          ordered,
          value: numbered.value,
          sequence: numbered.sequence,
          text: [...prefix, ...text],
          ...indentOf(pPr, numbered.level.indent),
        });
      } else if (styleNames.some((n) => CODE_STYLE.test(n)) || this.isMonospaceCode(p, chain, plain)) {
        out.push({ kind: 'code', text: plain.replace(/\s+$/, '') });
      } else if (quoted) {
        out.push({ kind: 'block', block: { type: 'quote', blocks: [{ type: 'paragraph', text }] } });
      } else {
        const monoLine = joinsCodeBeside(plain) && this.isMonospace(p, chain) ? plain.replace(/\s+$/, '') : undefined;
        if (styleNames.some((n) => TERM_STYLE.test(n))) this.definitionRoles.set(text, 'term');
        else if (styleNames.some((n) => DEFINITION_STYLE.test(n))) this.definitionRoles.set(text, 'definition');
        out.push({
          kind: 'block',
          block: { type: 'paragraph', text },
          ...(monoLine === undefined ? {} : { monoLine }),
        });
      }
    }
    for (const block of extra) out.push({ kind: 'block', block });
  }

  private styleChain(styleId: string | undefined): StyleInfo[] {
    const chain: StyleInfo[] = [];
    for (let id = styleId, hops = 0; id && hops < 10; hops++) {
      const st = this.pkg.styles.get(id);
      if (!st) break;
      chain.push(st);
      id = st.basedOn;
    }
    return chain;
  }

  private headingLevel(pPr: Element | undefined, chain: StyleInfo[], styleId: string | undefined): number {
    for (const st of chain) {
      const named = headingLevelOfStyleName(st.name);
      if (named) return named;
    }
    // A style the file cites but never defines (scripts that write no styles part): its id is all it says.
    if (!chain.length && styleId) {
      const named = headingLevelOfStyleName(styleId);
      if (named) return named;
    }
    const direct = attr(child(pPr, 'outlineLvl'), 'val');
    const outline =
      direct !== undefined ? Number(direct) : chain.find((s) => s.outlineLevel !== undefined)?.outlineLevel;
    return outline !== undefined && outline >= 0 && outline < 9 ? outline + 1 : 0;
  }

  private listNumber(
    pPr: Element | undefined,
    chain: StyleInfo[],
  ): (ReturnType<ListNumbering['next']> & { ilvl: number; numId: string }) | undefined {
    const numPr = child(pPr, 'numPr');
    let numId = attr(child(numPr, 'numId'), 'val');
    let ilvl = attr(child(numPr, 'ilvl'), 'val') !== undefined ? Number(attr(child(numPr, 'ilvl'), 'val')) : undefined;
    if (numId === undefined) {
      const st = chain.find((s) => s.numId !== undefined);
      numId = st?.numId;
      ilvl ??= st?.ilvl;
    }
    if (!numId || numId === '0') return undefined;
    const lvl = Math.max(0, Math.min(8, ilvl ?? 0));
    const next = this.numbering.next(numId, lvl);
    return next ? { ...next, ilvl: lvl, numId } : undefined;
  }

  private isMonospaceCode(p: Element, chain: StyleInfo[], plain: string): boolean {
    return CODE_CHARS.test(plain) && this.isMonospace(p, chain);
  }

  /** Every run with text in a monospaced font, set on the run, its character style or the paragraph's style. */
  private isMonospace(p: Element, chain: StyleInfo[]): boolean {
    const styleMono = chain.find((s) => s.monospace !== undefined)?.monospace ?? false;
    const runs = descendants(p, 'r').filter((r) => (r.textContent ?? '').trim());
    return (
      runs.length > 0 &&
      runs.every((r) => {
        const fonts = child(child(r, 'rPr'), 'rFonts');
        const rStyle = this.pkg.styles.get(attr(child(child(r, 'rPr'), 'rStyle'), 'val') ?? '');
        if (fonts) return MONOSPACE.test(attr(fonts, 'ascii') ?? attr(fonts, 'hAnsi') ?? '');
        return rStyle?.monospace ?? styleMono;
      })
    );
  }

  /** Paragraph content: runs, links, fields, notes, images, text boxes, equations. */
  private inline(nodes: Element[], fmt: Format, out: Piece[], extra: Block[]): void {
    for (const el of nodes) {
      switch (el.localName) {
        case 'r':
          this.run(el, fmt, out, extra);
          break;
        case 'hyperlink': {
          const rel = this.pkg.relsOf(el).get(relAttr(el) ?? '');
          const href = rel?.target || undefined;
          this.inline(children(el), { ...fmt, href: href ?? fmt.href }, out, extra);
          break;
        }
        case 'fldSimple': {
          const href = hyperlinkTarget(attr(el, 'instr') ?? '');
          this.inline(children(el), { ...fmt, href: href ?? fmt.href }, out, extra);
          break;
        }
        case 'ins':
        case 'moveTo':
        case 'smartTag':
        case 'customXml':
        case 'bdo':
        case 'dir':
          this.inline(children(el), fmt, out, extra);
          break;
        case 'sdt':
          if (!showsPlaceholder(el)) this.inline(children(child(el, 'sdtContent')), fmt, out, extra);
          break;
        case 'oMath':
          out.push({ node: { type: 'math', tex: ommlToLatex(el) }, ...fmt });
          break;
        case 'oMathPara':
          out.push({ display: ommlToLatex(el), ...fmt });
          break;
        case 'AlternateContent':
          this.inline(children(children(el, 'Choice')[0] ?? child(el, 'Fallback')), fmt, out, extra);
          break;
        default:
          break;
      }
    }
  }

  private run(r: Element, base: Format, out: Piece[], extra: Block[]): void {
    const rPr = child(r, 'rPr');
    const rStyleId = attr(child(rPr, 'rStyle'), 'val');
    const runChain = rStyleId ? this.styleChain(rStyleId) : [];
    const styledRun = applyStyleLevel(base, runChain);
    // Direct formatting is absolute: w:b w:val="0" turns off bold a style turned on.
    const position = vertAlign(attr(child(rPr, 'vertAlign'), 'val'));
    const fmt: Format = {
      b: on(child(rPr, 'b')) ?? styledRun.b,
      i: on(child(rPr, 'i')) ?? styledRun.i,
      s: on(child(rPr, 'strike')) ?? on(child(rPr, 'dstrike')) ?? styledRun.s,
      v: position ? (position === 'baseline' ? undefined : position) : styledRun.v,
      href: base.href,
      // Underscores as spaces: LibreOffice keeps pandoc's ODT name "Source_Text" in its DOCX.
      code: runChain.some((st) => CODE_CHAR_STYLE.test(st.name.replace(/_/g, ' '))) || undefined,
    };
    const field = this.fields[this.fields.length - 1];
    if (field?.inResult && field.href && !fmt.href) fmt.href = field.href;
    const text = (t: string): void => {
      if (this.fields.some((f) => !f.inResult)) return;
      out.push({ text: t, ...fmt });
    };
    // Text typed in the Symbol font (a document from Word 97): its letters are Greek, its signs
    // mathematical; in Wingdings, "ü" is a check mark and "§" a bullet.
    const fonts = child(rPr, 'rFonts');
    const symbolRun = symbolFont(attr(fonts, 'ascii') ?? attr(fonts, 'hAnsi'));
    for (const c of children(r)) {
      switch (c.localName) {
        case 't':
          text(symbolRun ? inSymbolFont(c.textContent ?? '', symbolRun) : (c.textContent ?? ''));
          break;
        case 'tab':
        case 'ptab':
          text(' ');
          break;
        case 'br':
          text(attr(c, 'type') === 'page' || attr(c, 'type') === 'column' ? ' ' : '\n');
          break;
        case 'cr':
          text('\n');
          break;
        case 'noBreakHyphen':
          text('-');
          break;
        case 'sym': {
          const code = parseInt(attr(c, 'char') ?? '', 16);
          // The Symbol font's Greek letters and signs and Wingdings' marks have Unicode forms; other
          // symbol fonts' characters live in the private use area and have no faithful one.
          const font = symbolFont(attr(c, 'font'));
          const symbol = font && Number.isFinite(code) ? symbolFontChar(code, font) : undefined;
          if (symbol) text(symbol);
          else if (Number.isFinite(code) && (code < 0xe000 || code > 0xf8ff)) text(String.fromCodePoint(code));
          break;
        }
        case 'fldChar': {
          const type = attr(c, 'fldCharType');
          // A legacy form check box (FORMCHECKBOX) has no result text: it shows as its state.
          const checkBox = type === 'begin' ? child(child(c, 'ffData'), 'checkBox') : undefined;
          if (checkBox) text(checkBoxCharacter(formCheckBoxChecked(checkBox)));
          if (type === 'begin') this.fields.push({ instr: '', inResult: false });
          else if (type === 'separate' && field) {
            field.inResult = true;
            field.href = hyperlinkTarget(field.instr);
          } else if (type === 'end') this.fields.pop();
          return this.run(restAfter(r, c), base, out, extra);
        }
        case 'instrText':
          if (field && !field.inResult) field.instr += c.textContent ?? '';
          break;
        case 'footnoteReference':
        case 'endnoteReference':
          out.push({ node: { type: 'noteRef', id: this.noteReference(c.localName, attr(c, 'id') ?? '') }, ...fmt });
          break;
        case 'commentReference':
          out.push({ node: { type: 'noteRef', id: this.commentReference(attr(c, 'id') ?? '') }, ...fmt });
          break;
        case 'drawing':
        case 'pict':
        case 'object':
          this.graphic(c, fmt, out, extra);
          break;
        case 'AlternateContent': {
          const choice = children(c, 'Choice')[0] ?? child(c, 'Fallback');
          for (const g of children(choice)) this.graphic(g, fmt, out, extra);
          break;
        }
        case 'ruby':
          // Ruby (furigana): the base text is the text; its reading set above it is a pronunciation aid.
          for (const based of children(child(c, 'rubyBase'), 'r')) this.run(based, base, out, extra);
          break;
        default:
          break;
      }
    }
  }

  /** An image becomes its alt-text placeholder; a text box contributes its paragraphs after this one. */
  private graphic(el: Element, fmt: Format, out: Piece[], extra: Block[]): void {
    // An embedded document we read (a worksheet or document pasted as an object): its content, not its preview.
    const object = this.embedded.get(relAttr(descendants(el, 'OLEObject')[0], 'id') ?? '');
    if (object) {
      extra.push(...object);
      return;
    }
    // A chart carries its data: its title, kind and values after this paragraph, as a slide's chart reads
    // (its drawing is only a rendering of them).
    const chart = descendants(el, 'chart').find((c) => c.namespaceURI === DRAWINGML_CHART || isChartEx(c));
    const data = chart ? this.pkg.chart(relAttr(chart) ?? '') : [];
    if (data.length) {
      (this.cellCharts ?? extra).push(...data);
      return;
    }
    const boxes = descendants(el, 'txbxContent').filter(
      (b) => !hasAncestor(b, 'Fallback', el) && !hasAncestor(b.parentNode as Element, 'txbxContent', el),
    );
    if (boxes.length) {
      for (const box of boxes) extra.push(...this.blocks(children(box)));
      return;
    }
    // A SmartArt diagram: its text outline as a list after this paragraph.
    const diagram = relAttr(descendants(el, 'relIds')[0], 'dm');
    const nodes = diagram ? this.pkg.diagram(diagram) : [];
    if (nodes.length) {
      extra.push(...nestListItems(nodes.map((n) => ({ level: n.level, ordered: false, text: [text(n.text)] }))));
      return;
    }
    const docPr = descendants(el, 'docPr')[0];
    const isPicture =
      descendants(el, 'blip').length > 0 || descendants(el, 'imagedata').length > 0 || descendants(el, 'chart').length;
    if (!isPicture) return;
    const alt = imageAltText(
      attr(docPr, 'descr'),
      attr(docPr, 'title'),
      attr(descendants(el, 'imagedata')[0], 'title'),
    );
    const read = this.pictureText.get(imageRelId(el) ?? '');
    out.push({ node: { type: 'image', alt: read ? `${alt}: ${read}` : alt }, ...fmt });
  }

  private noteReference(kind: string, id: string): string {
    const key = `${kind}:${id}`;
    let label = this.noteNumbers.get(key);
    if (!label) {
      label = String(this.noteDefinitions.filter((n) => !n.id.startsWith('c')).length + 1);
      this.noteNumbers.set(key, label);
      const note = (kind === 'footnoteReference' ? this.pkg.footnotes : this.pkg.endnotes).get(id);
      const entry: Note = { id: label, blocks: [] };
      this.noteDefinitions.push(entry);
      entry.blocks = note ? this.blocks(children(note)) : [];
    }
    return label;
  }

  private commentReference(id: string): string {
    const key = `comment:${id}`;
    let label = this.noteNumbers.get(key);
    if (!label) {
      label = `c${this.noteDefinitions.filter((n) => n.id.startsWith('c')).length + 1}`;
      this.noteNumbers.set(key, label);
      const comment = this.pkg.comments.get(id);
      const entry: Note = { id: label, blocks: [] };
      this.noteDefinitions.push(entry);
      if (comment) {
        const body = this.blocks(children(comment.body));
        const lead = text(comment.author ? `Comment by ${comment.author}: ` : 'Comment: ');
        const [first, ...rest] = body;
        entry.blocks =
          first?.type === 'paragraph'
            ? [{ type: 'paragraph', text: [lead, ...first.text] }, ...rest]
            : [{ type: 'paragraph', text: [lead] }, ...body];
      }
    }
    return label;
  }

  /**
   * A table as a grid: spanned cells repeated across their columns and rows. A table whose content is
   * all in one cell is a frame (a one-cell box, or a page laid out as a text cell beside empty margin
   * cells): that cell's blocks.
   */
  private table(tbl: Element): Block[] {
    const rowEls = rowsOf(tbl);
    const cellEls = rowEls.flatMap(cellsOf);
    const filled = cellEls.filter((tc) => !PLACEHOLDER_CELLS.has(tc) && hasContent(tc));
    if (cellEls.length === 1 || filled.length === 1) return this.blocks(children(filled[0] ?? cellEls[0]!));
    // Charts in cells follow the outermost table: their data tables would be flattened into a cell's text.
    const outer = !this.cellCharts;
    const charts = (this.cellCharts ??= []);
    const rows: Inline[][][] = [];
    let above: Inline[][] = [];
    for (const tr of rowEls) {
      const row: Inline[][] = [];
      const before = Number(attr(child(child(tr, 'trPr'), 'gridBefore'), 'val') ?? 0);
      for (let k = 0; k < Math.min(before, 64); k++) row.push([]);
      for (const tc of cellsOf(tr)) {
        const tcPr = child(tc, 'tcPr');
        const span = Math.max(1, Math.min(64, Number(attr(child(tcPr, 'gridSpan'), 'val') ?? 1)));
        const vMerge = child(tcPr, 'vMerge');
        const continued = vMerge !== undefined && attr(vMerge, 'val') !== 'restart';
        const text = continued ? (above[row.length] ?? []) : PLACEHOLDER_CELLS.has(tc) ? [] : this.cellText(tc);
        for (let k = 0; k < span; k++) row.push(text);
      }
      rows.push(row);
      above = row;
    }
    if (outer) this.cellCharts = undefined;
    const blocks: Block[] = rows.every((r) => r.every(isBlankInline)) ? [] : [{ type: 'table', rows }];
    return outer ? [...blocks, ...charts] : blocks;
  }

  private cellText(tc: Element): Inline[] {
    return blocksAsInline(this.blocks(children(tc)));
  }
}

/** Whether a cell shows anything: text (a field's too), a picture, an equation or an embedded object. */
function hasContent(tc: Element): boolean {
  if ((tc.textContent ?? '').trim()) return true;
  return ['drawing', 'pict', 'object', 'oMath', 'oMathPara', 'altChunk'].some(
    (name) => descendants(tc, name).length > 0,
  );
}

/** The relationship id of a drawing's picture (DrawingML blip or VML image data). */
export function imageRelId(el: Element): string | undefined {
  return relAttr(descendants(el, 'blip')[0], 'embed') ?? relAttr(descendants(el, 'imagedata')[0], 'id');
}

function rowsOf(tbl: Element): Element[] {
  return wrapped(tbl, 'tr');
}

function cellsOf(tr: Element): Element[] {
  return wrapped(tr, 'tc');
}

/**
 * The `name` children of `el`, with those inside content controls and custom XML, however deeply nested: Word's
 * repeating sections wrap rows in three controls, and a drop-down control may wrap a single cell.
 */
function wrapped(el: Element, name: 'tr' | 'tc'): Element[] {
  return children(el).flatMap((c) => {
    if (c.localName === name) return [c];
    if (c.localName !== 'sdt' && c.localName !== 'customXml') return [];
    const inside = wrapped(child(c, 'sdtContent') ?? c, name);
    // A cell whose control shows its placeholder keeps its place in the row, empty.
    if (name === 'tc' && showsPlaceholder(c)) for (const tc of inside) PLACEHOLDER_CELLS.add(tc);
    return inside;
  });
}

/** Cells wrapped in a content control that shows its placeholder ("Choose an item."). */
const PLACEHOLDER_CELLS = new WeakSet<Element>();

/**
 * A content control showing its placeholder: Word's grey prompt ("Click or tap here to enter text.", "[Job Title]")
 * stands where nothing was entered, and is not the document's text.
 */
function showsPlaceholder(sdt: Element): boolean {
  const flag = child(child(sdt, 'sdtPr'), 'showingPlcHdr');
  if (!flag) return false;
  const val = attr(flag, 'val');
  return val !== '0' && val !== 'false' && val !== 'off';
}

/** A form check box's state: `w:checked` as set, else its default. */
function formCheckBoxChecked(checkBox: Element): boolean {
  return on(child(checkBox, 'checked')) ?? on(child(checkBox, 'default')) ?? false;
}

function on(el: Element | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = attr(el, 'val');
  return v === undefined || !/^(false|0|off|none)$/i.test(v);
}

/** The run with everything up to and including `marker` removed, so a field char splits a run cleanly. */
function restAfter(r: Element, marker: Element): Element {
  const copy = r.cloneNode(false) as Element;
  let seen = false;
  for (let n = r.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === 'rPr') copy.appendChild(n.cloneNode(true));
    else if (seen) copy.appendChild(n.cloneNode(true));
    if (n === marker) seen = true;
  }
  return copy;
}

/** A run of spaces and tabs that holds a no-break space; other runs of two or more, or a tab. */
const RUN_WITH_NBSP = /[ \t\u00a0]*\u00a0[ \t\u00a0]*/g;
const RUN_OF_SPACES = /[ \t]{2,}|\t/g;

/** Word white space: runs of spaces and tabs as one (a no-break space kept), none around a line end. */
function tidy(text: string): string {
  // A run with a no-break space keeps one (it was typed to hold words together), any other is one space.
  return text
    .replace(RUN_WITH_NBSP, '\u00a0')
    .replace(RUN_OF_SPACES, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** A comment's mark (`[^cN]`), as commentReference labels it. */
const isCommentMark = (p: Piece | undefined): boolean =>
  p !== undefined && 'node' in p && p.node.type === 'noteRef' && p.node.id.startsWith('c');

const WORD_END = /[^\p{L}\p{N}\p{M}]/u;

/**
 * Comment marks that fall inside a word (a comment on one letter of it, as reviewers leave on a
 * typo: Word puts the reference where the commented range ends) move to the word's end, in
 * place, so the word is not cut in two (`t[^c1]est`). Marks between words stay where they are.
 */
function commentMarksAfterWords(pieces: Piece[]): void {
  for (let i = 0; i < pieces.length; i++) {
    const mark = pieces[i]!;
    const before = pieces[i - 1];
    if (!isCommentMark(mark) || !before || !('text' in before) || !/[\p{L}\p{N}]$/u.test(before.text)) continue;
    // Where the word ends: after the last piece of its letters (other marks in it are passed over).
    let at = i;
    let split: { index: number; end: number } | undefined;
    for (let j = i + 1; j < pieces.length; j++) {
      const q = pieces[j]!;
      if (isCommentMark(q)) continue;
      if (!('text' in q)) break;
      const end = q.text.search(WORD_END);
      if (end > 0) split = { index: j, end };
      if (end !== -1) break;
      at = j;
    }
    if (split) {
      const q = pieces[split.index]! as Piece & { text: string };
      pieces.splice(
        split.index,
        1,
        { ...q, text: q.text.slice(0, split.end) },
        { ...q, text: q.text.slice(split.end) },
      );
      at = split.index;
    }
    if (at === i) continue;
    pieces.splice(at + 1, 0, mark);
    pieces.splice(i, 1);
    i--;
  }
}

/** Inline nodes from pieces: neighbours with the same formatting and link share one node. */
function toInlines(pieces: Piece[]): Inline[] {
  return collapseSpaces(grouped(pieces));
}

function grouped(pieces: Piece[]): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < pieces.length) {
    const href = pieces[i]!.href;
    let j = i;
    while (j < pieces.length && pieces[j]!.href === href) j++;
    const inner = formatted(pieces.slice(i, j));
    const visible = pieces.slice(i, j).some((x) => !('text' in x) || x.text.trim());
    out.push(...(href && visible ? [{ type: 'link' as const, url: href, children: inner }] : inner));
    i = j;
  }
  return out;
}

function formatted(pieces: Piece[]): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < pieces.length) {
    const p = pieces[i]!;
    if (!('text' in p)) {
      if ('node' in p) out.push(p.node);
      i++;
      continue;
    }
    let text = '';
    let j = i;
    for (; j < pieces.length; j++) {
      const q = pieces[j]!;
      if (!('text' in q) || q.b !== p.b || q.i !== p.i || q.s !== p.s || q.v !== p.v || q.code !== p.code) break;
      text += q.text;
    }
    // Inline code keeps its spaces as typed.
    const nodes: Inline[] = p.code && text.trim() ? [{ type: 'code', text }] : withBreaks(tidy(text));
    out.push(...styled(nodes, { bold: p.b, italic: p.i, strike: p.s, position: p.v }));
    i = j;
  }
  return out;
}

/** Text with its line ends (`w:br`, `w:cr`) as hard line breaks, as DOC, ODT and RTF give them. */
function withBreaks(text: string): Inline[] {
  if (!text.includes('\n')) return [{ type: 'text', text }];
  return joinedByBreaks(text.split('\n').map((line) => (line ? [plainText(line)] : [])));
}

const plainText = (value: string): Inline => ({ type: 'text', text: value });

/** A list paragraph's left indent: its own `w:ind` (the last one that sets it), else its numbering level's. */
function indentOf(pPr: Element | undefined, levelIndent: number | undefined): { indent?: number } {
  let own: number | undefined;
  for (const ind of children(pPr, 'ind')) {
    const value = Number(attr(ind, 'left') ?? attr(ind, 'start'));
    if (Number.isFinite(value)) own = value;
  }
  const indent = own ?? levelIndent;
  return indent === undefined ? {} : { indent };
}

/**
 * Lists nested by indentation alone: AbiWord (and Word's "List Bullet 2" styles) write each nested list
 * as a list of its own at level 0, set further right. An item at level 0 of another list than the items
 * before it, indented past them, nests under them, as it is drawn; items of one list keep their levels.
 */
function nestByIndent(items: Array<Extract<Flat, { kind: 'item' }>>): void {
  /** The lists open around the current item, outermost first: the level their level-0 items take, the last item's level. */
  const open: Array<{ sequence: string; indent: number; base: number; last: number }> = [];
  for (const it of items) {
    const own = open.findIndex((l) => l.sequence === it.sequence);
    if (own >= 0) {
      open.length = own + 1;
      it.level += open[own]!.base;
      open[own]!.last = it.level;
      continue;
    }
    if (it.indent === undefined) {
      open.length = 0;
      continue;
    }
    while (open.length && open[open.length - 1]!.indent >= it.indent) open.pop();
    const parent = open[open.length - 1];
    const base = parent && it.level === 0 ? parent.last + 1 : 0;
    if (!base) open.length = 0;
    it.level += base;
    open.push({ sequence: it.sequence, indent: it.indent, base, last: it.level });
  }
}

/** Word's built-in "List Bullet 2", "List Number 3" … styles: each numbers at level 0 of its own list, indented as level N. */
const BUILT_IN_LIST_STYLE = /^List(?: Bullet| Number)? ([2-9])$/i;

/** The nesting level a built-in "List Bullet N" style gives an item (N - 1), else 0. */
function builtInListLevel(styleNames: string[]): number {
  for (const name of styleNames) {
    const m = BUILT_IN_LIST_STYLE.exec(name);
    if (m) return Number(m[1]) - 1;
  }
  return 0;
}

/** Groups list items into nested lists and code lines into code blocks. */
function group(flat: Flat[]): Block[] {
  joinMonospacedLines(flat);
  const out: Block[] = [];
  let i = 0;
  while (i < flat.length) {
    const f = flat[i]!;
    // A block (a code block, a list) that runs over a page break is on the page where it starts.
    const page = f.page === undefined ? {} : { page: f.page };
    if (f.kind === 'block') {
      out.push(f.page === undefined ? f.block : { ...f.block, ...page });
      i++;
    } else if (f.kind === 'code') {
      const lines: string[] = [];
      while (i < flat.length && flat[i]!.kind === 'code') lines.push((flat[i++] as { text: string }).text);
      out.push({ type: 'code', text: lines.join('\n'), ...page });
    } else {
      const items: Array<Extract<Flat, { kind: 'item' }>> = [];
      while (i < flat.length && flat[i]!.kind === 'item') items.push(flat[i++] as Extract<Flat, { kind: 'item' }>);
      nestByIndent(items);
      const lists = nestListItems(items.map(({ page: _page, ...it }) => ({ ...it, list: it.sequence })));
      out.push(...lists.map((b) => ({ ...b, ...page })));
    }
  }
  return out;
}

/** Monospaced paragraphs next to code lines (directly or through others like them) become code lines. */
function joinMonospacedLines(flat: Flat[]): void {
  for (let i = 0; i < flat.length; i++) {
    if (flat[i]!.kind !== 'code') continue;
    for (const step of [-1, 1]) {
      for (let j = i + step; j >= 0 && j < flat.length; j += step) {
        const f = flat[j]!;
        if (f.kind !== 'block' || f.monoLine === undefined) break;
        flat[j] = { kind: 'code', text: f.monoLine, ...(f.page === undefined ? {} : { page: f.page }) };
      }
    }
  }
}

/**
 * The page breaks a WordprocessingML body records, in document order: hard page breaks
 * (`w:br w:type="page"`, `w:pageBreakBefore`), section breaks that start a new page, and Word's
 * `w:lastRenderedPageBreak` where the page broke when it was last laid out. A rendered break
 * with no text since the last break is the same break (Word writes one after a hard break).
 */
class PageBreaks {
  page = 1;
  private textSinceBreak = false;

  /** Walks an element of the body; returns the page its content starts on. */
  walk(el: Element): number {
    let start: number | undefined;
    const stack: Element[] = [el];
    while (stack.length) {
      const node = stack.pop()!;
      switch (node.localName) {
        case 'br':
          if (attr(node, 'type') === 'page') this.hard();
          continue;
        case 'lastRenderedPageBreak':
          if (this.textSinceBreak) this.hard();
          continue;
        case 'pageBreakBefore':
          // Before the first text of the document, or right after another break, it starts no further page.
          if (this.textSinceBreak && !/^(0|false|off)$/.test(attr(node, 'val') ?? '')) this.hard();
          continue;
        case 't':
        case 'drawing':
        case 'pict':
          if (node.localName !== 't' || node.textContent?.trim()) {
            start ??= this.page;
            this.textSinceBreak = true;
          }
          continue;
        case 'sectPr':
          // A section that ends in a paragraph starts the next one on a new page unless it is continuous.
          if (node.parentNode && (node.parentNode as Element).localName === 'pPr') {
            const type = attr(child(node, 'type'), 'val') ?? 'nextPage';
            if (type !== 'continuous' && type !== 'nextColumn') this.pendingSection = true;
          }
          continue;
        default:
          break;
      }
      const kids = children(node);
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
    }
    const page = start ?? this.page;
    if (this.pendingSection) {
      this.pendingSection = false;
      if (this.textSinceBreak) this.hard();
    }
    return page;
  }

  private pendingSection = false;

  private hard(): void {
    this.page++;
    this.textSinceBreak = false;
  }
}

/**
 * What an inline node shows inside a code block, where nothing is read as Markdown: a note's
 * mark as `[^id]`, an image by its alt text, math as TeX between dollars (as the source shows them).
 */
function shownInCode(node: Inline): string {
  switch (node.type) {
    case 'noteRef':
      return `[^${node.id.replace(/[\s\]^]+/g, '-')}]`;
    case 'image':
      return `![${node.alt.replace(/\s+/g, ' ').trim() || 'image'}](#)`;
    case 'math':
      return node.tex.trim() ? `$${node.tex.trim()}$` : '';
    default:
      return inlineText([node]);
  }
}
