import type { Element } from '@xmldom/xmldom';
import type { Block, Inline } from '../../document/model';
import { attr, child, children, descendants } from '../shared/xml-dom';
import { XmlDocumentReader, tidy, type Role, type Vocabulary } from './document-xml';
import type { XmlDocument } from './vocabulary';

/** JATS (and NLM) journal articles: PubMed Central's XML. */
const SECTIONS = new Set(['sec', 'app', 'ack', 'glossary', 'notes', 'bio', 'sub-article', 'response', 'app-group']);
const FLOW = new Set([
  'p',
  'caption',
  'statement',
  'abstract',
  'trans-abstract',
  'license-p',
  'speech',
  'fig-group',
  'table-wrap-foot',
  'fn',
  'body',
  'back',
  'def-item',
  'supplementary-material',
  'media',
  'floats-group',
  'ref',
  'mixed-citation',
  'citation',
  'nlm-citation',
  'verse-line',
  'disp-formula-group',
]);
const QUOTES = new Set(['disp-quote', 'boxed-text', 'verse-group']);
const FORMAL = new Set(['fig', 'table-wrap', 'chem-struct-wrap', 'array']);
const SKIP = new Set([
  'front',
  'front-stub',
  'journal-meta',
  'article-meta',
  'object-id',
  'alt-text',
  'permissions',
  'counts',
  'history',
  'kwd-group',
  'processing-meta',
  'long-desc',
  'x',
  'custom-meta-group',
  'related-article',
  'related-object',
  'contrib-group',
  'aff',
  'author-notes',
  'pub-date',
  'title-group',
  'target',
  'index-term',
  'col',
  'colgroup',
]);
/** Where a `label` is a number the heading, caption or list marker shows; in a reference it is kept. */
const LABELLED = new Set([
  'sec',
  'app',
  'fig',
  'table-wrap',
  'list-item',
  'fn',
  'disp-formula',
  'boxed-text',
  'def-item',
  'chem-struct-wrap',
  'supplementary-material',
  'media',
  'disp-quote',
  'statement',
  'ack',
  'glossary',
  'notes',
]);
const ORDERED = /^(order|alpha|roman|simple-)/;

function role(el: Element, referenced: Set<string>): Role {
  const name = el.localName ?? '';
  const parent = (el.parentNode as Element | null)?.localName ?? '';
  if (SECTIONS.has(name)) return { kind: 'section' };
  if (name === 'ref-list') return child(el, 'title') ? { kind: 'section' } : { kind: 'flow' };
  if (name === 'list')
    return {
      kind: 'list',
      ordered: ORDERED.test(el.getAttribute('list-type') ?? '') && el.getAttribute('list-type') !== 'simple',
    };
  if (name === 'list-item' || name === 'def') return { kind: 'item' };
  if (name === 'def-list') return { kind: 'definitions' };
  if (name === 'fn') {
    if (parent === 'p' || parent === 'td' || parent === 'th') return { kind: 'note' };
    // A note that no text points to (competing interests, author contributions) is read where it stands.
    return referenced.has(el.getAttribute('id') ?? '') ? { kind: 'skip' } : { kind: 'flow' };
  }
  if (name === 'fn-group') return { kind: 'formal' };
  if (FLOW.has(name)) return { kind: 'flow' };
  if (name === 'preformat' || (name === 'code' && /\n/.test(el.textContent ?? ''))) return { kind: 'code' };
  if (QUOTES.has(name)) return { kind: 'quote' };
  if (name === 'table') return { kind: 'table' };
  if (FORMAL.has(name)) return { kind: 'formal' };
  if (name === 'disp-formula') return { kind: 'math', display: true };
  if (name === 'inline-formula') return { kind: 'math', display: false };
  if (SKIP.has(name) || name === 'title' || name === 'subtitle') return { kind: 'skip' };
  if (name === 'label' && parent === 'ref') {
    // A reference's number, as reference lists print it: `[12]`.
    const label = (el.textContent ?? '').trim();
    return { kind: 'text', text: /^\d+$/.test(label) ? `[${label}] ` : `${label} ` };
  }
  if (name === 'element-citation' || name === 'product') return { kind: 'text', text: citationText(el) };
  if (name === 'bold') return { kind: 'strong' };
  if (name === 'italic') return { kind: 'emphasis' };
  if (name === 'sup') return { kind: 'superscript' };
  if (name === 'sub') return { kind: 'subscript' };
  if (name === 'strike') return { kind: 'strike' };
  if (name === 'monospace' || name === 'code') return { kind: 'code-span' };
  if (name === 'ext-link' || name === 'uri' || name === 'self-uri')
    return { kind: 'link', url: attr(el, 'href') || (el.textContent ?? '').trim() };
  if (name === 'email') return { kind: 'link', url: `mailto:${(el.textContent ?? '').trim()}` };
  if (name === 'xref' && el.getAttribute('ref-type') === 'fn')
    return { kind: 'note-ref', id: el.getAttribute('rid') ?? '' };
  if (name === 'graphic' || name === 'inline-graphic')
    return { kind: 'image', alt: (child(el, 'alt-text')?.textContent ?? '').trim() };
  if (name === 'break') return { kind: 'break' };
  return { kind: 'inline' };
}

/** A structured citation (no punctuation of its own): names, then each part, as a reference list writes them. */
function citationText(el: Element): string {
  const parts: string[] = [];
  for (const c of children(el)) {
    if (c.localName === 'person-group') {
      const names = children(c).map((n) =>
        n.localName === 'name' || n.localName === 'string-name'
          ? [child(n, 'surname'), child(n, 'given-names')]
              .map((p) => p?.textContent?.trim() ?? '')
              .filter(Boolean)
              .join(' ') || (n.textContent ?? '').trim()
          : (n.textContent ?? '').trim(),
      );
      parts.push(names.filter(Boolean).join(', '));
    } else if (c.localName === 'pub-id' && c.getAttribute('pub-id-type') === 'doi')
      parts.push(`doi:${(c.textContent ?? '').trim()}`);
    else parts.push((c.textContent ?? '').replace(/\s+/g, ' ').trim());
  }
  // Parts that end in their own punctuation (an initial, a title with a question mark) take no full stop.
  return parts
    .filter(Boolean)
    .reduce((out, part) => (out ? `${out}${/[.?!]$/.test(out) ? '' : '.'} ${part}` : part), '');
}

function title(el: Element): Element[] | undefined {
  if (el.localName === 'sub-article' || el.localName === 'response') {
    const stub = child(el, 'front-stub') ?? child(el, 'front');
    const t = stub && descendants(stub, 'article-title')[0];
    return t ? [t] : undefined;
  }
  const caption = child(el, 'caption');
  const parts = [child(el, 'label'), child(el, 'title') ?? (caption && child(caption, 'title'))].filter(
    (p): p is Element => p !== undefined,
  );
  return parts.length ? parts : undefined;
}

function isTitlePart(el: Element): boolean {
  const parent = el.parentNode as Element | null;
  if (el.localName === 'label') return LABELLED.has(parent?.localName ?? '');
  return el.localName === 'title' || el.localName === 'subtitle';
}

/** Title, authors, abstracts and keywords from `front`; then `body`, `back` and any sub-articles. */
export function readJats(doc: XmlDocument): { blocks: Block[]; title: string; author: string } {
  const root = doc.root;
  const notes = new Map<string, Element>();
  for (const fn of descendants(root, 'fn')) {
    const id = fn.getAttribute('id');
    if (id) notes.set(id, fn);
  }
  // Pointers from the front matter (a contributor's note) are not read: their notes stay where they are.
  const read = children(root).filter((c) => c.localName !== 'front');
  const referenced = new Set(
    read
      .flatMap((part) => descendants(part, 'xref'))
      .filter((x) => x.getAttribute('ref-type') === 'fn')
      .flatMap((x) => (x.getAttribute('rid') ?? '').split(/\s+/)),
  );
  const vocabulary: Vocabulary = { role: (el) => role(el, referenced), title, isTitlePart, tableRows };
  const reader = new XmlDocumentReader(vocabulary, 2, notes);
  const meta = descendants(child(root, 'front'), 'article-meta')[0];
  // Some producers set the title straight in article-meta, without its group.
  const titleGroup = meta && (child(meta, 'title-group') ?? meta);
  const titleParts = [titleGroup && child(titleGroup, 'article-title'), titleGroup && child(titleGroup, 'subtitle')]
    .filter((t): t is Element => t !== undefined)
    .map((t) => tidy(reader.inlineContent(t)))
    .filter((t) => t.length);
  const titleText = titleParts.flatMap((t, i): Inline[] => (i ? [{ type: 'text', text: ': ' }, ...t] : t));
  const authors = meta ? authorNames(meta) : [];
  const head: Block[] = [];
  if (titleText.length) head.push({ type: 'heading', level: 1, text: titleText });
  if (authors.length) head.push({ type: 'paragraph', text: [{ type: 'text', text: authors.join(', ') }] });
  const abstracts = meta
    ? children(meta).filter((c) => c.localName === 'abstract' && !c.getAttribute('abstract-type'))
    : [];
  const abstractBlocks = abstracts.flatMap((abstract): Block[] => {
    const own = child(abstract, 'title');
    const heading = own ? tidy(reader.inlineContent(own)) : [];
    return [
      { type: 'heading', level: 2, text: heading.length ? heading : [{ type: 'text', text: 'Abstract' }] },
      ...reader.flow(abstract, 0),
    ];
  });
  const keywords = meta
    ? children(meta, 'kwd-group')
        .flatMap((g) => children(g, 'kwd').map((k) => (k.textContent ?? '').trim()))
        .filter(Boolean)
    : [];
  const keywordBlocks: Block[] = keywords.length
    ? [
        {
          type: 'paragraph',
          text: [
            { type: 'strong', children: [{ type: 'text', text: 'Keywords:' }] },
            { type: 'text', text: ` ${keywords.join(', ')}` },
          ],
        },
      ]
    : [];
  const parts = children(root).filter((c) => c.localName === 'body' || c.localName === 'back');
  // Sub-articles (a decision letter, an author response) are sections of their own, titled.
  const subArticles = children(root).filter((c) => c.localName === 'sub-article' || c.localName === 'response');
  const body = [
    ...parts.flatMap((part) => reader.flow(part, 0)),
    ...subArticles.flatMap((sub) => reader.block(sub, 0) ?? []),
  ];
  return {
    blocks: [...head, ...abstractBlocks, ...keywordBlocks, ...reader.withNotes(body)],
    title: (titleGroup && child(titleGroup, 'article-title')?.textContent?.replace(/\s+/g, ' ').trim()) ?? '',
    author: authors.join(', '),
  };
}

function authorNames(meta: Element): string[] {
  const names: string[] = [];
  for (const contrib of descendants(meta, 'contrib')) {
    const type = contrib.getAttribute('contrib-type');
    if (type && type !== 'author') continue;
    const name = child(contrib, 'name') ?? child(contrib, 'string-name') ?? descendants(contrib, 'name')[0];
    const collab = child(contrib, 'collab');
    const text = name
      ? [child(name, 'given-names'), child(name, 'surname')]
          .map((p) => p?.textContent?.trim() ?? '')
          .filter(Boolean)
          .join(' ') || (name.textContent ?? '').replace(/\s+/g, ' ').trim()
      : (collab?.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text) names.push(text);
  }
  return names;
}

/** XHTML tables (JATS's table model): `thead` rows, or leading rows of `th` cells, are headers. */
function tableRows(table: Element): { rows: Element[][]; headerRows: number } {
  const rows: Element[][] = [];
  let headerRows = 0;
  const visit = (el: Element, inHead: boolean): void => {
    for (const c of children(el)) {
      if (c.localName === 'tr') {
        const cells = children(c).filter((x) => x.localName === 'td' || x.localName === 'th');
        if (rows.length === headerRows && (inHead || (cells.length && cells.every((x) => x.localName === 'th'))))
          headerRows++;
        rows.push(cells);
      } else if (c.localName === 'thead' || c.localName === 'tbody' || c.localName === 'tfoot')
        visit(c, c.localName === 'thead');
    }
  };
  visit(table, false);
  return { rows, headerRows };
}
