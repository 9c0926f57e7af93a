import type { Element, Node } from '@xmldom/xmldom';
import { XMLSerializer } from '@xmldom/xmldom';
import { blocksAsInline, mergeNeighbours, withoutWholeEmphasis } from '../../document/builders';
import { text as plain, type Block, type Inline, type ListItem, type Note } from '../../document/model';
import { children } from '../shared/xml-dom';
import { descendantsOf, parseHtml } from '../shared/html/dom';
import { mathTex } from '../shared/html/mathml';
import { MAX_HTML_DEPTH } from '../shared/html/reader';

/** What an element is in a document vocabulary (DocBook, JATS, TEI), as the reader treats it. */
export type Role =
  /** A division whose title is a heading; its divisions nest one level deeper. */
  | { kind: 'section' }
  /** A block that holds text and blocks: a paragraph, a list item's body. */
  | { kind: 'flow' }
  | { kind: 'heading' }
  | { kind: 'list'; ordered: boolean; start?: number }
  | { kind: 'item' }
  /** Terms and their definitions (DocBook variablelist, JATS def-list, TEI list type="gloss"). */
  | { kind: 'definitions' }
  | { kind: 'code' }
  | { kind: 'quote' }
  | { kind: 'table' }
  /** A figure, example or admonition: its title or caption as a paragraph, then its content. */
  | { kind: 'formal' }
  | { kind: 'math'; display: boolean }
  | { kind: 'skip' }
  | { kind: 'strong' | 'emphasis' | 'code-span' | 'superscript' | 'subscript' | 'strike' }
  | { kind: 'link'; url: string }
  /** A footnote written where it is referenced (DocBook footnote, TEI note). */
  | { kind: 'note' }
  /** A reference to a note written elsewhere (JATS `xref ref-type="fn"`), by the note element's id. */
  | { kind: 'note-ref'; id: string }
  | { kind: 'image'; alt: string }
  | { kind: 'break' }
  /** Text of its own in place of the element's content (DocBook `xref` as its target's title). */
  | { kind: 'text'; text: string }
  /** Its content, as if the element were not there. */
  | { kind: 'inline' };

/** A document vocabulary: what each element is, its title, and where notes written apart are. */
export interface Vocabulary {
  role(el: Element): Role;
  /** A section's or formal object's title, label included (`2.1 Methods`), if it has one. */
  title(el: Element): Element[] | undefined;
  /** Elements of a section that its title consists of, left out of its content. */
  isTitlePart(el: Element): boolean;
  /** A table's rows, each with its cells, and how many leading rows are headers. */
  tableRows(table: Element): { rows: Element[][]; headerRows: number };
}

/**
 * A document-XML tree as blocks. Text outside any block element is gathered into paragraphs, and
 * a block element met inside a paragraph (a list in a DocBook `para`, a table in a JATS `p`)
 * ends the paragraph there, so mixed content reads in document order.
 */
export class XmlDocumentReader {
  private readonly notes: Note[] = [];
  private readonly noteIds = new Map<string, string>();
  private depth = 0;

  constructor(
    private readonly vocabulary: Vocabulary,
    /** The heading level of a top-level section (2 when the document's title is the level-1 heading). */
    private readonly topLevel: number,
    /** Notes written apart from their references (JATS `fn`), by id. */
    private readonly notesById: Map<string, Element> = new Map(),
  ) {}

  /** Blocks of these elements' content, then the notes referenced in them. */
  document(roots: Element[]): Block[] {
    return this.withNotes(roots.flatMap((root) => this.flow(root, 0)));
  }

  /** The blocks, then the notes referenced so far. */
  withNotes(blocks: Block[]): Block[] {
    return this.notes.length ? [...blocks, { type: 'notes', notes: this.notes }] : blocks;
  }

  /** An element's content as blocks, at this section depth. */
  flow(el: Element, level: number): Block[] {
    if (++this.depth > MAX_HTML_DEPTH) {
      this.depth--;
      return [];
    }
    const out: Block[] = [];
    let run: Inline[] = [];
    const flush = (): void => {
      const text = tidy(run);
      if (text.length) out.push({ type: 'paragraph', text });
      run = [];
    };
    for (let node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === TEXT || node.nodeType === CDATA) {
        run.push(plain(node.nodeValue ?? ''));
        continue;
      }
      if (node.nodeType !== ELEMENT) continue;
      const child = node as Element;
      if (this.vocabulary.isTitlePart(child)) continue;
      const blocks = this.block(child, level);
      if (blocks) {
        flush();
        out.push(...blocks);
      } else run.push(...this.inline(child));
    }
    flush();
    this.depth--;
    return out;
  }

  /** The element as blocks, or undefined when it is inline content. */
  block(el: Element, level: number): Block[] | undefined {
    const role = this.vocabulary.role(el);
    switch (role.kind) {
      case 'section': {
        const title = this.titleText(el);
        const heading: Block[] = title.length
          ? [{ type: 'heading', level: Math.min(6, this.topLevel + level), text: withoutWholeEmphasis(title) }]
          : [];
        return [...heading, ...this.flow(el, level + 1)];
      }
      case 'heading': {
        const text = tidy(this.inlineContent(el));
        return text.length ? [{ type: 'heading', level: Math.min(6, this.topLevel + level), text }] : [];
      }
      case 'flow':
      case 'item':
        return this.flow(el, level);
      case 'list':
        return this.list(el, role.ordered, role.start, level);
      case 'definitions':
        return this.definitions(el, level);
      case 'code': {
        const code = (el.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
        return code ? [{ type: 'code', text: code }] : [];
      }
      case 'quote': {
        const title = tidy(this.titleText(el));
        const caption: Block[] = title.length
          ? [{ type: 'paragraph', text: [{ type: 'strong', children: title }] }]
          : [];
        const blocks = [...caption, ...this.flow(el, level)];
        return blocks.length ? [{ type: 'quote', blocks }] : [];
      }
      case 'table':
        return this.table(el, level);
      case 'formal': {
        const title = tidy(this.titleText(el));
        const caption: Block[] = title.length
          ? [{ type: 'paragraph', text: [{ type: 'strong', children: title }] }]
          : [];
        return [...caption, ...this.flow(el, level)];
      }
      case 'math':
        if (!role.display) return undefined;
        return this.mathBlock(el);
      case 'skip':
        return [];
      default:
        return undefined;
    }
  }

  /** Display math as its own paragraph, `$$…$$`. */
  private mathBlock(el: Element): Block[] {
    const tex = texOf(el);
    return tex ? [{ type: 'paragraph', text: [{ type: 'math', tex, display: true }] }] : [];
  }

  private list(el: Element, ordered: boolean, start: number | undefined, level: number): Block[] {
    const items: ListItem[] = [];
    const before: Block[] = [];
    for (const child of children(el)) {
      if (this.vocabulary.isTitlePart(child)) continue;
      const role = this.vocabulary.role(child);
      if (role.kind !== 'item') {
        // A list's title or an introduction before its items (DocBook `title`, TEI `head`).
        if (!items.length) before.push(...(this.block(child, level) ?? paragraphOf(tidy(this.inline(child)))));
        continue;
      }
      const blocks = this.flow(child, level);
      const first = blocks[0];
      items.push(
        first?.type === 'paragraph'
          ? { text: first.text, ...(blocks.length > 1 ? { children: blocks.slice(1) } : {}) }
          : { text: [], ...(blocks.length ? { children: blocks } : {}) },
      );
    }
    const title = tidy(this.titleText(el));
    const caption: Block[] = title.length ? [{ type: 'paragraph', text: [{ type: 'strong', children: title }] }] : [];
    if (!items.length) return [...caption, ...before];
    return [
      ...caption,
      ...before,
      { type: 'list', ordered, ...(ordered && start !== undefined ? { start } : {}), items },
    ];
  }

  /** Terms in bold, each followed by its definition, as pandoc writes definition lists to GFM. */
  private definitions(el: Element, level: number): Block[] {
    const out: Block[] = [];
    const title = tidy(this.titleText(el));
    if (title.length) out.push({ type: 'paragraph', text: [{ type: 'strong', children: title }] });
    for (const entry of children(el)) {
      if (this.vocabulary.isTitlePart(entry)) continue;
      const parts = children(entry);
      if (!parts.length) continue;
      for (const part of parts) {
        if (this.vocabulary.role(part).kind === 'item') out.push(...this.flow(part, level));
        else {
          const term = tidy(this.inlineContent(part));
          if (term.length) out.push({ type: 'paragraph', text: [{ type: 'strong', children: term }] });
        }
      }
    }
    return out;
  }

  private table(el: Element, level: number): Block[] {
    const { rows, headerRows } = this.vocabulary.tableRows(el);
    const cells = rows.map((row) => row.map((cell) => tidy(blocksAsInline(this.flow(cell, level)))));
    const width = Math.max(0, ...cells.map((r) => r.length));
    const title = tidy(this.titleText(el));
    const caption: Block[] = title.length ? [{ type: 'paragraph', text: [{ type: 'strong', children: title }] }] : [];
    if (!width) return caption;
    const padded = cells.map((r) => [...r, ...Array.from({ length: width - r.length }, () => [] as Inline[])]);
    return [...caption, { type: 'table', rows: padded, headerRows: Math.min(headerRows, 1) }];
  }

  private titleText(el: Element): Inline[] {
    const parts = this.vocabulary.title(el);
    if (!parts?.length) return [];
    const texts = parts.map((part) => tidy(this.inlineContent(part))).filter((t) => t.length);
    return tidy(texts.flatMap((t, i) => (i ? [plain(' '), ...t] : t)));
  }

  /** An element met in running text. */
  inline(el: Element): Inline[] {
    const role = this.vocabulary.role(el);
    switch (role.kind) {
      case 'skip':
        return [];
      case 'strong':
      case 'emphasis':
      case 'superscript':
      case 'subscript':
      case 'strike': {
        const content = this.inlineContent(el);
        return content.length ? [{ type: role.kind, children: content }] : [];
      }
      case 'code-span': {
        const code = (el.textContent ?? '').replace(/\s+/g, ' ');
        return code.trim() ? [{ type: 'code', text: code }] : [];
      }
      case 'link': {
        const content = this.inlineContent(el);
        const label = content.some((n) => n.type !== 'text' || n.text.trim()) ? content : [plain(role.url)];
        return role.url ? [{ type: 'link', url: role.url, children: label }] : content;
      }
      case 'note':
        return [this.noteRef(el)];
      case 'note-ref': {
        const note = this.notesById.get(role.id);
        return note ? [this.noteRef(note)] : this.inlineContent(el);
      }
      case 'image':
        return role.alt ? [{ type: 'image', alt: role.alt }] : [];
      case 'break':
        return [{ type: 'break' }];
      case 'text':
        return [plain(role.text)];
      case 'math': {
        const tex = texOf(el);
        return tex ? [{ type: 'math', tex, display: role.display }] : [];
      }
      case 'code':
        return [{ type: 'code', text: (el.textContent ?? '').trim() }];
      default:
        return this.inlineContent(el);
    }
  }

  /** An element's content as inline nodes; block elements inside give their text. */
  inlineContent(el: Element): Inline[] {
    if (++this.depth > MAX_HTML_DEPTH) {
      this.depth--;
      return [];
    }
    const out: Inline[] = [];
    for (let node: Node | null = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === TEXT || node.nodeType === CDATA) out.push(plain(node.nodeValue ?? ''));
      else if (node.nodeType === ELEMENT) {
        const child = node as Element;
        const role = this.vocabulary.role(child);
        if (['flow', 'item', 'heading', 'section', 'formal', 'quote'].includes(role.kind)) {
          out.push(plain(' '), ...this.inlineContent(child), plain(' '));
        } else out.push(...this.inline(child));
      }
    }
    this.depth--;
    return out;
  }

  /** A note's reference; its content becomes a note the first time it is referenced. */
  private noteRef(note: Element): Inline {
    const key = note.getAttribute('id') || note.getAttribute('xml:id') || `#${this.notes.length}`;
    let id = this.noteIds.get(key);
    if (!id) {
      id = String(this.notes.length + 1);
      this.noteIds.set(key, id);
      this.notes.push({ id, blocks: [] });
      const entry = this.notes[this.notes.length - 1]!;
      entry.blocks = this.flow(note, 0).filter((b) => b.type !== 'heading');
    }
    return { type: 'noteRef', id };
  }
}

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

function paragraphOf(text: Inline[]): Block[] {
  return text.length ? [{ type: 'paragraph', text }] : [];
}

/**
 * Inline nodes as one line of prose: white space runs (the source's indentation and line ends) as
 * one space, none at the ends, neighbours of the same formatting merged.
 */
export function tidy(nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  let spaceBefore = true;
  const visit = (list: Inline[]): Inline[] => {
    const result: Inline[] = [];
    for (const n of list) {
      if (n.type === 'text') {
        let t = n.text.replace(/\s+/g, ' ');
        if (spaceBefore) t = t.replace(/^ /, '');
        if (!t) continue;
        spaceBefore = t.endsWith(' ');
        result.push(plain(t));
      } else if ('children' in n) {
        const inner = visit(n.children);
        if (inner.length) result.push({ ...n, children: inner } as Inline);
      } else {
        if (n.type === 'break') spaceBefore = true;
        else spaceBefore = false;
        result.push(n);
      }
    }
    return result;
  };
  out.push(...visit(nodes));
  trimEnd(out);
  return mergeNeighbours(out);
}

function trimEnd(nodes: Inline[]): void {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i]!;
    if (n.type === 'break') {
      nodes.splice(i, 1);
      continue;
    }
    if (n.type === 'text') {
      n.text = n.text.replace(/ +$/, '');
      if (!n.text) {
        nodes.splice(i, 1);
        continue;
      }
      return;
    }
    if ('children' in n) {
      trimEnd(n.children);
      if (!n.children.length) {
        nodes.splice(i, 1);
        continue;
      }
    }
    return;
  }
}

/** TeX of a formula element: its `tex-math` (or `alt`) without `$` delimiters, else its MathML converted. */
export function texOf(el: Element): string {
  const tex = findLocal(el, (e) => e.localName === 'tex-math' || e.localName === 'mathphrase' || e.localName === 'alt');
  if (tex?.textContent?.trim()) return stripDelimiters(tex.textContent.trim());
  const math = el.localName === 'math' ? el : findLocal(el, (e) => e.localName === 'math');
  if (math) {
    const html = new XMLSerializer().serializeToString(math).replace(/<(\/?)[\w.-]+:/g, '<$1');
    const root = parseHtml(html);
    const first = root.tag === 'math' ? root : [...descendantsOf(root)].find((e) => e.tag === 'math');
    if (first) return mathTex(first).trim();
  }
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function stripDelimiters(tex: string): string {
  const m =
    /^\$\$([\s\S]*)\$\$$/.exec(tex) ??
    /^\$([\s\S]*)\$$/.exec(tex) ??
    /^\\\[([\s\S]*)\\\]$/.exec(tex) ??
    /^\\\(([\s\S]*)\\\)$/.exec(tex);
  return (m ? m[1]! : tex).trim();
}

/** The first element below `el`, in document order, that passes `test`; iterative, whatever the depth. */
function findLocal(el: Element, test: (e: Element) => boolean): Element | undefined {
  const stack: Element[] = children(el).reverse();
  while (stack.length) {
    const e = stack.pop()!;
    if (test(e)) return e;
    stack.push(...children(e).reverse());
  }
  return undefined;
}
