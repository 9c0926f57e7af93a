import path from 'node:path';
import type { Reader } from '../reader';
import { ooxmlProperties } from '../shared/office-properties';
import { descendants, relAttr } from '../shared/xml-dom';
import { htmlToBlocks } from '../shared/html/reader';
import { withDrawnLists } from '../shared/drawn-lists';
import { decodeText } from '../shared/text-decoding';
import type { Block } from '../../document/model';
import type { ConvertOptions } from '../../types';
import type { SafeZip } from '../../archive/safe-zip';
import { openDocx, type DocxPackage } from './parts';
import { DocxReader, imageRelId } from './body';

// Picture OCR (its module loads sharp, ~60 ms of CPU) is loaded by enhanced reads only, as the PDF
// reader does: require() loads it the same way under tsx, jest and the bundle.
/* eslint-disable @typescript-eslint/no-require-imports */
const pictures = () => require('../shared/ocr/pictures') as typeof import('../shared/ocr/pictures');
const wordMl = () => require('./wordml') as typeof import('./wordml');
const mime = () => require('postal-mime') as typeof import('postal-mime');
/* eslint-enable @typescript-eslint/no-require-imports */

const isZip = (input: Buffer): boolean => input.length >= 2 && input[0] === 0x50 && input[1] === 0x4b;

/**
 * DOCX: WordprocessingML read directly (xmldom) rather than through mammoth, because mammoth drops
 * what a faithful Markdown needs: list and heading numbering labels, OMML equations, merged-cell
 * grids and comment text. Styles, numbering.xml, notes and comments are resolved here.
 */
export const docxReader: Reader = {
  name: 'docx',
  async read(input, options) {
    // Word 2003's XML document (the sniffer sends it here): read as the package it maps to.
    const { zip, pkg } = openDocx(isZip(input) ? input : wordMl().wordMlAsDocx(input));
    // Enhanced mode reads the text inside pictures (scanned inserts, screenshots, charts).
    const pictureText = options.enhanced ? await readPictures(zip, pkg) : undefined;
    const embedded = options.readEmbedded ? await readEmbedded(zip, pkg, options.readEmbedded) : undefined;
    const body = new DocxReader(pkg, pictureText, new Map([...(embedded ?? []), ...(await readAltChunks(pkg))]));
    // Lists typed as text (a bullet glyph and a tab before each paragraph's text) are lists.
    const blocks = withDrawnLists(body.read());
    const props = ooxmlProperties(zip);
    return {
      blocks,
      metadata: { title: props.title, author: props.author, page_count: props.pages ?? 0 },
      // The pages the recorded breaks make (E1); page_count stays what the file's properties say.
      pages: Array.from({ length: body.pageCount }, (_, i) => i + 1),
    };
  },
};

/**
 * Imported chunks (w:altChunk): HTML, or a web archive (MHT, as html-docx-js and Word's own
 * "insert file" write them), that Word renders where the chunk sits. Read by the HTML reader;
 * other kinds (a nested DOCX, RTF, plain text) give nothing yet.
 */
async function readAltChunks(pkg: DocxPackage): Promise<Map<string, Block[]>> {
  const out = new Map<string, Block[]>();
  const numbering = { next: 1 };
  for (const chunk of descendants(pkg.body, 'altChunk')) {
    const id = relAttr(chunk) ?? '';
    const part = out.has(id) ? undefined : pkg.part(id);
    if (!part) continue;
    const html = await chunkHtml(part.name, Buffer.from(part.bytes));
    if (html !== undefined) out.set(id, htmlToBlocks(html, numbering));
  }
  return out;
}

/** Embedded documents larger than this keep their preview picture. */
const MAX_EMBEDDED_BYTES = 32 * 1024 * 1024;
/** At most this many embedded documents are read per document. */
const MAX_EMBEDDED = 32;
/** Embedded parts read by their own reader, by extension; `bin` is an OLE object (a DOC or XLS inside). */
const EMBEDDED_FORMATS = new Map([
  ...['docx', 'docm', 'xlsx', 'xlsm', 'pptx', 'doc', 'xls', 'ppt', 'odt', 'ods', 'odp', 'rtf', 'csv'].map(
    (ext) => [ext, ext] as const,
  ),
  ['bin', 'doc'],
]);

/**
 * The content of documents embedded as OLE objects (docs/decisions.md): each read by the reader its
 * bytes call for, one level deep (an embedded document's own objects stay pictures), notes dropped.
 * An object we can't read keeps its preview picture.
 */
async function readEmbedded(
  zip: SafeZip,
  pkg: DocxPackage,
  read: NonNullable<ConvertOptions['readEmbedded']>,
): Promise<Map<string, Block[]>> {
  const out = new Map<string, Block[]>();
  for (const ole of descendants(pkg.body, 'OLEObject').slice(0, MAX_EMBEDDED)) {
    const id = relAttr(ole, 'id');
    const part = id && !out.has(id) ? pkg.partName(id) : undefined;
    if (!id || !part) continue;
    const declared = EMBEDDED_FORMATS.get(path.posix.extname(part).slice(1).toLowerCase());
    const size = zip.info(part)?.size ?? Infinity;
    if (!declared || size > MAX_EMBEDDED_BYTES) continue;
    try {
      const bytes = Buffer.from(zip.bytesOf(part)!);
      const blocks = (await read(bytes, declared)).filter((b) => b.type !== 'notes');
      if (blocks.length) out.set(id, blocks);
    } catch {
      // Not a document we read (an equation, a package of another kind): its preview picture stays.
    }
  }
  return out;
}

/** The HTML of an imported chunk: a web archive's HTML part, or the part itself when it is HTML. */
async function chunkHtml(name: string, bytes: Buffer): Promise<string | undefined> {
  const head = bytes.subarray(0, 1024).toString('latin1');
  if (/\.mht(ml)?$/i.test(name) || /^(MIME-Version|Content-Type):/im.test(head.trimStart().slice(0, 200))) {
    const { default: PostalMime } = mime();
    const archive = await PostalMime.parse(bytes);
    return archive.html ?? (archive.text !== undefined ? `<pre>${escapeHtml(archive.text)}</pre>` : undefined);
  }
  if (/\.x?html?$/i.test(name) || /^\s*</.test(head)) return decodeText(bytes);
  return undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

async function readPictures(zip: SafeZip, pkg: DocxPackage): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const reader = new (pictures().PictureReader)();
  for (const drawing of [...descendants(pkg.body, 'drawing'), ...descendants(pkg.body, 'pict')]) {
    const id = imageRelId(drawing);
    const part = id && !out.has(id) ? pkg.partName(id) : undefined;
    if (!id || !part) continue;
    out.set(id, await reader.text(part, () => zip.bytesOf(part)));
  }
  return out;
}
