import { inflateSync } from 'node:zlib';
import type { PDFContext, PDFDict, PDFName, PDFObject, PDFRawStream, PDFRef } from 'pdf-lib';

/**
 * A PDF's object layer for the content-rules scanner and the document info, on pdf-lib's objects.
 *
 * `openLazyObjects` reads the cross-reference table (classic tables, xref streams, object streams,
 * incremental updates) and parses an object only when it is looked up, so a page range of 2 pages
 * of 100 parses those pages' objects, not the file's. `openEagerObjects` is pdf-lib's full parse,
 * for files whose cross-reference table this reader doubts (damaged, encrypted, unusual); pdf.js
 * then gives the document info, as before.
 */
export interface PdfObjects {
  context: PDFContext;
  pageCount: number;
  /** The page's dictionary (1-based), or undefined when it can't be found. */
  page(pageNumber: number): PDFDict | undefined;
}

/** What pdf.js's documentInfo gives, read without pdf.js (see pdfjs.ts's PdfInfo). */
export interface LazyPdf extends PdfObjects {
  title: string;
  author: string;
  /** The catalog has an AcroForm (form fields or XFA): pdf.js reads such files. */
  acroForm: boolean;
  /** Objects parsed so far (what a page range costs is the objects of its pages). */
  parsedObjects(): number;
}

/**
 * The part of pdf-lib this reader and the content scanner use: its object classes, object parser and
 * stream filters, imported from its core modules (its document, form, font and drawing layers, which
 * the full package loads, are half its load time and are needed only by the eager fallback).
 */
export interface PdfCore {
  PDFContext: typeof import('pdf-lib').PDFContext;
  PDFObjectParser: typeof import('pdf-lib').PDFObjectParser;
  PDFRef: typeof import('pdf-lib').PDFRef;
  PDFName: typeof import('pdf-lib').PDFName;
  PDFDict: typeof import('pdf-lib').PDFDict;
  PDFNumber: typeof import('pdf-lib').PDFNumber;
  PDFArray: typeof import('pdf-lib').PDFArray;
  PDFRawStream: typeof import('pdf-lib').PDFRawStream;
  PDFString: typeof import('pdf-lib').PDFString;
  PDFHexString: typeof import('pdf-lib').PDFHexString;
  decodePDFRawStream: typeof import('pdf-lib').decodePDFRawStream;
}
type PdfLib = PdfCore;
let core: PdfCore | undefined;

/**
 * Loads modules of pdf-lib. Its dependency tslib (CommonJS build) also writes its helpers
 * (`__extends`, `__awaiter`, …) onto globalThis; nothing reads them there, and a conversion worker's
 * built-ins guard rightly takes any new global for pollution, so the ones it added are removed.
 */
async function withoutTslibGlobals<T>(load: () => Promise<T>): Promise<T> {
  const before = new Set(Reflect.ownKeys(globalThis));
  const loaded = await load();
  for (const key of Reflect.ownKeys(globalThis)) {
    if (!before.has(key) && typeof key === 'string' && key.startsWith('__')) Reflect.deleteProperty(globalThis, key);
  }
  return loaded;
}

/** pdf-lib's core, loaded on first use. */
export async function loadPdfLib(): Promise<PdfCore> {
  core ??= await withoutTslibGlobals(async () => {
    const [context, parser, ref, name, dict, number, array, raw, string, hex, decode] = await Promise.all([
      import('pdf-lib/cjs/core/PDFContext.js'),
      import('pdf-lib/cjs/core/parser/PDFObjectParser.js'),
      import('pdf-lib/cjs/core/objects/PDFRef.js'),
      import('pdf-lib/cjs/core/objects/PDFName.js'),
      import('pdf-lib/cjs/core/objects/PDFDict.js'),
      import('pdf-lib/cjs/core/objects/PDFNumber.js'),
      import('pdf-lib/cjs/core/objects/PDFArray.js'),
      import('pdf-lib/cjs/core/objects/PDFRawStream.js'),
      import('pdf-lib/cjs/core/objects/PDFString.js'),
      import('pdf-lib/cjs/core/objects/PDFHexString.js'),
      import('pdf-lib/cjs/core/streams/decode.js'),
    ]);
    return {
      PDFContext: classOf(context),
      PDFObjectParser: classOf(parser),
      PDFRef: classOf(ref),
      PDFName: classOf(name),
      PDFDict: classOf(dict),
      PDFNumber: classOf(number),
      PDFArray: classOf(array),
      PDFRawStream: classOf(raw),
      PDFString: classOf(string),
      PDFHexString: classOf(hex),
      decodePDFRawStream: decode.decodePDFRawStream,
    };
  });
  return core;
}

/**
 * A CommonJS module's default-exported class: through a bundler or jest, `default` is the class;
 * through Node's own import() (tsx in a worker), `default` is module.exports, which holds it.
 */
function classOf<T>(module: { default: T }): T {
  const value = module.default as unknown;
  return (typeof value === 'function' ? value : (value as { default: T }).default) as T;
}

const names = new Map<string, PDFName>();
/**
 * The PDF name of a key written in this code (Contents, Resources…): PDFName.of decodes its text and
 * looks it up in pdf-lib's pool on every call, once per lookup of every page; kept here once made.
 */
export function pdfName(key: string): PDFName {
  let name = names.get(key);
  if (!name) names.set(key, (name = core!.PDFName.of(key)));
  return name;
}

/** The loaded pdf-lib core (every caller runs after loadPdfLib). */
export function pdfLib(): PdfCore {
  return core!;
}

/** pdf-lib's parse of every object of the file; undefined when it can't (encrypted, damaged). */
export async function openEagerObjects(input: Uint8Array): Promise<PdfObjects | undefined> {
  await loadPdfLib();
  const { PDFDocument, ParseSpeeds } = await withoutTslibGlobals(() => import('pdf-lib'));
  try {
    const doc = await PDFDocument.load(input, {
      updateMetadata: false,
      throwOnInvalidObject: true,
      parseSpeed: ParseSpeeds.Fastest,
    });
    const pages = doc.getPages().map((page) => page.node);
    return { context: doc.context, pageCount: pages.length, page: (n) => pages[n - 1] };
  } catch {
    return undefined;
  }
}

/** Thrown where the lazy reader can't be sure to read the file as pdf.js does. */
class Doubt extends Error {}
function doubt(why: string): never {
  throw new Doubt(why);
}

type Entry = { offset: number } | { stream: number; index: number } | null;

/**
 * The file read through its cross-reference table: only the trailer, catalog, info dictionary and
 * the page-tree nodes down to the last page are parsed here; pages and their resources when asked.
 * Undefined when anything is unusual (no or damaged table, encryption, a page tree pdf.js would
 * count otherwise, an info string pdf.js would decode otherwise): the caller then uses pdf-lib's
 * full parse and pdf.js, as for any file before.
 */
export async function openLazyObjects(input: Uint8Array): Promise<LazyPdf | undefined> {
  const pdf = await loadPdfLib();
  try {
    return readLazy(pdf, input);
  } catch {
    return undefined;
  }
}

function readLazy(pdf: PdfLib, bytes: Uint8Array): LazyPdf {
  const { PDFName, PDFDict, PDFNumber, PDFArray } = pdf;
  const context = pdf.PDFContext.create();
  const entries = new Map<number, Entry>();
  const cache = new Map<PDFRef, PDFObject | undefined>();
  /** Decoded object streams: their bytes, and each index's object number and offset. */
  const objectStreams = new Map<number, { data: Uint8Array; numbers: number[]; offsets: number[] }>();

  const parseAt = (data: Uint8Array, at: number): PDFObject =>
    pdf.PDFObjectParser.forBytes(data.subarray(at), context).parseObject();

  /** The object at a file offset, checking its `N G obj` header. */
  const objectAt = (offset: number, number: number, generation?: number): PDFObject => {
    const header = indirectHeader(bytes, offset);
    if (!header || header.number !== number || (generation !== undefined && header.generation !== generation)) {
      doubt('object offset');
    }
    return parseAt(bytes, header.end);
  };

  const objectStream = (number: number) => {
    let read = objectStreams.get(number);
    if (read) return read;
    const stream = lookup(pdf.PDFRef.of(number, 0));
    if (!(stream instanceof pdf.PDFRawStream)) return doubt('object stream');
    const data = decodeStream(pdf, stream);
    const count = stream.dict.lookup(pdfName('N'));
    const first = stream.dict.lookup(pdfName('First'));
    if (!(count instanceof PDFNumber) || !(first instanceof PDFNumber)) return doubt('object stream header');
    const ints = integers(data, 0, count.asNumber() * 2);
    read = {
      data,
      numbers: ints.filter((_, i) => i % 2 === 0),
      offsets: ints.filter((_, i) => i % 2 === 1).map((at) => first.asNumber() + at),
    };
    objectStreams.set(number, read);
    return read;
  };

  let parsed = 0;
  const load = (ref: PDFRef): PDFObject | undefined => {
    const entry = entries.get(ref.objectNumber);
    parsed++;
    if (!entry) return undefined;
    if ('offset' in entry) return objectAt(entry.offset, ref.objectNumber, ref.generationNumber);
    if (ref.generationNumber !== 0) return undefined;
    const stream = objectStream(entry.stream);
    const at = stream.offsets[entry.index];
    if (at === undefined || stream.numbers[entry.index] !== ref.objectNumber) {
      return doubt('object stream index');
    }
    return parseAt(stream.data, at);
  };

  function lookup(ref: PDFRef): PDFObject | undefined {
    if (cache.has(ref)) return cache.get(ref);
    // A reference cycle (a stream whose length is itself) reads as missing, not as a loop.
    cache.set(ref, undefined);
    const object = load(ref);
    cache.set(ref, object);
    return object;
  }

  // pdf-lib's lookups go through its context's map of indirect objects: that map now parses on demand.
  const lazy = new Map<PDFRef, PDFObject>();
  lazy.get = (ref: PDFRef) => lookup(ref);
  lazy.has = (ref: PDFRef) => lookup(ref) !== undefined;
  (context as unknown as { indirectObjects: Map<PDFRef, PDFObject> }).indirectObjects = lazy;

  // The cross-reference sections, newest first: an object's first entry is its current one.
  let trailer: PDFDict | undefined;
  const seen = new Set<number>();
  const readSection = (offset: number): void => {
    if (seen.has(offset) || seen.size > 64) doubt('xref loop');
    seen.add(offset);
    let dict: PDFDict;
    if (startsWith(bytes, skipSpace(bytes, offset), 'xref')) {
      const read = classicTable(bytes, skipSpace(bytes, offset) + 4, entries);
      const parsed = parseAt(bytes, read);
      if (!(parsed instanceof PDFDict)) return doubt('trailer');
      dict = parsed;
      const stm = dict.get(pdfName('XRefStm'));
      if (stm instanceof PDFNumber) xrefStream(stm.asNumber());
    } else {
      dict = xrefStream(offset);
    }
    trailer ??= dict;
    const prev = dict.get(pdfName('Prev'));
    if (prev instanceof PDFNumber) readSection(prev.asNumber());
    else if (prev !== undefined) doubt('prev');
  };
  const xrefStream = (offset: number): PDFDict => {
    const header = indirectHeader(bytes, offset);
    if (!header) return doubt('xref stream');
    const stream = parseAt(bytes, header.end);
    if (!(stream instanceof pdf.PDFRawStream) || stream.dict.lookup(pdfName('Type')) !== pdfName('XRef')) {
      return doubt('xref stream type');
    }
    const widths = stream.dict.lookup(pdfName('W'));
    const size = stream.dict.lookup(pdfName('Size'));
    if (!(widths instanceof PDFArray) || !(size instanceof PDFNumber)) return doubt('xref stream fields');
    const w = widths.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : -1));
    if (w.length !== 3 || w.some((n) => n < 0 || n > 8)) return doubt('xref widths');
    const index = stream.dict.lookup(pdfName('Index'));
    const ranges =
      index instanceof PDFArray
        ? index.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : doubt('xref index')))
        : [0, size.asNumber()];
    const data = decodeStream(pdf, stream);
    const rowBytes = w[0]! + w[1]! + w[2]!;
    let at = 0;
    const field = (width: number, fallback: number): number => {
      if (width === 0) return fallback;
      let value = 0;
      for (let i = 0; i < width; i++) value = value * 256 + data[at++]!;
      return value;
    };
    for (let r = 0; r + 1 < ranges.length; r += 2) {
      for (let number = ranges[r]!, n = 0; n < ranges[r + 1]!; n++, number++) {
        if (at + rowBytes > data.length) return doubt('xref stream short');
        const type = field(w[0]!, 1);
        const second = field(w[1]!, 0);
        const third = field(w[2]!, 0);
        if (entries.has(number)) continue;
        if (type === 0) entries.set(number, null);
        else if (type === 1) entries.set(number, { offset: second });
        else if (type === 2) entries.set(number, { stream: second, index: third });
        // Other types are reserved: read as free, as pdf.js does.
        else entries.set(number, null);
      }
    }
    return stream.dict;
  };

  readSection(startXref(bytes));
  if (!trailer) return doubt('trailer');
  if (trailer.has(pdfName('Encrypt'))) doubt('encrypted');
  const root = trailer.lookup(pdfName('Root'));
  if (!(root instanceof PDFDict)) return doubt('catalog');
  const top = root.lookup(pdfName('Pages'));
  if (!(top instanceof PDFDict)) return doubt('page tree');
  const count = top.lookup(pdfName('Count'));
  if (!(count instanceof PDFNumber) || !Number.isInteger(count.asNumber()) || count.asNumber() < 0) {
    return doubt('page count');
  }
  const pageCount = count.asNumber();
  // A linearized file's page count is its linearization dictionary's (pdf.js reads that one).
  const linearized = linearizedPages(pdf, bytes, context);
  if (linearized !== undefined && linearized !== pageCount) doubt('linearized count');

  // Whether a page-tree kid is a page, read from its bytes: a dictionary of /Type /Page with no /Kids
  // key (what pdf.js takes for a page) needs no parse to be counted. Anything else is parsed.
  const leaves = new Map<number, boolean>();
  const isLeaf = (ref: PDFRef): boolean => {
    if (cache.has(ref)) return false;
    let leaf = leaves.get(ref.objectNumber);
    if (leaf === undefined) {
      const entry = entries.get(ref.objectNumber);
      leaf = !!entry && 'offset' in entry && pageLeafBytes(bytes, entry.offset, ref);
      leaves.set(ref.objectNumber, leaf);
    }
    return leaf;
  };
  const pageCache = new Map<number, PDFDict | undefined>();
  let walk: PageWalk | undefined;
  const page = (pageNumber: number): PDFDict | undefined => {
    if (!pageCache.has(pageNumber)) {
      // The walk goes on from the last page found when this one comes after it (pages are read in order).
      if (!walk || walk.current > pageNumber - 1) walk = { context, visit: [top], visited: new Set(), current: 0 };
      pageCache.set(pageNumber, findPage(pdf, pageNumber - 1, isLeaf, walk));
    }
    return pageCache.get(pageNumber);
  };
  // pdf.js checks that the last page exists before it trusts the count: so does this reader.
  if (pageCount > 0 && !page(pageCount)) doubt('last page');

  const info = trailer.lookup(pdfName('Info'));
  const text = (key: string): string => {
    if (!(info instanceof PDFDict)) return '';
    const value = info.lookup(PDFName.of(key));
    if (!(value instanceof pdf.PDFString) && !(value instanceof pdf.PDFHexString)) return '';
    return pdfDocString(value.asBytes()).trim();
  };
  return {
    context,
    pageCount,
    page,
    title: text('Title'),
    author: text('Author'),
    acroForm: root.has(pdfName('AcroForm')),
    parsedObjects: () => parsed,
  };
}

/**
 * Where a depth-first walk of the page tree stands: the nodes left to visit, those visited, and the
 * index of the next page. Reading pages in order resumes the walk instead of starting it again.
 */
interface PageWalk {
  context: PDFContext;
  visit: PDFObject[];
  visited: Set<PDFObject>;
  current: number;
}

/**
 * The page at `index` (0-based), found as pdf.js finds it: depth first, subtrees skipped by their Count.
 * A kid that `isLeaf` shows to be a page without parsing it is counted unparsed unless it is the one asked for.
 */
function findPage(pdf: PdfLib, index: number, isLeaf: (ref: PDFRef) => boolean, walk: PageWalk): PDFDict | undefined {
  const { PDFDict, PDFNumber, PDFArray } = pdf;
  const { visit, visited } = walk;
  while (visit.length) {
    const item = visit.pop()!;
    if (item instanceof pdf.PDFRef && walk.current !== index && isLeaf(item)) {
      if (visited.has(item)) return doubt('page tree loop');
      visited.add(item);
      walk.current++;
      continue;
    }
    if (item instanceof pdf.PDFRef) visited.add(item);
    const node = walk.context.lookup(item);
    if (!(node instanceof PDFDict)) return doubt('page tree node');
    if (visited.has(node)) return doubt('page tree loop');
    visited.add(node);
    const type = node.lookup(pdfName('Type'));
    if (type === pdfName('Page')) {
      if (walk.current++ === index) return node;
      continue;
    }
    if (type !== pdfName('Pages')) return doubt('page tree type');
    const count = node.lookup(pdfName('Count'));
    if (!(count instanceof PDFNumber) || !Number.isInteger(count.asNumber())) return doubt('page tree count');
    if (walk.current + count.asNumber() <= index) {
      walk.current += count.asNumber();
      continue;
    }
    const kids = node.lookup(pdfName('Kids'));
    if (!(kids instanceof PDFArray)) return doubt('page tree kids');
    for (let i = kids.size() - 1; i >= 0; i--) visit.push(kids.get(i));
  }
  return undefined;
}

/** Largest page object whose bytes are read for its type; a larger one is parsed. */
const MAX_PEEK_BYTES = 16 * 1024;
const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z0-9#])/;

/** The object at `offset` is `ref`, a dictionary with /Type /Page and no /Kids anywhere in it. */
function pageLeafBytes(bytes: Uint8Array, offset: number, ref: PDFRef): boolean {
  const header = indirectHeader(bytes, offset);
  if (!header || header.number !== ref.objectNumber || header.generation !== ref.generationNumber) return false;
  const start = skipSpace(bytes, header.end);
  if (bytes[start] !== 0x3c || bytes[start + 1] !== 0x3c) return false;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(MAX_PEEK_BYTES, bytes.length - start));
  const end = view.indexOf('endobj');
  if (end < 0) return false;
  const text = view.toString('latin1', 0, end);
  return !text.includes('/Kids') && !text.includes('stream') && PAGE_TYPE.test(text);
}

/** The N of a linearization dictionary that opens the file, if it has one. */
function linearizedPages(pdf: PdfLib, bytes: Uint8Array, context: PDFContext): number | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  if (!head.includes('/Linearized')) return undefined;
  const at = head.search(/\d+\s+\d+\s+obj/);
  const header = at < 0 ? undefined : indirectHeader(bytes, at);
  if (!header) return doubt('linearization');
  const dict = pdf.PDFObjectParser.forBytes(bytes.subarray(header.end), context).parseObject();
  const n = dict instanceof pdf.PDFDict ? dict.get(pdfName('N')) : undefined;
  return n instanceof pdf.PDFNumber ? n.asNumber() : doubt('linearization N');
}

/**
 * An info-dictionary string as pdf.js decodes it (stringToPDFString): UTF-16 or UTF-8 after a byte
 * order mark, else PDFDocEncoding. Only the forms whose decoding is plain here are read (ASCII, and
 * the marked Unicode forms without escape sequences); anything else is left to pdf.js.
 */
function pdfDocString(bytes: Uint8Array): string {
  const mark = (a: number, b: number, c?: number): boolean =>
    bytes[0] === a && bytes[1] === b && (c === undefined || bytes[2] === c);
  const encoding = mark(0xfe, 0xff)
    ? 'utf-16be'
    : mark(0xff, 0xfe)
      ? 'utf-16le'
      : mark(0xef, 0xbb, 0xbf)
        ? 'utf-8'
        : undefined;
  if (encoding) {
    let decoded: string;
    try {
      decoded = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      return doubt('string encoding');
    }
    if (decoded.includes('\x1b')) doubt('escape sequence');
    return decoded;
  }
  let out = '';
  for (const byte of bytes) {
    // PDFDocEncoding differs from ASCII at 0x18–0x1f and from 0x7f up.
    if ((byte >= 0x18 && byte <= 0x1f) || byte >= 0x7f) doubt('PDFDocEncoding');
    out += String.fromCharCode(byte);
  }
  return out;
}

/** A stream's bytes: Flate by zlib (PNG predictors undone), other standard filters by pdf-lib. */
function decodeStream(pdf: PdfLib, stream: PDFRawStream): Uint8Array {
  const { PDFName, PDFArray, PDFDict, PDFNumber } = pdf;
  const dict = stream.dict;
  const filter = dict.lookup(pdfName('Filter'));
  const filters =
    filter instanceof PDFArray ? filter.asArray().map((f) => dict.context.lookup(f)) : filter ? [filter] : [];
  if (filters.length === 0) return stream.contents;
  const parms = dict.lookup(pdfName('DecodeParms'));
  if (filters.length !== 1 || filters[0] !== pdfName('FlateDecode')) {
    if (parms !== undefined) doubt('filter parameters');
    return pdf.decodePDFRawStream(stream).decode();
  }
  const data = inflateSync(stream.contents);
  if (parms === undefined) return data;
  if (!(parms instanceof PDFDict)) return doubt('decode parameters');
  const number = (key: string, fallback: number): number => {
    const value = parms.lookup(PDFName.of(key));
    return value instanceof PDFNumber ? value.asNumber() : value === undefined ? fallback : doubt(key);
  };
  const predictor = number('Predictor', 1);
  if (predictor === 1) return data;
  if (predictor < 10 || number('Colors', 1) !== 1 || number('BitsPerComponent', 8) !== 8) return doubt('predictor');
  return unpredictPng(data, number('Columns', 1));
}

/** Undoes PNG row predictors (one byte per pixel, as xref and object streams use them). */
function unpredictPng(data: Uint8Array, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const kind = data[r * (columns + 1)]!;
    const src = r * (columns + 1) + 1;
    const at = r * columns;
    for (let c = 0; c < columns; c++) {
      const raw = data[src + c]!;
      const left = c > 0 ? out[at + c - 1]! : 0;
      const up = r > 0 ? out[at - columns + c]! : 0;
      const upLeft = r > 0 && c > 0 ? out[at - columns + c - 1]! : 0;
      let value: number;
      if (kind === 0) value = raw;
      else if (kind === 1) value = raw + left;
      else if (kind === 2) value = raw + up;
      else if (kind === 3) value = raw + ((left + up) >> 1);
      else if (kind === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else return doubt('png predictor');
      out[at + c] = value & 0xff;
    }
  }
  return out;
}

/** The offset after `startxref` near the end of the file. */
function startXref(bytes: Uint8Array): number {
  const from = Math.max(0, bytes.length - 1024);
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + from, bytes.length - from).toString('latin1');
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail) ?? /startxref\s+(\d+)(?![\s\S]*startxref)/.exec(tail);
  if (!m) return doubt('startxref');
  const offset = Number(m[1]);
  if (offset >= bytes.length) doubt('startxref offset');
  return offset;
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0;
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;

function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && isSpace(bytes[at]!)) at++;
  return at;
}

function startsWith(bytes: Uint8Array, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** An unsigned integer at `at` (after spaces), with where it ends; undefined when there is none. */
function integerAt(bytes: Uint8Array, at: number): { value: number; end: number } | undefined {
  at = skipSpace(bytes, at);
  if (!isDigit(bytes[at] ?? 0)) return undefined;
  let value = 0;
  while (at < bytes.length && isDigit(bytes[at]!)) value = value * 10 + bytes[at++]! - 0x30;
  return { value, end: at };
}

/** `N G obj` at `at`: its numbers and where the object begins. */
function indirectHeader(
  bytes: Uint8Array,
  at: number,
): { number: number; generation: number; end: number } | undefined {
  const number = integerAt(bytes, at);
  const generation = number && integerAt(bytes, number.end);
  if (!number || !generation) return undefined;
  const end = skipSpace(bytes, generation.end);
  if (!startsWith(bytes, end, 'obj')) return undefined;
  return { number: number.value, generation: generation.value, end: end + 3 };
}

/** The first `count` integers of an object stream's header. */
function integers(data: Uint8Array, at: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const n = integerAt(data, at);
    if (!n) return doubt('object stream numbers');
    out.push(n.value);
    at = n.end;
  }
  return out;
}

/** A classic `xref` table's subsections into `entries` (older ones don't override); returns where `trailer`'s dictionary starts. */
function classicTable(bytes: Uint8Array, at: number, entries: Map<number, Entry>): number {
  for (;;) {
    at = skipSpace(bytes, at);
    if (startsWith(bytes, at, 'trailer')) return at + 7;
    const first = integerAt(bytes, at);
    const count = first && integerAt(bytes, first.end);
    if (!first || !count) return doubt('xref subsection');
    at = count.end;
    for (let i = 0; i < count.value; i++) {
      const offset = integerAt(bytes, at);
      const generation = offset && integerAt(bytes, offset.end);
      if (!offset || !generation) return doubt('xref entry');
      at = skipSpace(bytes, generation.end);
      const kind = bytes[at++];
      if (kind !== 0x6e && kind !== 0x66) return doubt('xref entry kind');
      const number = first.value + i;
      if (number === 0 || entries.has(number)) continue;
      entries.set(number, kind === 0x6e && offset.value > 0 ? { offset: offset.value } : null);
    }
  }
}
