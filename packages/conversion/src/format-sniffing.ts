import CFB from 'cfb';
import { fileTypeFromBuffer } from 'file-type';
import { SafeZip } from './archive/safe-zip';
import { ConversionError, type ConversionErrorCode } from './types';

/**
 * What a file is, read from its bytes: the extension of the converter that reads it. The name's
 * extension only breaks ties the bytes leave open (which text format a text file is), so a .ppt
 * that is really a PPTX converts as PPTX and random bytes named .xlsx are refused.
 */
export type SniffedFormat =
  | 'pdf'
  | 'docx'
  | 'xlsx'
  | 'pptx'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'epub'
  | 'doc'
  | 'xls'
  | 'ppt'
  | 'rtf'
  | 'html'
  | 'xml'
  | 'json'
  | 'csv'
  | 'txt'
  | 'md'
  | 'png'
  | 'jpg'
  | 'wav'
  | 'mp3'
  | 'm4a';

/** Extensions whose files are text; which text format it is comes from the name. */
const TEXT_EXTENSIONS: Record<string, SniffedFormat> = {
  txt: 'txt',
  md: 'md',
  markdown: 'md',
  csv: 'csv',
  json: 'json',
  xml: 'xml',
  html: 'html',
  htm: 'html',
};
export function isTextExtension(ext: string): boolean {
  return ext.toLowerCase() in TEXT_EXTENSIONS;
}

const SPREADSHEET_EXTENSIONS = new Set(['xlsx', 'xls', 'ods']);
/** Formats stored as a zip package, and as an OLE compound file: a damaged one goes to its own reader for a precise message. */
const ZIP_FORMATS = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub']);
const OLE_FORMATS = new Set(['doc', 'xls', 'ppt']);
const AUDIO_EXTENSIONS = new Set(['wav', 'mp3', 'm4a']);

/** What the user was told the file would be, for messages ("named .xlsx but ..."). */
const KIND_BY_EXTENSION: Record<string, string> = {
  pdf: 'a PDF document',
  docx: 'a Word document',
  doc: 'a Word document',
  odt: 'an OpenDocument text',
  rtf: 'an RTF document',
  xlsx: 'a spreadsheet',
  xls: 'a spreadsheet',
  ods: 'a spreadsheet',
  pptx: 'a presentation',
  ppt: 'a presentation',
  odp: 'a presentation',
  epub: 'an EPUB book',
  jpg: 'an image',
  jpeg: 'an image',
  png: 'an image',
  wav: 'an audio file',
  mp3: 'an audio file',
  m4a: 'an audio file',
  txt: 'a text file',
  md: 'a Markdown file',
  markdown: 'a Markdown file',
  csv: 'a CSV file',
  json: 'a JSON file',
  xml: 'an XML file',
  html: 'an HTML page',
  htm: 'an HTML page',
};

const ODF_MIME_TYPES: Record<string, SniffedFormat> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
  'application/epub+zip': 'epub',
};

/** Image formats sharp decodes for OCR; the image converter reads all of them. */
const IMAGE_TYPES = new Set(['png', 'jpg', 'gif', 'webp', 'tif']);
/** Containers ffmpeg decodes for transcription; the audio converter reads all of them. */
const AUDIO_TYPES: Record<string, SniffedFormat> = {
  wav: 'wav',
  mp3: 'mp3',
  m4a: 'm4a',
  mp4: 'm4a',
  aac: 'm4a',
  flac: 'm4a',
  ogg: 'm4a',
  oga: 'm4a',
  opus: 'm4a',
  webm: 'm4a',
  mov: 'm4a',
  '3gp': 'm4a',
  aif: 'm4a',
  amr: 'm4a',
  wma: 'm4a',
};

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

/** Whether a PDF header is where readers look for one (text that merely quotes it included). */
export function mayBePdf(input: Buffer): boolean {
  return input.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-');
}

/** The format to convert the file as, from its bytes; throws a user-facing ConversionError when it is nothing we read. */
export async function sniffFormat(input: Buffer, declaredExtension: string): Promise<SniffedFormat> {
  const declared = declaredExtension.toLowerCase();
  if (ZIP_SIGNATURES.some((signature) => startsWith(input, signature))) return zipFormat(input, declared);
  if (startsWith(input, OLE_SIGNATURE)) return oleFormat(input, declared);
  if (input.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (isBiff2To4Worksheet(input)) return 'xls';
  if (isText(input)) return textFormat(input, declared);
  if (mayBePdf(input)) return 'pdf';
  const detected = await fileTypeFromBuffer(input).catch(() => undefined);
  if (detected && IMAGE_TYPES.has(detected.ext)) return detected.ext === 'jpg' ? 'jpg' : 'png';
  if (detected && AUDIO_TYPES[detected.ext]) {
    return AUDIO_EXTENSIONS.has(declared) ? (declared as SniffedFormat) : AUDIO_TYPES[detected.ext]!;
  }
  if (detected?.ext === 'rtf') return 'rtf';
  if (detected) {
    throw refused(
      declared,
      `it is ${article(detected.ext.toUpperCase())} file (${detected.mime}), which is not a format we convert`,
      'unsupported_format',
    );
  }
  throw refused(declared, 'its content is not a document, image or audio file in any format we convert');
}

function zipFormat(input: Buffer, declared: string): SniffedFormat {
  let zip: SafeZip;
  try {
    zip = new SafeZip(input, 'file');
  } catch (err) {
    if (err instanceof ConversionError && err.code === 'too_large') throw err;
    throw refused(declared, 'it is a damaged or truncated zip package that cannot be opened');
  }
  const mimetypeSize = zip.info('mimetype')?.size ?? Infinity;
  const mimetype = mimetypeSize <= MAX_SNIFFED_MEMBER_BYTES ? zip.textOf('mimetype')?.trim() : undefined;
  if (mimetype && ODF_MIME_TYPES[mimetype]) return ODF_MIME_TYPES[mimetype]!;
  const names = zip.list();
  const under = (folder: string) => names.some((n) => n.startsWith(folder));
  if (under('word/')) return 'docx';
  if (under('xl/')) return 'xlsx';
  if (under('ppt/')) return 'pptx';
  if (zip.has('META-INF/container.xml')) return 'epub';
  const manifestType = odfManifestType(zip);
  if (manifestType && ODF_MIME_TYPES[manifestType]) return ODF_MIME_TYPES[manifestType]!;
  const odfBody = odfBodyFormat(zip);
  if (odfBody) return odfBody;
  if (ZIP_FORMATS.has(declared)) return declared as SniffedFormat;
  throw refused(declared, 'it is a zip archive, not a document in any format we convert', 'unsupported_format');
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
function odfBodyFormat(zip: SafeZip): SniffedFormat | undefined {
  const info = zip.info('content.xml');
  if (!info || info.size > MAX_SNIFFED_CONTENT_BYTES) return undefined;
  const body = /<office:(text|spreadsheet|presentation)\b/.exec(zip.textOf('content.xml') ?? '')?.[1];
  return body === 'text' ? 'odt' : body === 'spreadsheet' ? 'ods' : body === 'presentation' ? 'odp' : undefined;
}

function oleFormat(input: Buffer, declared: string): SniffedFormat {
  let cfb: CFB.CFB$Container;
  try {
    cfb = CFB.read(input, { type: 'buffer' });
  } catch {
    throw refused(declared, 'it is a damaged or truncated Office 97-2003 file that cannot be opened');
  }
  const has = (name: string) => CFB.find(cfb, name) !== null && CFB.find(cfb, name) !== undefined;
  if (has('WordDocument')) return 'doc';
  if (has('Workbook') || has('Book')) return 'xls';
  if (has('PowerPoint Document')) return 'ppt';
  if (has('EncryptedPackage')) {
    throw new ConversionError(
      'encrypted_file',
      'The document is password-protected; remove the password and try again.',
    );
  }
  if (OLE_FORMATS.has(declared)) return declared as SniffedFormat;
  throw refused(declared, 'it is an Office 97-2003 file that is not a Word, Excel or PowerPoint document');
}

/**
 * A text file converts as the text format its name says. Under another name, only the text
 * formats that office applications themselves save with those names are read: RTF and HTML
 * (Word and Excel "save as" with a .doc or .xls name) and delimited or XML text for spreadsheets.
 */
function textFormat(input: Buffer, declared: string): SniffedFormat {
  const named = TEXT_EXTENSIONS[declared];
  const head = input
    .subarray(0, 4096)
    .toString('latin1')
    .replace(/^(\xef\xbb\xbf|\xff\xfe|\xfe\xff)/, '')
    .replace(/\0/g, '');
  if (/^\s*\{\\rtf/.test(head)) return 'rtf';
  if (named) return named;
  if (declared === 'rtf') return 'rtf';
  if (/^\s*(<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<table[\s>])/i.test(head)) {
    return 'html';
  }
  if (SPREADSHEET_EXTENSIONS.has(declared)) return declared as SniffedFormat;
  throw refused(declared, 'its content is plain text');
}

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

/** Whether the bytes read as text: a BOM, or few control characters, NUL included (UTF-16 without BOM by its zero bytes). */
function isText(input: Buffer): boolean {
  if (input.length === 0) return true;
  if (startsWith(input, [0xef, 0xbb, 0xbf])) return true;
  if (startsWith(input, [0xff, 0xfe]) || startsWith(input, [0xfe, 0xff])) return true;
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
function refused(declared: string, why: string, code: ConversionErrorCode = 'corrupt_file'): ConversionError {
  const kind = KIND_BY_EXTENSION[declared] ?? 'a format we convert';
  return new ConversionError(code, `The file is named .${declared} but is not ${kind}: ${why}.`);
}

function article(word: string): string {
  return /^[AEFHILMNORSX]/.test(word) ? `an ${word}` : `a ${word}`;
}

function startsWith(input: Buffer, signature: number[]): boolean {
  return input.length >= signature.length && signature.every((b, i) => input[i] === b);
}
