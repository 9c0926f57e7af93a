import type { Element, Node } from '@xmldom/xmldom';
import { XMLSerializer } from '@xmldom/xmldom';
import { strToU8, zipSync } from 'fflate';
import { parseXml } from '../shared/office-properties';
import { attr, children, descendants, firstDescendant } from '../shared/xml-dom';
import { ConversionError } from '../../types';

/** WordprocessingML 2003's namespace: Word 2003's "XML Document", one XML file. */
const WORDML_2003 = 'http://schemas.microsoft.com/office/word/2003/wordml';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HYPERLINK = `${RELATIONSHIPS}/hyperlink`;
const IMAGE = `${RELATIONSHIPS}/image`;

/** WordML 2003's list number formats (w:nfc, as in the binary format) by their DOCX names. */
const NUMBER_FORMATS: Record<string, string> = {
  '0': 'decimal',
  '1': 'upperRoman',
  '2': 'lowerRoman',
  '3': 'upperLetter',
  '4': 'lowerLetter',
  '22': 'decimalZero',
  '23': 'bullet',
  '255': 'none',
};

/**
 * A Word 2003 XML document as the DOCX package the DOCX reader reads: WordML 2003 kept the
 * elements DOCX later took (paragraphs, runs, tables, styles, properties) in one file, with a few
 * spelled differently. Those are rewritten: sections unwrapped, lists (w:listPr, w:lists) as
 * numbering, w:hlink as hyperlinks with relationships, notes written inside their run as note
 * parts, pictures (w:binData) as media parts, tracked insertions kept and deletions marked
 * deleted, comments and bookmarks (aml:annotation) left out; the title and author from
 * o:DocumentProperties.
 */
export function wordMlAsDocx(input: Buffer): Buffer {
  const doc = parseXml(input.toString('utf8').replace(/^\uFEFF/, ''), 'Word XML document');
  const root = doc.documentElement;
  const body = root ? firstDescendant(root, 'body') : undefined;
  if (!root || !body) throw new ConversionError('corrupt_file', 'The Word XML document has no body.');
  const rels: string[] = [];
  const files: Record<string, Uint8Array> = {};
  const relate = (type: string, target: string, external: boolean): string => {
    const id = `rIdWordMl${rels.length + 1}`;
    rels.push(
      `<Relationship Id="${id}" Type="${type}" Target="${escapeXml(target)}"${external ? ' TargetMode="External"' : ''}/>`,
    );
    return id;
  };
  const pictures = picturesOf(root, (name, bytes) => {
    const part = `media/wordml${Object.keys(files).length + 1}${extensionOf(name)}`;
    files[`word/${part}`] = bytes;
    return relate(IMAGE, part, false);
  });
  const notes = { footnote: [] as string[], endnote: [] as string[] };
  rewrite(body, { relate, pictures, notes });
  const serialize = (node: Node) => new XMLSerializer().serializeToString(node);
  const w = `xmlns:w="${WORDML_2003}" xmlns:r="${RELATIONSHIPS}"`;
  files['word/document.xml'] = strToU8(`<w:document ${w}>${serialize(body)}</w:document>`);
  files['word/_rels/document.xml.rels'] = strToU8(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  );
  const styles = firstDescendant(root, 'styles');
  if (styles) files['word/styles.xml'] = strToU8(serialize(styles));
  files['word/numbering.xml'] = strToU8(`<w:numbering ${w}>${numbering(root)}</w:numbering>`);
  files['word/footnotes.xml'] = strToU8(`<w:footnotes ${w}>${notes.footnote.join('')}</w:footnotes>`);
  files['word/endnotes.xml'] = strToU8(`<w:endnotes ${w}>${notes.endnote.join('')}</w:endnotes>`);
  const properties = firstDescendant(root, 'DocumentProperties');
  const property = (local: string) => escapeXml(children(properties, local)[0]?.textContent?.trim() ?? '');
  files['docProps/core.xml'] = strToU8(
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">' +
      `<dc:title>${property('Title')}</dc:title><dc:creator>${property('Author')}</dc:creator></cp:coreProperties>`,
  );
  const pages = property('Pages');
  if (/^\d+$/.test(pages)) files['docProps/app.xml'] = strToU8(`<Properties><Pages>${pages}</Pages></Properties>`);
  return Buffer.from(zipSync(files, { level: 0 }));
}

interface Rewrite {
  relate(type: string, target: string, external: boolean): string;
  /** Relationship id of each picture, by its wordml:// name. */
  pictures: Map<string, string>;
  notes: { footnote: string[]; endnote: string[] };
}

/** WordML 2003's spellings below `node` rewritten as DOCX spells them, in place. */
function rewrite(node: Element, context: Rewrite): void {
  for (const el of children(node)) {
    const local = el.localName;
    if (local === 'sect' || local === 'sub-section') {
      rewrite(el, context);
      unwrap(el);
    } else if (local === 'annotation') {
      rewriteAnnotation(el, context);
    } else if (local === 'listPr') {
      const numPr = rename(el, 'numPr');
      // Only the level and the list: wx:t is the label Word showed (its local name is w:t's), wx:font its font.
      for (const c of children(numPr)) if (c.localName !== 'ilvl' && c.localName !== 'ilfo') numPr.removeChild(c);
      for (const ilfo of children(numPr, 'ilfo')) rename(ilfo, 'numId');
    } else if (local === 'hlink') {
      const dest = attr(el, 'dest');
      const bookmark = attr(el, 'bookmark');
      const link = rename(el, 'hyperlink');
      if (dest) link.setAttributeNS(RELATIONSHIPS, 'r:id', context.relate(HYPERLINK, dest, true));
      else if (bookmark) link.setAttributeNS(WORDML_2003, 'w:anchor', bookmark);
      rewrite(link, context);
    } else if (local === 'footnote' || local === 'endnote') {
      const list = context.notes[local];
      const id = String(list.length + 1);
      rewrite(el, context);
      const inner = children(el)
        .map((c) => new XMLSerializer().serializeToString(c))
        .join('');
      list.push(`<w:${local} w:id="${id}">${inner}</w:${local}>`);
      const reference = el.ownerDocument!.createElementNS(WORDML_2003, `w:${local}Reference`);
      reference.setAttributeNS(WORDML_2003, 'w:id', id);
      el.parentNode!.replaceChild(reference, el);
    } else if (local === 'imagedata') {
      const id = context.pictures.get(attr(el, 'src') ?? '');
      if (id) el.setAttributeNS(RELATIONSHIPS, 'r:id', id);
    } else if (local === 'binData') {
      el.parentNode!.removeChild(el);
    } else {
      rewrite(el, context);
    }
  }
}

/**
 * aml:annotation: a tracked insertion keeps its content, a deletion becomes w:del (left out, as
 * DOCX's is), and comments, bookmarks and the rest are left out.
 */
function rewriteAnnotation(el: Element, context: Rewrite): void {
  const type = attr(el, 'type') ?? '';
  const content = children(el, 'content')[0];
  if (type === 'Word.Insertion' && content) {
    rewrite(content, context);
    unwrap(content);
    unwrap(el);
  } else if (type === 'Word.Deletion') {
    rename(el, 'del');
  } else {
    el.parentNode!.removeChild(el);
  }
}

/** Pictures kept in w:binData (base64, named wordml://…), each stored by `store`, which returns its relationship id. */
function picturesOf(root: Element, store: (name: string, bytes: Uint8Array) => string): Map<string, string> {
  const out = new Map<string, string>();
  for (const data of descendants(root, 'binData')) {
    const name = attr(data, 'name') ?? '';
    if (!name || out.has(name)) continue;
    out.set(name, store(name, Buffer.from((data.textContent ?? '').replace(/\s+/g, ''), 'base64')));
  }
  return out;
}

/** w:lists as numbering.xml's content: each w:listDef an abstract numbering, each w:list (its ilfo) a numbering instance. */
function numbering(root: Element): string {
  const lists = firstDescendant(root, 'lists');
  if (!lists) return '';
  const abstracts = children(lists, 'listDef').map((def) => {
    const levels = children(def, 'lvl').map((lvl) => {
      const value = (local: string) => attr(children(lvl, local)[0], 'val');
      const format = NUMBER_FORMATS[value('nfc') ?? '0'] ?? 'decimal';
      return (
        `<w:lvl w:ilvl="${escapeXml(attr(lvl, 'ilvl') ?? '0')}"><w:start w:val="${escapeXml(value('start') ?? '1')}"/>` +
        `<w:numFmt w:val="${format}"/><w:lvlText w:val="${escapeXml(value('lvlText') ?? '')}"/></w:lvl>`
      );
    });
    return `<w:abstractNum w:abstractNumId="${escapeXml(attr(def, 'listDefId') ?? '')}">${levels.join('')}</w:abstractNum>`;
  });
  const nums = children(lists, 'list').map(
    (list) =>
      `<w:num w:numId="${escapeXml(attr(list, 'ilfo') ?? '')}"><w:abstractNumId w:val="${escapeXml(attr(children(list, 'ilst')[0], 'val') ?? '')}"/></w:num>`,
  );
  return abstracts.join('') + nums.join('');
}

/** `el` replaced by an element of local name `local` (WordML's prefix) holding its attributes and children. */
function rename(el: Element, local: string): Element {
  const out = el.ownerDocument!.createElementNS(WORDML_2003, `w:${local}`);
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    out.setAttributeNS(a.namespaceURI, a.name, a.value);
  }
  while (el.firstChild) out.appendChild(el.firstChild);
  el.parentNode!.replaceChild(out, el);
  return out;
}

/** `el`'s children in its place. */
function unwrap(el: Element): void {
  const parent = el.parentNode!;
  while (el.firstChild) parent.insertBefore(el.firstChild, el);
  parent.removeChild(el);
}

function extensionOf(name: string): string {
  return /\.[a-z0-9]{1,5}$/i.exec(name)?.[0].toLowerCase() ?? '.bin';
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
