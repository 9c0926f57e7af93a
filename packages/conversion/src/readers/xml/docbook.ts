import type { Element } from '@xmldom/xmldom';
import type { Block } from '../../document/model';
import { attr, child, children, descendants } from '../shared/xml-dom';
import { XmlDocumentReader, tidy, type Role, type Vocabulary } from './document-xml';
import { DOCBOOK_INFO, type XmlDocument } from './vocabulary';

/** DocBook 4 and 5 (the same element names; 5 adds a namespace and `info`). */
const SECTIONS = new Set([
  'book',
  'part',
  'chapter',
  'appendix',
  'preface',
  'article',
  'section',
  'simplesect',
  'sect1',
  'sect2',
  'sect3',
  'sect4',
  'sect5',
  'refentry',
  'refsect1',
  'refsect2',
  'refsect3',
  'refsection',
  'refsynopsisdiv',
  'glossary',
  'bibliography',
  'colophon',
  'dedication',
  'acknowledgements',
  'reference',
  'partintro',
  'set',
  'topic',
  'glossdiv',
  'bibliodiv',
]);
const FLOW = new Set([
  'para',
  'simpara',
  'listitem',
  'step',
  'member',
  'callout',
  'glossdef',
  'entry',
  'td',
  'th',
  'textobject',
  'abstract',
  'caption',
  'msgtext',
  'qandaentry',
  'question',
  'answer',
  'qandaset',
  'qandadiv',
  'refnamediv',
  'biblioentry',
  'bibliomixed',
  'glossentry',
  'highlights',
  'task',
  'taskprerequisites',
]);
const ITEMS = new Set(['listitem', 'step', 'member', 'callout', 'biblioentry', 'bibliomixed']);
const CODE = new Set(['programlisting', 'screen', 'literallayout', 'synopsis', 'funcsynopsisinfo', 'address']);
const QUOTES = new Set([
  'blockquote',
  'epigraph',
  'note',
  'tip',
  'warning',
  'caution',
  'important',
  'danger',
  'sidebar',
]);
const FORMAL = new Set([
  'figure',
  'informalfigure',
  'example',
  'informalexample',
  'mediaobject',
  'screenshot',
  'procedure',
  'formalpara',
]);
const SKIP = new Set([
  ...DOCBOOK_INFO,
  'refmeta',
  'indexterm',
  'remark',
  'anchor',
  'index',
  'setindex',
  'toc',
  'lot',
  'titleabbrev',
  'subtitle',
  'attribution',
  'colspec',
  'spanspec',
  'imageobject',
  'videoobject',
  'audioobject',
  'beginpage',
  'co',
  'areaspec',
]);
const CODE_SPANS = new Set([
  'literal',
  'code',
  'command',
  'filename',
  'option',
  'varname',
  'function',
  'parameter',
  'classname',
  'constant',
  'envar',
  'userinput',
  'computeroutput',
  'systemitem',
  'markup',
  'tag',
  'prompt',
  'sgmltag',
  'methodname',
  'property',
  'returnvalue',
  'type',
  'uri',
  'keycap',
  'exceptionname',
  'interfacename',
]);
const EMPHASIS = new Set(['citetitle', 'firstterm', 'glossterm', 'foreignphrase', 'replaceable', 'wordasword']);

function role(el: Element, ids: Map<string, Element>): Role {
  const name = el.localName ?? '';
  if (SECTIONS.has(name)) return { kind: 'section' };
  if (name === 'bridgehead') return { kind: 'heading' };
  if (name === 'itemizedlist' || name === 'simplelist') return { kind: 'list', ordered: false };
  if (name === 'orderedlist')
    return { kind: 'list', ordered: true, start: Number(el.getAttribute('startingnumber')) || undefined };
  if (name === 'procedure' || name === 'substeps' || name === 'calloutlist')
    return { kind: 'list', ordered: name !== 'calloutlist' };
  if (name === 'bibliolist') return { kind: 'list', ordered: false };
  if (name === 'variablelist' || name === 'glosslist' || name === 'segmentedlist') return { kind: 'definitions' };
  if (ITEMS.has(name)) return { kind: 'item' };
  if (FLOW.has(name)) return { kind: 'flow' };
  if (CODE.has(name)) return { kind: 'code' };
  if (QUOTES.has(name)) return { kind: 'quote' };
  if (name === 'table' || name === 'informaltable') return { kind: 'table' };
  if (FORMAL.has(name)) return { kind: 'formal' };
  if (name === 'equation' || name === 'informalequation') return { kind: 'math', display: true };
  if (name === 'inlineequation') return { kind: 'math', display: false };
  if (SKIP.has(name) || name === 'title') return { kind: 'skip' };
  if (name === 'emphasis') {
    const r = (el.getAttribute('role') ?? '').toLowerCase();
    if (r === 'bold' || r === 'strong') return { kind: 'strong' };
    if (r === 'strikethrough' || r === 'strike') return { kind: 'strike' };
    return { kind: 'emphasis' };
  }
  if (EMPHASIS.has(name)) return { kind: 'emphasis' };
  if (name === 'superscript') return { kind: 'superscript' };
  if (name === 'subscript') return { kind: 'subscript' };
  if (CODE_SPANS.has(name)) return { kind: 'code-span' };
  if (name === 'ulink') return { kind: 'link', url: el.getAttribute('url') ?? '' };
  if (name === 'email') return { kind: 'link', url: `mailto:${(el.textContent ?? '').trim()}` };
  if (name === 'link' || name === 'olink') {
    const href = attr(el, 'href');
    if (href) return { kind: 'link', url: href };
    return { kind: 'inline' };
  }
  if (name === 'xref') {
    if (el.firstChild) return { kind: 'inline' };
    // What DocBook's stylesheets write: the target's xreflabel, else the endterm's text, else the target's title.
    const target = ids.get(el.getAttribute('linkend') ?? '');
    const endterm = ids.get(el.getAttribute('endterm') ?? '');
    const label = (target?.getAttribute('xreflabel') || endterm?.textContent || '').replace(/\s+/g, ' ').trim();
    const title = target && (titleElements(target)?.[0]?.textContent ?? '').replace(/\s+/g, ' ').trim();
    return { kind: 'text', text: label || title || el.getAttribute('linkend') || '' };
  }
  if (name === 'footnote') return { kind: 'note' };
  if (name === 'footnoteref') return { kind: 'note-ref', id: el.getAttribute('linkend') ?? '' };
  if (name === 'inlinemediaobject' || name === 'imagedata' || name === 'inlinegraphic' || name === 'graphic') {
    return { kind: 'image', alt: altText(el) };
  }
  if (name === 'quote') return { kind: 'inline' };
  if (name === 'sbr') return { kind: 'break' };
  return { kind: 'inline' };
}

function altText(el: Element): string {
  const alt = descendants(el, 'alt')[0] ?? descendants(el, 'phrase')[0];
  return (alt?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A title written in the element or in its info block (DocBook 5 `info`, DocBook 4 `sect1info`…). */
function titleElements(el: Element): Element[] | undefined {
  const direct = child(el, 'title');
  if (direct) return [direct];
  const info = children(el).find((c) => c.localName === 'info' || /info$/.test(c.localName ?? ''));
  const inInfo = info && child(info, 'title');
  if (inInfo) return [inInfo];
  if (el.localName === 'refentry') {
    const name = descendants(el, 'refname')[0] ?? descendants(el, 'refentrytitle')[0];
    return name ? [name] : undefined;
  }
  return undefined;
}

/** CALS tables (`tgroup`, `row`, `entry`) and HTML tables (`tr`, `td`, `th`) both occur. */
function tableRows(table: Element): { rows: Element[][]; headerRows: number } {
  const rows: Element[][] = [];
  let headerRows = 0;
  const visit = (el: Element, inHead: boolean): void => {
    for (const c of children(el)) {
      const name = c.localName;
      if (name === 'row' || name === 'tr') {
        const cells = children(c).filter((x) => ['entry', 'td', 'th', 'entrytbl'].includes(x.localName ?? ''));
        if (inHead || (cells.length && cells.every((x) => x.localName === 'th') && rows.length === headerRows)) {
          if (rows.length === headerRows) headerRows++;
        }
        rows.push(cells);
      } else if (name === 'tgroup' || name === 'tbody' || name === 'thead' || name === 'tfoot') {
        visit(c, name === 'thead');
      }
    }
  };
  visit(table, false);
  return { rows, headerRows };
}

/** Title, authors and abstract of the document: the root's info block. */
export function readDocBook(doc: XmlDocument): { blocks: Block[]; title: string; author: string } {
  const root = doc.root;
  const ids = new Map<string, Element>();
  for (const el of [root, ...descendants(root, '*')]) {
    const id = el.getAttribute('id') || el.getAttribute('xml:id');
    if (id && !ids.has(id)) ids.set(id, el);
  }
  const vocabulary: Vocabulary = {
    role: (el) => role(el, ids),
    title: titleElements,
    isTitlePart: (el) => el.localName === 'title' && el.parentNode !== null,
    tableRows,
  };
  const titleEl = titleElements(root)?.[0];
  const reader = new XmlDocumentReader(vocabulary, titleEl ? 2 : 1);
  const title = titleEl ? tidy(reader.inlineContent(titleEl)) : [];
  const info = children(root).find((c) => c.localName === 'info' || /info$/.test(c.localName ?? ''));
  const authors = info ? descendants(info, 'author').map(personName).filter(Boolean) : [];
  const abstract = info ? child(info, 'abstract') : undefined;
  const head: Block[] = [];
  if (title.length) head.push({ type: 'heading', level: 1, text: title });
  if (authors.length) head.push({ type: 'paragraph', text: [{ type: 'text', text: authors.join(', ') }] });
  const abstractBlocks = abstract ? reader.flow(abstract, 0) : [];
  // The root's title is the document's (level 1), so its sections start at level 2.
  const body = reader.document([root]);
  const plainTitle = (titleEl?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return { blocks: [...head, ...abstractBlocks, ...body], title: plainTitle, author: authors.join(', ') };
}

function personName(author: Element): string {
  const personname = child(author, 'personname') ?? author;
  const parts = ['honorific', 'firstname', 'givenname', 'othername', 'surname', 'lineage']
    .map((n) => (child(personname, n)?.textContent ?? '').trim())
    .filter(Boolean);
  if (parts.length) return parts.join(' ');
  const org = child(author, 'orgname');
  return ((org ?? personname).textContent ?? '').replace(/\s+/g, ' ').trim();
}
