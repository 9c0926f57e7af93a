import type { Document, Element } from '@xmldom/xmldom';
import { children } from '../shared/xml-dom';

/** A parsed document-XML file: its root element and the DOCTYPE's public identifier, if any. */
export interface XmlDocument {
  doc: Document;
  root: Element;
}

/** The document vocabularies read as documents; any other XML stays a code block of its markup. */
export type DocumentVocabulary = 'jats' | 'docbook' | 'tei' | 'xhtml';

const DOCBOOK_NS = 'http://docbook.org/ns/docbook';
const TEI_NS = 'http://www.tei-c.org/ns/1.0';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';
/** JATS and its predecessor NLM have no namespace of their own (only xlink and mml). */
const JATS_PARTS = new Set(['front', 'body', 'back']);
/** Roots a DocBook document may have. */
const DOCBOOK_ROOTS = new Set([
  'book',
  'article',
  'chapter',
  'section',
  'sect1',
  'part',
  'preface',
  'appendix',
  'refentry',
  'set',
  'reference',
]);
/** DocBook's metadata blocks: DocBook 5's `info` and DocBook 4's per-element `…info`. */
export const DOCBOOK_INFO = [
  'info',
  'articleinfo',
  'bookinfo',
  'chapterinfo',
  'sectioninfo',
  'sect1info',
  'sect2info',
  'sect3info',
  'prefaceinfo',
  'appendixinfo',
  'partinfo',
  'refentryinfo',
];
/** Children one of those roots has when it is DocBook without a namespace (DocBook 4). */
const DOCBOOK_CHILDREN = new Set([
  ...DOCBOOK_INFO,
  'title',
  'para',
  'simpara',
  'section',
  'sect1',
  'chapter',
  'refmeta',
  'refnamediv',
]);

/**
 * Which document vocabulary the root element belongs to, by its name and namespace: JATS (`article`
 * with `front`/`body`), DocBook 5 (its namespace) or 4 (a DocBook root with DocBook children or
 * doctype), TEI (`TEI`, `TEI.2`, `teiCorpus`), XHTML (`html` in the XHTML namespace).
 */
export function documentVocabulary(root: Element, doctype: string): DocumentVocabulary | undefined {
  const name = root.localName ?? '';
  const ns = root.namespaceURI ?? '';
  if (ns === XHTML_NS) return name === 'html' ? 'xhtml' : undefined;
  if (ns === TEI_NS || (!ns && (name === 'TEI' || name === 'TEI.2' || name === 'teiCorpus'))) {
    return name === 'TEI' || name === 'TEI.2' || name === 'teiCorpus' ? 'tei' : undefined;
  }
  if (ns === DOCBOOK_NS) return 'docbook';
  if (ns) return undefined;
  const kids = children(root);
  if (name === 'article' && kids.some((c) => JATS_PARTS.has(c.localName ?? ''))) return 'jats';
  if (
    DOCBOOK_ROOTS.has(name) &&
    (/docbook/i.test(doctype) || kids.some((c) => DOCBOOK_CHILDREN.has(c.localName ?? '')))
  ) {
    return 'docbook';
  }
  return undefined;
}
