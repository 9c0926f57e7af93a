import path from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { SafeZip } from '../../archive/safe-zip';
import { parseXml, type Document } from '../../office-properties';
import { ConversionError } from '../../types';
import { attr, child, children, descendants } from '../../xml-dom';

export interface StyleInfo {
  name: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
  bold?: boolean;
  italic?: boolean;
  monospace?: boolean;
}

export interface LevelInfo {
  format: string;
  text: string;
  start: number;
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
  styles: Map<string, StyleInfo>;
  defaultParagraphStyle?: string;
  /** numId → abstract numbering id and per-level start overrides. */
  nums: Map<string, { abstractId: string; startOverrides: Map<number, number> }>;
  /** abstractNumId → levels. */
  abstracts: Map<string, LevelInfo[]>;
  footnotes: Map<string, Element>;
  endnotes: Map<string, Element>;
  comments: Map<string, { author: string; body: Element }>;
}

const MONOSPACE = /courier|consolas|menlo|monaco|mono|lucida console|source code|fira code/i;

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
  const body = main ? descendants(main, 'body')[0] : undefined;
  if (!body) throw new ConversionError('corrupt_file', 'The DOCX file has no document body (word/document.xml).');
  const dir = path.posix.dirname(mainPath);
  const rels = readRels(xml(`${dir}/_rels/${path.posix.basename(mainPath)}.rels`));
  const partPath = (type: string, fallback: string): string => {
    for (const [, rel] of rels) if (rel.target.endsWith(type)) return path.posix.join(dir, rel.target);
    return `${dir}/${fallback}`;
  };
  const { styles, defaultParagraphStyle } = readStyles(xml(partPath('styles.xml', 'styles.xml')));
  const { nums, abstracts } = readNumbering(xml(partPath('numbering.xml', 'numbering.xml')));
  const notes = (doc: Document | undefined, local: string): Map<string, Element> =>
    new Map(descendants(doc, local).map((n) => [attr(n, 'id') ?? '', n]));
  const comments = new Map(
    descendants(xml(partPath('comments.xml', 'comments.xml')), 'comment').map((c) => [
      attr(c, 'id') ?? '',
      { author: attr(c, 'author') ?? '', body: c },
    ]),
  );
  return {
    zip,
    pkg: {
      body,
      dir,
      rels,
      styles,
      defaultParagraphStyle,
      nums,
      abstracts,
      footnotes: notes(xml(partPath('footnotes.xml', 'footnotes.xml')), 'footnote'),
      endnotes: notes(xml(partPath('endnotes.xml', 'endnotes.xml')), 'endnote'),
      comments,
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

function onOff(el: Element | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = attr(el, 'val');
  return v === undefined || !/^(false|0|off|none)$/i.test(v);
}

function readStyles(doc: Document | undefined): { styles: Map<string, StyleInfo>; defaultParagraphStyle?: string } {
  const styles = new Map<string, StyleInfo>();
  let defaultParagraphStyle: string | undefined;
  for (const st of descendants(doc, 'style')) {
    const id = attr(st, 'styleId') ?? '';
    const pPr = child(st, 'pPr');
    const rPr = child(st, 'rPr');
    const numPr = child(pPr, 'numPr');
    const outline = attr(child(pPr, 'outlineLvl'), 'val');
    const fonts = child(rPr, 'rFonts');
    styles.set(id, {
      name: attr(child(st, 'name'), 'val') ?? id,
      basedOn: attr(child(st, 'basedOn'), 'val'),
      outlineLevel: outline !== undefined ? Number(outline) : undefined,
      numId: attr(child(numPr, 'numId'), 'val'),
      ilvl: attr(child(numPr, 'ilvl'), 'val') !== undefined ? Number(attr(child(numPr, 'ilvl'), 'val')) : undefined,
      bold: onOff(child(rPr, 'b')),
      italic: onOff(child(rPr, 'i')),
      monospace: fonts ? MONOSPACE.test(attr(fonts, 'ascii') ?? attr(fonts, 'hAnsi') ?? '') : undefined,
    });
    if (attr(st, 'type') === 'paragraph' && /^(1|true|on)$/.test(attr(st, 'default') ?? '')) defaultParagraphStyle = id;
  }
  return { styles, defaultParagraphStyle };
}

function readNumbering(doc: Document | undefined): Pick<DocxPackage, 'nums' | 'abstracts'> {
  const abstracts = new Map<string, LevelInfo[]>();
  for (const an of descendants(doc, 'abstractNum')) {
    const levels: LevelInfo[] = [];
    for (const lvl of children(an, 'lvl')) {
      levels[Number(attr(lvl, 'ilvl') ?? 0)] = {
        format: attr(child(lvl, 'numFmt'), 'val') ?? 'decimal',
        text: attr(child(lvl, 'lvlText'), 'val') ?? '',
        start: Number(attr(child(lvl, 'start'), 'val') ?? 1),
      };
    }
    abstracts.set(attr(an, 'abstractNumId') ?? '', levels);
  }
  const nums = new Map<string, { abstractId: string; startOverrides: Map<number, number> }>();
  for (const num of descendants(doc, 'num')) {
    const startOverrides = new Map<number, number>();
    for (const o of children(num, 'lvlOverride')) {
      const start = attr(child(o, 'startOverride'), 'val');
      if (start !== undefined) startOverrides.set(Number(attr(o, 'ilvl') ?? 0), Number(start));
    }
    nums.set(attr(num, 'numId') ?? '', { abstractId: attr(child(num, 'abstractNumId'), 'val') ?? '', startOverrides });
  }
  return { nums, abstracts };
}
