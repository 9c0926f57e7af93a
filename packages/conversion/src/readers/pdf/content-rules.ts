import { inflateSync } from 'node:zlib';
import type { PDFContext, PDFDict, PDFObject, PDFRawStream } from 'pdf-lib';
import { openEagerObjects, openLazyObjects, pdfLib, pdfName, type PdfObjects } from './objects';
import { RuleCollector, type Matrix, type Rule } from './rulings';

/**
 * Drawn rules read straight from the pages' content streams: only the path, paint and transform
 * operators are looked at, text and strings are skipped by bytes, so no fonts, glyphs or operator
 * lists are built (pdf.js's operator list, the other source, costs about twice the rest of the reader).
 *
 * pdf-lib is the object layer (xref tables, object streams, references); streams are inflated with
 * zlib. Anything this reader is not sure to read as pdf.js would (encryption, other filters, inline
 * images, annotations that draw, soft masks, an unknown operator or a wrong operand count) makes it
 * answer `undefined` for the page, and the caller asks pdf.js.
 */
export interface ContentRules {
  pageCount: number;
  /** The page's rules (1-based page number), or undefined where pdf.js's operator list must be asked. */
  pageRules(pageNumber: number): Rule[] | undefined;
}

/** The loaded pdf-lib (every caller runs after the objects were opened, which loads it). */
const pdf = pdfLib;

/** Opens the file's object layer; undefined when pdf-lib can't (encrypted, damaged): every page then goes to pdf.js. */
export async function openContentRules(input: Uint8Array): Promise<ContentRules | undefined> {
  const objects = (await openLazyObjects(input)) ?? (await openEagerObjects(input));
  return objects && contentRules(objects);
}

/** The scanner over an opened object layer (lazy or eager: see objects.ts). */
export function contentRules(objects: PdfObjects): ContentRules {
  return {
    pageCount: objects.pageCount,
    pageRules(pageNumber) {
      try {
        const page = objects.page(pageNumber);
        return page && readPageRules(objects.context, page);
      } catch {
        // Unsupported, a lookup the object layer doubts, or a bug of ours: the page must not lose its tables, pdf.js reads it.
        return undefined;
      }
    },
  };
}

/** Thrown where this reader can't be sure to read the page as pdf.js does. */
class Unsupported extends Error {}

function doubt(why: string): never {
  throw new Unsupported(why);
}

/** Form XObjects nested deeper than this (or drawing themselves) are left to pdf.js. */
const MAX_FORM_DEPTH = 12;

function readPageRules(context: PDFContext, page: PDFDict): Rule[] {
  if (drawsAnnotations(context, page)) doubt('annotations');
  const [vx, vy] = pageViewOrigin(context, page);
  const rules = new RuleCollector(vx, vy);
  const contents = context.lookup(inherited(context, page, 'Contents', false));
  const streams =
    contents instanceof pdf().PDFArray
      ? contents.asArray().map((s) => context.lookup(s))
      : contents === undefined
        ? []
        : [contents];
  // pdf.js reads an array of content streams as one stream, joined without a separator (one stream is not copied).
  const decoded = streams.filter((s) => s instanceof pdf().PDFRawStream).map((s) => decode(s));
  const bytes = decoded.length === 1 ? decoded[0]! : Buffer.concat(decoded);
  const resources = context.lookup(inherited(context, page, 'Resources', true));
  scan(bytes, resources instanceof pdf().PDFDict ? resources : undefined, rules, context, 0);
  return rules.rules;
}

/** A page attribute, looked up the page tree (Resources, MediaBox, CropBox and Rotate are inheritable). */
export function inherited(
  context: PDFContext,
  page: PDFDict,
  key: string,
  inheritable: boolean,
): PDFObject | undefined {
  const name = pdf().PDFName.of(key);
  let node: PDFDict | undefined = page;
  for (let depth = 0; node && depth < 64; depth++) {
    const value = node.get(name);
    if (value !== undefined || !inheritable) return value;
    const parent: PDFObject | undefined = context.lookup(node.get(pdfName('Parent')));
    node = parent instanceof pdf().PDFDict ? parent : undefined;
  }
  return undefined;
}

/** Annotations that pdf.js adds to the operator list (appearance streams, or ones it draws itself). */
export function drawsAnnotations(context: PDFContext, page: PDFDict): boolean {
  const annots = context.lookup(page.get(pdfName('Annots')));
  if (annots === undefined) return false;
  if (!(annots instanceof pdf().PDFArray)) return true;
  return annots.asArray().some((ref) => {
    const annot = context.lookup(ref);
    if (!(annot instanceof pdf().PDFDict)) return false;
    const subtype = context.lookup(annot.get(pdfName('Subtype')));
    const inert = subtype === pdfName('Link') || subtype === pdfName('Popup');
    return !inert || annot.has(pdfName('AP'));
  });
}

/** The bottom-left corner of pdf.js's page view: the CropBox within the MediaBox (Letter when neither is valid). */
function pageViewOrigin(context: PDFContext, page: PDFDict): [number, number] {
  const box = (key: string): [number, number, number, number] | undefined => {
    const values = numbers(context, context.lookup(inherited(context, page, key, true)));
    if (values?.length !== 4) return undefined;
    const [x0, y0, x1, y1] = values as [number, number, number, number];
    const rect: [number, number, number, number] = [
      Math.min(x0, x1),
      Math.min(y0, y1),
      Math.max(x0, x1),
      Math.max(y0, y1),
    ];
    return rect[2] - rect[0] > 0 && rect[3] - rect[1] > 0 ? rect : undefined;
  };
  const media = box('MediaBox') ?? [0, 0, 612, 792];
  const crop = box('CropBox');
  if (!crop) return [media[0], media[1]];
  const x0 = Math.max(crop[0], media[0]);
  const y0 = Math.max(crop[1], media[1]);
  const x1 = Math.min(crop[2], media[2]);
  const y1 = Math.min(crop[3], media[3]);
  return x1 - x0 > 0 && y1 - y0 > 0 ? [x0, y0] : [media[0], media[1]];
}

/** An array of numbers (references resolved), or undefined when it isn't one. */
function numbers(context: PDFContext, value: PDFObject | undefined): number[] | undefined {
  if (!(value instanceof pdf().PDFArray)) return undefined;
  const out: number[] = [];
  for (const item of value.asArray()) {
    const n = context.lookup(item);
    if (!(n instanceof pdf().PDFNumber)) return undefined;
    out.push(n.asNumber());
  }
  return out;
}

/**
 * A stream's bytes. Flate alone (what most producers write) is inflated by zlib; other chains of the
 * standard filters (ASCII85 before Flate, as ReportLab writes) by pdf-lib; predictors and image
 * filters are left to pdf.js.
 */
export function decode(stream: PDFRawStream): Uint8Array {
  const context = stream.dict.context;
  const filter = context.lookup(stream.dict.get(pdfName('Filter')));
  const filters =
    filter instanceof pdf().PDFArray ? filter.asArray().map((f) => context.lookup(f)) : filter ? [filter] : [];
  if (filters.length === 0) return stream.contents;
  if (stream.dict.has(pdfName('DecodeParms'))) doubt('predictor');
  if (filters.length === 1 && filters[0] === pdfName('FlateDecode')) return inflateSync(stream.contents);
  try {
    return pdf().decodePDFRawStream(stream).decode();
  } catch {
    return doubt('filter');
  }
}

// ---------------------------------------------------------------- the content stream scanner

/** Operand counts of the content stream operators (PDF 32000-1, annex A); -1: any count (colours). */
const OPERANDS = new Map<string, number>(
  Object.entries({
    0: 'b B b* B* BT BX EMC ET EX f F f* h n q Q s S T* W W*',
    1: "BMC CS cs Do G g gs i j J M MP ri sh Tc Tj TJ TL Tr Ts Tw Tz w '",
    2: 'BDC d d0 DP l m Td TD Tf',
    3: 'RG rg "',
    4: 'K k re v y',
    6: 'c cm d1 Tm',
    [-1]: 'SC sc SCN scn',
  }).flatMap(([count, names]) => names.split(' ').map((name): [string, number] => [name, Number(count)])),
);
/** What the scanner needs of an operator, looked up once per operator by its bytes. */
interface Operator {
  name: string;
  operandCount: number;
  /** Builds a path (pdf.js gathers a run of them into one constructPath). */
  path: boolean;
  stroke: boolean;
  fill: boolean;
}
const PATH_OPERATORS = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're']);
const STROKES = new Set(['S', 's', 'B', 'B*', 'b', 'b*']);
const FILLS = new Set(['f', 'F', 'f*']);
/** Operators (all of three bytes or fewer) by their bytes as one number (first byte lowest), so a token is not made a string to be looked up. */
const OPERATORS = new Map<number, Operator>(
  [...OPERANDS].map(([name, operandCount]) => [
    operatorCode(name),
    { name, operandCount, path: PATH_OPERATORS.has(name), stroke: STROKES.has(name), fill: FILLS.has(name) },
  ]),
);

/** A token's bytes as one number (up to three bytes), or -1 for a longer token. */
function tokenCode(bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length > 3) return -1;
  let code = 0;
  for (let i = end - 1; i >= start; i--) code = code * 256 + bytes[i]!;
  return code;
}

function operatorCode(name: string): number {
  if (name.length > 3) throw new Error(`operator ${name} is longer than three bytes`);
  let code = 0;
  for (let i = name.length - 1; i >= 0; i--) code = code * 256 + name.charCodeAt(i);
  return code;
}

/** Most operands an operator takes (colour operators with a pattern); a stream with more before an operator is doubted. */
const MAX_OPERANDS = 33;
const NUMBER = 0;
const NAME = 1;
const OTHER = 2;
// The operands since the last operator, in typed arrays (no number boxed, no object or string per name): each one's
// kind, a number's value, a name's bytes (start in values, end in nameEnds), decoded only when an operator uses it.
// Shared by all scans: a form XObject's scan runs inside its `Do`, whose operand is read before.
const kinds = new Uint8Array(MAX_OPERANDS);
const values = new Float64Array(MAX_OPERANDS);
const nameEnds = new Int32Array(MAX_OPERANDS);

/** Where operand `count` goes, its kind set; one more than any operator takes leaves the page to pdf.js. */
function slot(count: number, kind: number): number {
  if (count === MAX_OPERANDS) doubt('operand count');
  kinds[count] = kind;
  return count;
}

/** Operand k's name (`/Name`: its bytes as latin1, `#` escapes left to `resource` to doubt), or undefined when it is no name. */
function nameAt(k: number, bytes: Uint8Array): string | undefined {
  return kinds[k] === NAME ? latin1(bytes, values[k]!, nameEnds[k]!) : undefined;
}

// Byte classes: whitespace and delimiters end a token.
const WHITESPACE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITESPACE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;

/**
 * Reads one content stream (a page's or a form XObject's), feeding the path operators to `rules`.
 * Mirrors how pdf.js builds its operator list where that changes rules: a run of path operators is
 * one path whose current point starts at the origin, inside text objects every path operator is a
 * run of its own, and a stream's unclosed `q` are closed at its end.
 */
function scan(
  bytes: Uint8Array,
  resources: PDFDict | undefined,
  rules: RuleCollector,
  context: PDFContext,
  depth: number,
): void {
  // The operands since the last operator: the first `count` entries of kinds, values and nameEnds.
  let count = 0;
  let pos = 0;
  let inText = false;
  let inPath = false;
  let saved = 0;
  const end = bytes.length;
  while (pos < end) {
    const c = bytes[pos]!;
    if (WHITESPACE[c]) {
      pos++;
      continue;
    }
    if (c === 0x25 /* % */) {
      while (pos < end && bytes[pos] !== 0x0a && bytes[pos] !== 0x0d) pos++;
      continue;
    }
    if (c === 0x2f /* / */) {
      const start = ++pos;
      while (pos < end && !WHITESPACE[bytes[pos]!] && !DELIMITER[bytes[pos]!]) pos++;
      const k = slot(count++, NAME);
      values[k] = start;
      nameEnds[k] = pos;
      continue;
    }
    if (c === 0x28 /* ( */ || c === 0x3c /* < */ || c === 0x5b /* [ */) {
      pos = skipComposite(bytes, pos);
      slot(count++, OTHER);
      continue;
    }
    if (DELIMITER[c]) doubt('stray delimiter');
    // Numbers start with a digit, a sign or a point; nothing else does.
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      values[slot(count++, NUMBER)] = readNumber(bytes, pos);
      pos = numberEnd;
      continue;
    }
    const start = pos;
    while (pos < end && !WHITESPACE[bytes[pos]!] && !DELIMITER[bytes[pos]!]) pos++;
    const code = tokenCode(bytes, start, pos);
    const operator = code >= 0 ? OPERATORS.get(code) : undefined;
    if (!operator) {
      const token = latin1(bytes, start, pos);
      if (token === 'true' || token === 'false') {
        slot(count++, OTHER);
        continue;
      }
      if (token === 'BI' || token === 'ID' || token === 'EI') doubt('inline image');
      doubt(`operator ${token}`);
    }
    const { name, operandCount, path, stroke, fill } = operator;
    if (operandCount >= 0 ? count !== operandCount : count > 33) doubt(`operands of ${name}`);

    if (path && (!inPath || inText)) rules.beginPath();
    inPath = path;
    switch (name) {
      case 'q':
        saved++;
        rules.save();
        break;
      case 'Q':
        if (saved > 0) saved--;
        rules.restore();
        break;
      case 'cm':
        numeric(count);
        rules.transform([values[0]!, values[1]!, values[2]!, values[3]!, values[4]!, values[5]!]);
        break;
      case 'm':
        numeric(count);
        rules.moveTo(values[0]!, values[1]!);
        break;
      case 'l':
        numeric(count);
        rules.lineTo(values[0]!, values[1]!);
        break;
      case 're':
        numeric(count);
        rules.rectangle(values[0]!, values[1]!, values[2]!, values[3]!);
        break;
      case 'c':
      case 'v':
      case 'y':
        numeric(count);
        break;
      case 'n':
        rules.endPath();
        break;
      case 'BT':
        inText = true;
        break;
      case 'ET':
        inText = false;
        break;
      case 'Do':
        paintXObject(nameAt(0, bytes), resources, rules, context, depth);
        break;
      case 'gs':
        checkGraphicsState(nameAt(0, bytes), resources, context);
        break;
      default:
        if (stroke) rules.stroke();
        else if (fill) rules.fill();
    }
    count = 0;
  }
  if (count) doubt('operands at the end');
  // pdf.js closes a stream's pending saves when the stream ends.
  for (; saved > 0; saved--) rules.restore();
}

/** The first `count` operands are numbers, or the page is left to pdf.js. */
function numeric(count: number): void {
  for (let i = 0; i < count; i++) if (kinds[i] !== NUMBER) doubt('operand type');
}

/** Where the number readNumber read ends (set by it: one pass over the token, no pair returned). */
let numberEnd = 0;

/**
 * A plain number token (`[+-]digits[.digits]`) starting at `start`, valued as pdf.js's lexer values it: all its
 * digits as one integer, divided by ten per decimal; its end goes to numberEnd. Anything else (exponents,
 * doubled signs or points, a number run into letters), which pdf.js reads its own lenient way, is a doubt.
 */
function readNumber(bytes: Uint8Array, start: number): number {
  const end = bytes.length;
  let i = start;
  let sign = 1;
  if (bytes[i] === 0x2d) {
    sign = -1;
    i++;
  } else if (bytes[i] === 0x2b) i++;
  let value = 0;
  let divideBy = 0;
  let digits = 0;
  for (; i < end; i++) {
    const c = bytes[i]!;
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      digits++;
      if (divideBy) divideBy *= 10;
    } else if (c === 0x2e && divideBy === 0) divideBy = 1;
    else break;
  }
  if (digits === 0 || (i < end && !WHITESPACE[bytes[i]!] && !DELIMITER[bytes[i]!])) doubt('number');
  numberEnd = i;
  return sign * (divideBy ? value / divideBy : value);
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** The position after a string, hex string, dictionary or array that starts at `pos` (nesting and escapes followed). */
function skipComposite(bytes: Uint8Array, pos: number): number {
  const end = bytes.length;
  let depth = 0;
  do {
    const c = bytes[pos]!;
    if (c === 0x28 /* ( */) pos = skipString(bytes, pos);
    else if (c === 0x3c /* < */ && bytes[pos + 1] !== 0x3c) {
      // A hex string (most of a TJ array's bytes in many producers' text): its end found by indexOf, not byte by byte.
      const close = bytes.indexOf(0x3e, pos);
      pos = (close < 0 ? end : close) + 1;
    } else if (c === 0x3c || c === 0x3e) {
      // << and >> open and close a dictionary; a lone > outside a hex string is damage.
      if (bytes[pos + 1] !== c) doubt('dictionary');
      depth += c === 0x3c ? 1 : -1;
      pos += 2;
    } else if (c === 0x5b /* [ */ || c === 0x5d /* ] */) {
      depth += c === 0x5b ? 1 : -1;
      pos++;
    } else if (c === 0x25 /* % */) {
      while (pos < end && bytes[pos] !== 0x0a && bytes[pos] !== 0x0d) pos++;
    } else pos++;
    if (depth < 0) doubt('unbalanced');
  } while (depth > 0 && pos < end);
  if (depth > 0 || pos > end) doubt('unterminated');
  return pos;
}

/** The position after the literal string that starts at `pos`: balanced parentheses, backslash escapes. */
function skipString(bytes: Uint8Array, pos: number): number {
  const end = bytes.length;
  let depth = 0;
  for (; pos < end; pos++) {
    const c = bytes[pos]!;
    if (c === 0x5c /* \ */) pos++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return pos + 1;
  }
  return doubt('unterminated string');
}

function resource(category: string, name: string | undefined, resources: PDFDict | undefined, context: PDFContext) {
  if (name === undefined) doubt('resource name');
  if (name.includes('#')) doubt('escaped name');
  const dict = context.lookup(resources?.get(pdf().PDFName.of(category)));
  return dict instanceof pdf().PDFDict ? context.lookup(dict.get(pdf().PDFName.of(name))) : undefined;
}

/** `Do`: a form XObject is read in place (its /Matrix applied); images and PostScript draw no rules. */
function paintXObject(
  name: string | undefined,
  resources: PDFDict | undefined,
  rules: RuleCollector,
  context: PDFContext,
  depth: number,
): void {
  const xobject = resource('XObject', name, resources, context);
  if (!(xobject instanceof pdf().PDFRawStream)) doubt('XObject');
  const subtype = context.lookup(xobject.dict.get(pdfName('Subtype')));
  if (subtype === pdfName('Image') || subtype === pdfName('PS')) return;
  if (subtype !== pdfName('Form') || depth >= MAX_FORM_DEPTH) doubt('XObject subtype');
  // Optional content and soft masks add operators to pdf.js's list that this reader doesn't follow.
  if (xobject.dict.has(pdfName('OC'))) doubt('optional content');
  const matrix = numbers(context, context.lookup(xobject.dict.get(pdfName('Matrix'))));
  const own = context.lookup(xobject.dict.get(pdfName('Resources')));
  rules.beginForm(matrix?.length === 6 ? (matrix as Matrix) : undefined);
  scan(decode(xobject), own instanceof pdf().PDFDict ? own : resources, rules, context, depth + 1);
  rules.endForm();
}

/** `gs` with a soft mask: pdf.js draws the mask's form into the list, which this reader doesn't. */
function checkGraphicsState(name: string | undefined, resources: PDFDict | undefined, context: PDFContext): void {
  const state = resource('ExtGState', name, resources, context);
  if (!(state instanceof pdf().PDFDict)) return;
  const mask = context.lookup(state.get(pdfName('SMask')));
  if (mask !== undefined && mask !== pdfName('None')) doubt('soft mask');
}
