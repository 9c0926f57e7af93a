import type CFB from 'cfb';
import type { SafeZip } from '../archive/safe-zip';
import { ConversionError, type ConversionErrorCode } from '../types';
import type { FormatLine, FormatName, Sniff } from './table';

/**
 * What a file is, read from its bytes: the format whose reader reads it (formats/table.ts). The
 * name's extension only breaks ties the bytes leave open (which text format a text file is), so a
 * .ppt that is really a PPTX converts as PPTX and random bytes named .xlsx are refused.
 */
export type SniffedFormat = FormatName;

const named = (line: FormatLine): SniffedFormat => line.format as SniffedFormat;

// The container libraries load on the first file that needs them: a worker that converts PDFs or text
// never does (file-type alone was a fifth of a worker's start-up). require(), as formats/table.ts loads readers.
/* eslint-disable @typescript-eslint/no-require-imports */
const fileTypeLibrary = () => require('file-type') as typeof import('file-type');
const cfbLibrary = () => require('cfb') as typeof CFB;
const safeZip = () => require('../archive/safe-zip') as typeof import('../archive/safe-zip');
const oleStreams = () => require('../readers/shared/ole') as typeof import('../readers/shared/ole');
const textDecoding = () =>
  require('../readers/shared/text-decoding') as typeof import('../readers/shared/text-decoding');
/* eslint-enable @typescript-eslint/no-require-imports */

/** What the sniffer looks up, derived once from the format table's lines. */
interface Known {
  byExtension: Map<string, FormatLine>;
  /** Extensions whose files are text; which text format it is comes from the name. */
  textExtensions: Map<string, SniffedFormat>;
  /** Formats stored as a zip package, and as an OLE compound file: a damaged one goes to its own reader for a precise message. */
  zipFormats: Set<SniffedFormat>;
  oleFormats: Set<SniffedFormat>;
  /** Audio formats: a file named as one of them keeps its name's format whatever container it holds. */
  audioFormats: Set<SniffedFormat>;
  /** An ODF or EPUB package's `mimetype` member (or manifest root entry), to the format it names. */
  packageMimeTypes: Map<string, SniffedFormat>;
  /** OOXML packages by the folder their parts live under, in the table's order. */
  packageFolders: (readonly [string, SniffedFormat])[];
  /** Packages by a member they always have (EPUB's container.xml). */
  packageMembers: (readonly [string, SniffedFormat])[];
  /** ODF packages by the body element of their content.xml. */
  odfBodies: Map<string, SniffedFormat>;
  /** Formats, in the table's order, by the OLE stream that holds the document. */
  oleStreams: (readonly [string, SniffedFormat])[];
  /** What file-type calls images and audio containers, to the format whose reader reads them. */
  fileTypes: Map<string, SniffedFormat>;
}

const knownByTable = new WeakMap<readonly FormatLine[], Known>();

function knownFormats(lines: readonly FormatLine[]): Known {
  const cached = knownByTable.get(lines);
  if (cached) return cached;
  const sniffOf = <C extends Sniff['container']>(container: C) =>
    lines.flatMap((l) =>
      l.sniff.container === container ? [{ line: l, sniff: l.sniff as Extract<Sniff, { container: C }> }] : [],
    );
  const zip = sniffOf('zip');
  const known: Known = {
    byExtension: new Map(lines.flatMap((l) => l.extensions.map((ext) => [ext, l] as const))),
    textExtensions: new Map(
      sniffOf('text').flatMap(({ line }) => line.extensions.map((ext) => [ext, named(line)] as const)),
    ),
    zipFormats: new Set(zip.map(({ line }) => named(line))),
    oleFormats: new Set(sniffOf('ole').map(({ line }) => named(line))),
    audioFormats: new Set(lines.filter((l) => l.kind === 'an audio file').map(named)),
    packageMimeTypes: new Map(
      zip.flatMap(({ line, sniff }) =>
        sniff.odfBody || sniff.member ? line.mimeTypes.map((m) => [m, named(line)] as const) : [],
      ),
    ),
    packageFolders: zip.flatMap(({ line, sniff }) => (sniff.folder ? [[sniff.folder, named(line)] as const] : [])),
    packageMembers: zip.flatMap(({ line, sniff }) => (sniff.member ? [[sniff.member, named(line)] as const] : [])),
    odfBodies: new Map(
      zip.flatMap(({ line, sniff }) => (sniff.odfBody ? [[sniff.odfBody, named(line)] as const] : [])),
    ),
    oleStreams: sniffOf('ole').flatMap(({ line, sniff }) => sniff.streams.map((s) => [s, named(line)] as const)),
    fileTypes: new Map(
      sniffOf('binary').flatMap(({ line, sniff }) => (sniff.fileTypes ?? []).map((ft) => [ft, named(line)] as const)),
    ),
  };
  knownByTable.set(lines, known);
  return known;
}

/** Local file header, or the end record of an empty archive. */
const ZIP_SIGNATURES = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
];
/** BOF record types of BIFF2, BIFF3 and BIFF4, their body sizes (4 in BIFF2, 6 later) and the worksheet substream type. */
const BIFF2_TO_4_BOF_TYPES = new Set([0x0009, 0x0209, 0x0409]);
const BIFF_BOF_MIN_BODY = 4;
const BIFF_BOF_MAX_BODY = 16;
const BIFF_WORKSHEET_SUBSTREAM = 0x0010;
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** The PDF header may follow a few hundred bytes of junk (readers accept up to 1024). */
const PDF_HEADER_WINDOW = 1024;
/** Zip members read while sniffing (mimetype, manifest) are at most this large. */
const MAX_SNIFFED_MEMBER_BYTES = 1024 * 1024;
/** An ODF content.xml read to find its body kind is at most this large. */
const MAX_SNIFFED_CONTENT_BYTES = 16 * 1024 * 1024;
/** Bytes examined to decide whether a file is text. */
const TEXT_SAMPLE_BYTES = 64 * 1024;
/** Share of control bytes above which a file is not text (random bytes have about 12 %). */
const MAX_CONTROL_SHARE = 0.01;
/** Zero bytes an audio file named as such may open with before its first frame (encoders' and cutters' padding). */
const MAX_AUDIO_PADDING = 64 * 1024;

/** Whether a PDF header is where readers look for one (text that merely quotes it included). */
export function mayBePdf(input: Buffer): boolean {
  return input.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-');
}

/** An indirect object opens the file and its trailer (`startxref`, `%%EOF`) ends it. */
const PDF_OBJECT = /^\s*(?:%[^\n\r]*[\n\r]+\s*)*\d+\s+\d+\s+obj\b/;
const PDF_TRAILER = /startxref\s+\d+\s+%%EOF\s*$/;

/**
 * A PDF that lost its `%PDF-` header (a generator's bug, a header cut off) but opens with an
 * indirect object and ends with its trailer: poppler and pdf.js still read it. Asked only of files
 * named .pdf.
 */
function hasPdfBody(input: Buffer): boolean {
  const head = input.subarray(0, PDF_HEADER_WINDOW).toString('latin1');
  const tail = input.subarray(Math.max(0, input.length - PDF_HEADER_WINDOW)).toString('latin1');
  return PDF_OBJECT.test(head) && PDF_TRAILER.test(tail);
}

/** The format (a line of `table`, formats/table.ts) to convert the file as, from its bytes; throws a user-facing ConversionError when it is nothing we read. */
export async function sniffFormat(
  input: Buffer,
  declaredExtension: string,
  table: readonly FormatLine[],
): Promise<SniffedFormat> {
  const declared = declaredExtension.toLowerCase();
  const k = knownFormats(table);
  if (ZIP_SIGNATURES.some((signature) => startsWith(input, signature))) return zipFormat(input, declared, k);
  if (startsWith(input, OLE_SIGNATURE)) return oleFormat(input, declared, k);
  if (input.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (isBiff2To4Worksheet(input)) return 'xls';
  // A PDF whose header comes after a few bytes (a BOM, a mail gateway's line) is still a PDF, as
  // its readers take it, even when its uncompressed body reads as text.
  if (declared === 'pdf' && (mayBePdf(input) || hasPdfBody(input))) return 'pdf';
  if (isText(input)) return textFormat(input, declared, k);
  if (mayBePdf(input)) return 'pdf';
  const detected = (await detectFileType(input)) ?? (await paddedAudioType(input, declared, k));
  const fileType = detected && k.fileTypes.get(detected.ext);
  if (fileType && k.audioFormats.has(fileType)) {
    return k.audioFormats.has(declared as SniffedFormat) ? (declared as SniffedFormat) : fileType;
  }
  if (fileType) return fileType;
  if (detected?.ext === 'rtf') return 'rtf';
  if (detected) {
    throw refused(
      k,
      declared,
      `it is ${article(detected.ext.toUpperCase())} file (${detected.mime}), which is not a format we convert`,
      'unsupported_format',
    );
  }
  throw refused(k, declared, 'its content is not a document, image or audio file in any format we convert');
}

async function detectFileType(input: Buffer): Promise<{ ext: string; mime: string } | undefined> {
  return fileTypeLibrary()
    .fileTypeFromBuffer(input)
    .catch(() => undefined);
}

/**
 * A file named as audio whose first frame follows a run of zero bytes (an MP3 padded by its encoder
 * or cut from a stream): what follows the padding, when that is audio. ffmpeg skips such padding.
 */
async function paddedAudioType(
  input: Buffer,
  declared: string,
  k: Known,
): Promise<{ ext: string; mime: string } | undefined> {
  if (!k.audioFormats.has(declared as SniffedFormat) || input[0] !== 0) return undefined;
  const start = input.subarray(0, MAX_AUDIO_PADDING).findIndex((byte) => byte !== 0);
  if (start < 0) return undefined;
  const detected = await detectFileType(input.subarray(start));
  const format = detected && k.fileTypes.get(detected.ext);
  return format && k.audioFormats.has(format) ? detected : undefined;
}

function zipFormat(input: Buffer, declared: string, k: Known): SniffedFormat {
  let zip: SafeZip;
  try {
    zip = new (safeZip().SafeZip)(input, 'file');
  } catch (err) {
    if (err instanceof ConversionError && err.code === 'too_large') throw err;
    throw refused(k, declared, 'it is a damaged or truncated zip package that cannot be opened');
  }
  const mimetypeSize = zip.info('mimetype')?.size ?? Infinity;
  const mimetype = mimetypeSize <= MAX_SNIFFED_MEMBER_BYTES ? zip.textOf('mimetype')?.trim() : undefined;
  const byMimetype = mimetype && k.packageMimeTypes.get(mimetype);
  if (byMimetype) return byMimetype;
  const names = zip.list();
  const under = (folder: string) => names.some((n) => n.startsWith(folder));
  for (const [folder, format] of k.packageFolders) if (under(folder)) return format;
  for (const [member, format] of k.packageMembers) if (zip.has(member)) return format;
  const manifestType = odfManifestType(zip);
  const byManifest = manifestType && k.packageMimeTypes.get(manifestType);
  if (byManifest) return byManifest;
  const odfBody = odfBodyFormat(zip, k);
  if (odfBody) return odfBody;
  if (k.zipFormats.has(declared as SniffedFormat)) return declared as SniffedFormat;
  throw refused(k, declared, 'it is a zip archive, not a document in any format we convert', 'unsupported_format');
}

/** The media type an ODF manifest gives its root entry (packages written without a mimetype member). */
function odfManifestType(zip: SafeZip): string | undefined {
  const info = zip.info('META-INF/manifest.xml');
  if (!info || info.size > MAX_SNIFFED_MEMBER_BYTES) return undefined;
  const xml = zip.textOf('META-INF/manifest.xml') ?? '';
  const root = /<manifest:file-entry\b[^>]*manifest:full-path="\/"[^>]*>/.exec(xml)?.[0] ?? '';
  return /manifest:media-type="([^"]+)"/.exec(root)?.[1];
}

/** An ODF package without mimetype or manifest, by the body element of its content.xml. */
function odfBodyFormat(zip: SafeZip, k: Known): SniffedFormat | undefined {
  const info = zip.info('content.xml');
  if (!info || info.size > MAX_SNIFFED_CONTENT_BYTES) return undefined;
  const body = /<office:(text|spreadsheet|presentation)\b/.exec(zip.textOf('content.xml') ?? '')?.[1];
  return body ? k.odfBodies.get(body) : undefined;
}

function oleFormat(input: Buffer, declared: string, k: Known): SniffedFormat {
  const ole = cfbLibrary();
  let cfb: CFB.CFB$Container;
  try {
    cfb = ole.read(input, { type: 'buffer' });
  } catch {
    throw refused(k, declared, 'it is a damaged or truncated Office 97-2003 file that cannot be opened');
  }
  // At the top only, where the readers look: a workbook embedding a Word document is a workbook.
  const { topLevelEntry } = oleStreams();
  const has = (name: string) => topLevelEntry(cfb, name) !== undefined;
  // A password-protected DOCX/XLSX/PPTX ([MS-OFFCRYPTO]); Word 2007 also writes a zero-filled
  // WordDocument stream beside it, for older Word to refuse, so this is asked first.
  if (has('EncryptedPackage')) {
    throw new ConversionError(
      'encrypted_file',
      'The document is password-protected; remove the password and try again.',
    );
  }
  for (const [stream, format] of k.oleStreams) if (has(stream)) return format;
  if (k.oleFormats.has(declared as SniffedFormat)) return declared as SniffedFormat;
  throw refused(k, declared, 'it is an Office 97-2003 file that is not a Word, Excel or PowerPoint document');
}

/**
 * A text file converts as the text format its name says. Under another name, only the text
 * formats that office applications themselves save with those names are read: RTF and HTML
 * (Word and Excel "save as" with a .doc or .xls name) and delimited or XML text for spreadsheets.
 */
function textFormat(input: Buffer, declared: string, k: Known): SniffedFormat {
  const byName = k.textExtensions.get(declared);
  const head = input
    .subarray(0, 4096)
    .toString('latin1')
    .replace(/^(\xef\xbb\xbf|\xff\xfe|\xfe\xff)/, '')
    .replace(/\0/g, '');
  if (/^\s*\{\\rtf/.test(head)) return 'rtf';
  // Excel 2003's XML spreadsheet keeps its .xml name as often as it takes .xls: it is a workbook either way.
  if (declared === 'xml' && hasXmlRoot(head, 'Workbook', SPREADSHEETML_2003)) return 'xls';
  // Word 2003's XML document, saved as .xml or (Word's own habit) as .doc: the DOCX reader reads it.
  if (
    (declared === 'xml' || declared === 'doc' || declared === 'docx') &&
    hasXmlRoot(head, 'wordDocument', WORDML_2003)
  )
    return 'docx';
  if (byName) return byName;
  if (declared === 'rtf') return 'rtf';
  if (/^\s*(<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<table[\s>])/i.test(head)) {
    return 'html';
  }
  const line = k.byExtension.get(declared);
  if (line?.readsText) return named(line);
  throw refused(k, declared, 'its content is plain text');
}

/**
 * Whether the XML text's root element (after the prolog and comments) has local name `local` and
 * declares namespace `namespace`: how Office 2003's one-file XML formats are told from other XML.
 */
function hasXmlRoot(head: string, local: string, namespace: string): boolean {
  const root = /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*)*<(?:[A-Za-z_][\w.-]*:)?([\w.-]+)\b([^>]*)>/.exec(head);
  return (
    !!root &&
    root[1] === local &&
    new RegExp(`xmlns(:[\\w.-]+)?\\s*=\\s*["']${namespace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']`).test(root[2]!)
  );
}

const SPREADSHEETML_2003 = 'urn:schemas-microsoft-com:office:spreadsheet';
const WORDML_2003 = 'http://schemas.microsoft.com/office/word/2003/wordml';

/**
 * Excel 2.x, 3.0 and 4.0 saved a worksheet as a bare BIFF record stream, with no OLE container
 * (`file` says "Microsoft Excel Worksheet"); SheetJS reads them. It opens with a BOF record
 * (type 0x0009, 0x0209 or 0x0409 by version) whose body gives the substream type, 0x0010 for a worksheet.
 */
function isBiff2To4Worksheet(input: Buffer): boolean {
  if (input.length < 8) return false;
  const bodyLength = input.readUInt16LE(2);
  return (
    BIFF2_TO_4_BOF_TYPES.has(input.readUInt16LE(0)) &&
    bodyLength >= BIFF_BOF_MIN_BODY &&
    bodyLength <= BIFF_BOF_MAX_BODY &&
    input.readUInt16LE(6) === BIFF_WORKSHEET_SUBSTREAM
  );
}

/** Whether the bytes read as text: a BOM, or few control characters, NUL included (UTF-16 and UTF-32 without BOM by their zero bytes). */
export function isText(input: Buffer): boolean {
  if (input.length === 0) return true;
  if (startsWith(input, [0xef, 0xbb, 0xbf])) return true;
  if (startsWith(input, [0xff, 0xfe]) || startsWith(input, [0xfe, 0xff])) return true;
  const { decodeText, wideUnicodeForm } = textDecoding();
  const wide = wideUnicodeForm(input);
  if (wide?.bom) return true;
  // UTF-32 without a BOM: its characters, not its bytes, must be few controls, as a text's bytes are.
  if (wide?.encoding === 'utf32le' || wide?.encoding === 'utf32be') {
    const characters = decodeText(input.subarray(0, TEXT_SAMPLE_BYTES));
    const controls = characters.match(/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/g)?.length ?? 0;
    return controls <= Math.max(1, MAX_CONTROL_SHARE * characters.length);
  }
  const sample = input.subarray(0, TEXT_SAMPLE_BYTES);
  let zerosEven = 0;
  let zerosOdd = 0;
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if (b === 0) {
      if (i % 2 === 0) zerosEven++;
      else zerosOdd++;
    } else if (
      (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a && b !== 0x1b) ||
      b === 0x7f
    ) {
      controls++;
    }
  }
  const half = sample.length / 2;
  if (Math.max(zerosEven, zerosOdd) > 0.3 * half && Math.min(zerosEven, zerosOdd) < 0.02 * half) return true;
  // A stray NUL is a control like any other (text with one still converts, NUL removed); only many make it binary.
  return zerosEven + zerosOdd + controls <= Math.max(1, MAX_CONTROL_SHARE * sample.length);
}

/** The file is not what its name says and nothing else we read: unreadable (corrupt) or a format we don't convert. */
function refused(k: Known, declared: string, why: string, code: ConversionErrorCode = 'corrupt_file'): ConversionError {
  const kind = k.byExtension.get(declared)?.kind ?? 'a format we convert';
  return new ConversionError(code, `The file is named .${declared} but is not ${kind}: ${why}.`);
}

function article(word: string): string {
  return /^[AEFHILMNORSX]/.test(word) ? `an ${word}` : `a ${word}`;
}

function startsWith(input: Buffer, signature: number[]): boolean {
  return input.length >= signature.length && signature.every((b, i) => input[i] === b);
}
