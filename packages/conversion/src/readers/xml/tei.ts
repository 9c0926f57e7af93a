import type { Element } from '@xmldom/xmldom';
import type { Block } from '../../document/model';
import { child, children, descendants } from '../shared/xml-dom';
import { XmlDocumentReader, tidy, type Role, type Vocabulary } from './document-xml';
import type { XmlDocument } from './vocabulary';

/** TEI (P5, and P4's `TEI.2`): the text's divisions; from the header only the title and authors. */
const SECTIONS = new Set(['div', 'div1', 'div2', 'div3', 'div4', 'div5', 'div6', 'div7']);
const FLOW = new Set([
  'p',
  'ab',
  'item',
  'cell',
  'front',
  'body',
  'back',
  'opener',
  'closer',
  'argument',
  'epigraph',
  'sp',
  'lg',
  'postscript',
  'docTitle',
  'titlePage',
  'byline',
  'dateline',
  'salute',
  'signed',
  'trailer',
  'bibl',
  'biblStruct',
  'listBibl',
  'figDesc',
  'floatingText',
  'text',
  'group',
]);
const SKIP = new Set([
  'teiHeader',
  'head',
  'pb',
  'cb',
  'fw',
  'sic',
  'orig',
  'abbr',
  'del',
  'gap',
  'index',
  'interp',
  'milestone',
  'anchor',
  'link',
  'linkGrp',
  'facsimile',
  'standOff',
]);
const EMPHASIS = new Set(['emph', 'title', 'term', 'foreign', 'mentioned', 'soCalled', 'gloss']);

function rendition(el: Element): string {
  return `${el.getAttribute('rend') ?? ''} ${el.getAttribute('rendition') ?? ''}`.toLowerCase();
}

function role(el: Element): Role {
  const name = el.localName ?? '';
  if (SECTIONS.has(name)) return { kind: 'section' };
  if (name === 'list') {
    const type = `${el.getAttribute('type') ?? ''} ${rendition(el)}`;
    if (/gloss/.test(type)) return { kind: 'definitions' };
    // `type="unordered"` and `rend="bulleted"` say "order" or nothing about numbers: only a numbering word orders.
    return { kind: 'list', ordered: !/unordered|bullet/.test(type) && /order|number|arabic|roman|alpha/.test(type) };
  }
  if (name === 'item') return { kind: 'item' };
  if (name === 'eg' || name === 'egXML' || (name === 'ab' && /code/.test(el.getAttribute('type') ?? '')))
    return { kind: 'code' };
  if (name === 'l') return { kind: 'flow' };
  if (FLOW.has(name)) return { kind: 'flow' };
  if (name === 'code' && /\n/.test(el.textContent ?? '')) return { kind: 'code' };
  if (name === 'seg' && /code/.test(el.getAttribute('type') ?? '')) return { kind: 'code-span' };
  if (name === 'quote' || name === 'cit' || name === 'q') {
    return children(el).some((c) => FLOW.has(c.localName ?? '') || c.localName === 'lg')
      ? { kind: 'quote' }
      : { kind: 'inline' };
  }
  if (name === 'table') return { kind: 'table' };
  if (name === 'figure') return { kind: 'formal' };
  if (name === 'formula') return { kind: 'math', display: el.getAttribute('rend') === 'display' };
  if (SKIP.has(name)) return { kind: 'skip' };
  if (name === 'note') return { kind: 'note' };
  if (name === 'hi') {
    const rend = rendition(el);
    if (/bold|strong/.test(rend)) return { kind: 'strong' };
    if (/sup/.test(rend)) return { kind: 'superscript' };
    if (/sub/.test(rend)) return { kind: 'subscript' };
    if (/strike|line-?through/.test(rend)) return { kind: 'strike' };
    if (/mono|code|typewriter/.test(rend)) return { kind: 'code-span' };
    return /ital|emph|^ *$/.test(rend) ? { kind: 'emphasis' } : { kind: 'inline' };
  }
  if (EMPHASIS.has(name)) return { kind: 'emphasis' };
  if (name === 'code' || name === 'ident' || name === 'gi' || name === 'att' || name === 'val')
    return { kind: 'code-span' };
  if (name === 'ref' || name === 'ptr') return { kind: 'link', url: el.getAttribute('target') ?? '' };
  if (name === 'graphic' || name === 'media')
    return { kind: 'image', alt: (child(el, 'desc')?.textContent ?? '').trim() };
  if (name === 'lb') return { kind: 'break' };
  return { kind: 'inline' };
}

function title(el: Element): Element[] | undefined {
  const head = child(el, 'head');
  return head ? [head] : undefined;
}

/** TEI tables: `row role="label"` rows (leading ones) are headers. */
function tableRows(table: Element): { rows: Element[][]; headerRows: number } {
  const rows = children(table, 'row');
  let headerRows = 0;
  while (headerRows < rows.length && rows[headerRows]!.getAttribute('role') === 'label') headerRows++;
  return { rows: rows.map((r) => children(r, 'cell')), headerRows };
}

export function readTei(doc: XmlDocument): { blocks: Block[]; title: string; author: string } {
  const root = doc.root;
  const header = child(root, 'teiHeader') ?? descendants(root, 'teiHeader')[0];
  const titleStmt = header && descendants(header, 'titleStmt')[0];
  const titleEl = titleStmt && child(titleStmt, 'title');
  const authors = titleStmt
    ? children(titleStmt, 'author')
        .map((a) => (a.textContent ?? '').replace(/\s+/g, ' ').trim())
        .filter(Boolean)
    : [];
  const vocabulary: Vocabulary = {
    role,
    title,
    isTitlePart: (el) => el.localName === 'head',
    tableRows,
  };
  const reader = new XmlDocumentReader(vocabulary, titleEl ? 2 : 1);
  const titleText = titleEl ? tidy(reader.inlineContent(titleEl)) : [];
  const head: Block[] = [];
  if (titleText.length) head.push({ type: 'heading', level: 1, text: titleText });
  if (authors.length) head.push({ type: 'paragraph', text: [{ type: 'text', text: authors.join(', ') }] });
  const texts = root.localName === 'teiCorpus' ? descendants(root, 'text') : children(root, 'text');
  return {
    blocks: [...head, ...reader.document(texts)],
    title: (titleEl?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    author: authors.join(', '),
  };
}
