import path from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { SafeZip } from '../../archive/safe-zip';
import { diagramNodes, type DiagramNode } from '../shared/smartart';
import { chartBlocks } from '../shared/ooxml-parts';
import type { Block } from '../../document/model';
import { parseXml, type Document } from '../shared/office-properties';
import { ConversionError } from '../../types';
import type { Position } from '../../document/builders';
import { attr, descendants, firstDescendant } from '../shared/xml-dom';
import { recordAttr, recordChild, recordChildren, xmlSubtrees, type XmlRecord } from '../shared/xml-subtrees';
import { MONOSPACE } from '../shared/code-paragraphs';

/** Run properties as one level of the style hierarchy sets them; undefined where it says nothing. */
export interface RunProperties {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  /** w:vertAlign: raised, lowered, or explicitly on the baseline. */
  position?: Position | 'baseline';
}

export interface StyleInfo extends RunProperties {
  name: string;
  /** w:type: paragraph, character, table or numbering. */
  type?: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
  monospace?: boolean;
}

export interface LevelInfo {
  format: string;
  text: string;
  start: number;
  /** The level's left indent in twips, when it sets one. */
  indent?: number;
}

export interface Relationship {
  target: string;
  external: boolean;
}

/** The parts of a DOCX package the reader needs, parsed once. */
export interface DocxPackage {
  body: Element;
  /** Folder of the main document part, where relationship targets are resolved. */
  dir: string;
  rels: Map<string, Relationship>;
  /**
   * The relationships of the part an element was read from: a note's or a comment's link names a
   * relationship of the notes or comments part, not of the main document.
   */
  relsOf(el: Element): Map<string, Relationship>;
  styles: Map<string, StyleInfo>;
  defaultParagraphStyle?: string;
  /** w:docDefaults' run properties, the start of every run's style hierarchy. */
  runDefaults: RunProperties;
  /** numId → abstract numbering id and per-level start overrides. */
  nums: Map<string, { abstractId: string; startOverrides: Map<number, number> }>;
  /** abstractNumId → levels. */
  abstracts: Map<string, LevelInfo[]>;
  /** Notes and comments: parsed when the body first refers to one (most documents never do). */
  footnotes: Map<string, Element>;
  endnotes: Map<string, Element>;
  comments: Map<string, { author: string; body: Element }>;
  /** The text outline of the SmartArt diagram whose data part the relationship names. */
  diagram(relId: string): DiagramNode[];
  /** The title, kind and data table of the DrawingML chart whose part the relationship names (none without one). */
  chart(relId: string): Block[];
  /** The part the relationship names inside the package (an imported chunk's), with its bytes. */
  part(relId: string): { name: string; bytes: Uint8Array } | undefined;
  /** Where an internal relationship points, as a path in the package (absolute targets included). */
  partName(relId: string): string | undefined;
}

export function openDocx(input: Buffer): { zip: SafeZip; pkg: DocxPackage } {
  const zip = new SafeZip(input, 'DOCX file');
  if (zip.has('EncryptedPackage')) {
    throw new ConversionError(
      'encrypted_file',
      'The DOCX file is password-protected; remove the password and try again.',
    );
  }
  const mainPath = mainDocumentPath(zip);
  const xml = (name: string): Document | undefined => {
    const text = zip.textOf(name);
    return text === undefined ? undefined : parseXml(text, 'DOCX file');
  };
  const main = xml(mainPath);
  if (!main) throw new ConversionError('corrupt_file', 'The DOCX file has no document part (word/document.xml).');
  const body = firstDescendant(main, 'body');
  if (!body) throw new ConversionError('corrupt_file', 'The DOCX file has no document body (word/document.xml).');
  const dir = path.posix.dirname(mainPath);
  const rels = readRels(xml(`${dir}/_rels/${path.posix.basename(mainPath)}.rels`));
  const partPath = (type: string, fallback: string): string => {
    for (const [, rel] of rels) if (rel.target.endsWith(type)) return path.posix.join(dir, rel.target);
    return `${dir}/${fallback}`;
  };
  // Styles and numbering are lookup tables: streamed, not built as a DOM (see xmlSubtrees).
  const table = (name: string, roots: string[]): XmlRecord[] => {
    const text = zip.textOf(name);
    return text === undefined ? [] : xmlSubtrees(text, 'DOCX file', new Set(roots));
  };
  const { styles, defaultParagraphStyle, runDefaults } = readStyles(
    table(partPath('styles.xml', 'styles.xml'), ['style', 'docDefaults']),
  );
  const { nums, abstracts } = readNumbering(table(partPath('numbering.xml', 'numbering.xml'), ['abstractNum', 'num']));
  // The relationships of each notes or comments part read, by its parsed document.
  const partRels = new Map<Document, Map<string, Relationship>>();
  const withRels = (name: string): Document | undefined => {
    const doc = xml(name);
    if (doc) partRels.set(doc, readRels(xml(`${path.posix.dirname(name)}/_rels/${path.posix.basename(name)}.rels`)));
    return doc;
  };
  const notes = (doc: Document | undefined, local: string): Map<string, Element> =>
    new Map(descendants(doc, local).map((n) => [attr(n, 'id') ?? '', n]));
  const once = <T>(make: () => T): (() => T) => {
    let made: { value: T } | undefined;
    return () => (made ??= { value: make() }).value;
  };
  const footnotes = once(() => notes(withRels(partPath('footnotes.xml', 'footnotes.xml')), 'footnote'));
  const endnotes = once(() => notes(withRels(partPath('endnotes.xml', 'endnotes.xml')), 'endnote'));
  const comments = once(
    () =>
      new Map(
        descendants(withRels(partPath('comments.xml', 'comments.xml')), 'comment').map((c) => [
          attr(c, 'id') ?? '',
          { author: attr(c, 'author') ?? '', body: c },
        ]),
      ),
  );
  /** Where an internal relationship points, as a path in the package. */
  const internalTarget = (relId: string): string | undefined => {
    const rel = rels.get(relId);
    if (!rel || rel.external) return undefined;
    const target = rel.target.startsWith('/') ? rel.target.slice(1) : path.posix.join(dir, rel.target);
    return path.posix.normalize(target);
  };
  return {
    zip,
    pkg: {
      body,
      dir,
      rels,
      relsOf: (el) => (el.ownerDocument ? partRels.get(el.ownerDocument) : undefined) ?? rels,
      styles,
      defaultParagraphStyle,
      runDefaults,
      nums,
      abstracts,
      get footnotes() {
        return footnotes();
      },
      get endnotes() {
        return endnotes();
      },
      get comments() {
        return comments();
      },
      diagram: (relId) => {
        const target = internalTarget(relId);
        return target ? diagramNodes(zip, target) : [];
      },
      chart: (relId) => {
        const target = internalTarget(relId);
        return target ? chartBlocks(zip, target) : [];
      },
      partName: internalTarget,
      part: (relId) => {
        const name = internalTarget(relId);
        const bytes = name ? zip.bytesOf(name) : undefined;
        return name && bytes ? { name, bytes } : undefined;
      },
    },
  };
}

function mainDocumentPath(zip: SafeZip): string {
  const rootRels = zip.textOf('_rels/.rels');
  if (rootRels) {
    for (const rel of descendants(parseXml(rootRels, 'DOCX file'), 'Relationship')) {
      if ((attr(rel, 'Type') ?? '').endsWith('/officeDocument')) {
        const target = (attr(rel, 'Target') ?? '').replace(/^\//, '');
        if (zip.has(target)) return target;
      }
    }
  }
  return 'word/document.xml';
}

function readRels(doc: Document | undefined): Map<string, Relationship> {
  return new Map(
    descendants(doc, 'Relationship').map((r) => [
      attr(r, 'Id') ?? '',
      { target: attr(r, 'Target') ?? '', external: attr(r, 'TargetMode') === 'External' },
    ]),
  );
}

function onOff(el: XmlRecord | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = recordAttr(el, 'val');
  return v === undefined || !/^(false|0|off|none)$/i.test(v);
}

/** A w:vertAlign value as a position; anything else is none. */
export function vertAlign(val: string | undefined): Position | 'baseline' | undefined {
  if (val === 'superscript') return 'super';
  if (val === 'subscript') return 'sub';
  return val === 'baseline' ? 'baseline' : undefined;
}

/** The run properties an rPr sets (a style's, or the document defaults'). */
function runProperties(rPr: XmlRecord | undefined): RunProperties {
  return {
    bold: onOff(recordChild(rPr, 'b')),
    italic: onOff(recordChild(rPr, 'i')),
    strike: onOff(recordChild(rPr, 'strike')) ?? onOff(recordChild(rPr, 'dstrike')),
    position: vertAlign(recordAttr(recordChild(rPr, 'vertAlign'), 'val')),
  };
}

function readStyles(records: XmlRecord[]): Pick<DocxPackage, 'styles' | 'defaultParagraphStyle' | 'runDefaults'> {
  const styles = new Map<string, StyleInfo>();
  let defaultParagraphStyle: string | undefined;
  let runDefaults: RunProperties = {};
  for (const st of records) {
    if (st.local === 'docDefaults') {
      runDefaults = runProperties(recordChild(recordChild(st, 'rPrDefault'), 'rPr'));
      continue;
    }
    const id = recordAttr(st, 'styleId') ?? '';
    const pPr = recordChild(st, 'pPr');
    const rPr = recordChild(st, 'rPr');
    const numPr = recordChild(pPr, 'numPr');
    const outline = recordAttr(recordChild(pPr, 'outlineLvl'), 'val');
    const ilvl = recordAttr(recordChild(numPr, 'ilvl'), 'val');
    const fonts = recordChild(rPr, 'rFonts');
    styles.set(id, {
      ...runProperties(rPr),
      name: recordAttr(recordChild(st, 'name'), 'val') ?? id,
      type: recordAttr(st, 'type'),
      basedOn: recordAttr(recordChild(st, 'basedOn'), 'val'),
      outlineLevel: outline !== undefined ? Number(outline) : undefined,
      numId: recordAttr(recordChild(numPr, 'numId'), 'val'),
      ilvl: ilvl !== undefined ? Number(ilvl) : undefined,
      monospace: fonts ? MONOSPACE.test(recordAttr(fonts, 'ascii') ?? recordAttr(fonts, 'hAnsi') ?? '') : undefined,
    });
    if (recordAttr(st, 'type') === 'paragraph' && /^(1|true|on)$/.test(recordAttr(st, 'default') ?? '')) {
      defaultParagraphStyle = id;
    }
  }
  return { styles, defaultParagraphStyle, runDefaults };
}

function readNumbering(records: XmlRecord[]): Pick<DocxPackage, 'nums' | 'abstracts'> {
  const abstracts = new Map<string, LevelInfo[]>();
  const nums = new Map<string, { abstractId: string; startOverrides: Map<number, number> }>();
  for (const record of records) {
    if (record.local === 'abstractNum') {
      const levels: LevelInfo[] = [];
      for (const lvl of recordChildren(record, 'lvl')) {
        const ind = recordChild(recordChild(lvl, 'pPr'), 'ind');
        const indent = Number(recordAttr(ind, 'left') ?? recordAttr(ind, 'start'));
        levels[Number(recordAttr(lvl, 'ilvl') ?? 0)] = {
          format: recordAttr(recordChild(lvl, 'numFmt'), 'val') ?? 'decimal',
          text: recordAttr(recordChild(lvl, 'lvlText'), 'val') ?? '',
          start: Number(recordAttr(recordChild(lvl, 'start'), 'val') ?? 1),
          ...(Number.isFinite(indent) ? { indent } : {}),
        };
      }
      abstracts.set(recordAttr(record, 'abstractNumId') ?? '', levels);
      continue;
    }
    const startOverrides = new Map<number, number>();
    for (const o of recordChildren(record, 'lvlOverride')) {
      const start = recordAttr(recordChild(o, 'startOverride'), 'val');
      if (start !== undefined) startOverrides.set(Number(recordAttr(o, 'ilvl') ?? 0), Number(start));
    }
    nums.set(recordAttr(record, 'numId') ?? '', {
      abstractId: recordAttr(recordChild(record, 'abstractNumId'), 'val') ?? '',
      startOverrides,
    });
  }
  return { nums, abstracts };
}
