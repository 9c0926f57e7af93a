import type { Reader } from '../readers/reader';
import { ConversionError } from '../types';
import { sniffFormat } from './sniff';

// require() loads a reader on first use the same way under tsx, jest and the bundle; import()
// is not hooked by tsx in the worker threads that convert.
/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * How the sniffer recognises a format from its bytes (formats/sniff.ts reads these):
 * - `zip`: a package, by its `mimetype` member (`mimeTypes`), a folder its parts live under, a member it
 *   always has, or the body element of an ODF content.xml;
 * - `ole`: an Office 97-2003 compound file, by the stream that holds the document;
 * - `text`: text, told apart from other text formats by the file's name;
 * - `fileTypes`: what the `file-type` library calls it (images, audio containers);
 * - `pdf`, `rtf`: by their own signatures.
 */
export type Sniff =
  | { container: 'zip'; folder?: string; member?: string; odfBody?: 'text' | 'spreadsheet' | 'presentation' }
  | { container: 'ole'; streams: readonly string[] }
  | { container: 'text' }
  | { container: 'binary'; fileTypes?: readonly string[] }
  | { container: 'pdf' }
  | { container: 'rtf' };

/** One format: its extensions, MIME types and reader, and how its bytes are recognised. */
export interface FormatLine {
  /** What the sniffer calls the format: the extension that names it. */
  readonly format: string;
  /** Lower-case extensions without the dot, in the contract's order. */
  readonly extensions: readonly string[];
  /** The registered media types; the first is the one to send. */
  readonly mimeTypes: readonly string[];
  /** What the user was told the file would be, for messages ("named .xlsx but is not a spreadsheet"). */
  readonly kind: string;
  readonly sniff: Sniff;
  /** The reader also reads text saved under this name (Excel saves delimited and XML text as .xls). */
  readonly readsText?: boolean;
  /** Pages, slides or sheets that `page_range` (E2) can select: the reader reads only the selected ones. */
  readonly pages?: boolean;
  /** The reader, required on first use: a parser is only loaded for its own format. */
  readonly load: () => Reader;
}

const reader = {
  text: () => (require('../readers/text') as typeof import('../readers/text')).plainTextReader,
  markdown: () => (require('../readers/markdown') as typeof import('../readers/markdown')).markdownReader,
  csv: () => (require('../readers/csv') as typeof import('../readers/csv')).csvReader,
  json: () => (require('../readers/json') as typeof import('../readers/json')).jsonReader,
  xml: () => (require('../readers/xml') as typeof import('../readers/xml')).xmlReader,
  html: () => (require('../readers/html') as typeof import('../readers/html')).htmlReader,
  docx: () => (require('../readers/docx') as typeof import('../readers/docx')).docxReader,
  spreadsheet: () => (require('../readers/spreadsheet') as typeof import('../readers/spreadsheet')).spreadsheetReader,
  pdf: () => (require('../readers/pdf') as typeof import('../readers/pdf')).pdfReader,
  pptx: () => (require('../readers/pptx') as typeof import('../readers/pptx')).pptxReader,
  odt: () => (require('../readers/odf') as typeof import('../readers/odf')).odtReader,
  odp: () => (require('../readers/odf') as typeof import('../readers/odf')).odpReader,
  epub: () => (require('../readers/epub') as typeof import('../readers/epub')).epubReader,
  rtf: () => (require('../readers/rtf') as typeof import('../readers/rtf')).rtfReader,
  doc: () => (require('../readers/legacy/doc') as typeof import('../readers/legacy/doc')).docReader,
  ppt: () => (require('../readers/legacy/ppt') as typeof import('../readers/legacy/ppt')).pptReader,
  image: () => (require('../readers/image') as typeof import('../readers/image')).imageReader,
  audio: () => (require('../readers/audio') as typeof import('../readers/audio')).audioReader,
};

/**
 * Every format, one line each, in the order the contract lists the extensions: the one place a
 * format is registered (pandoc's Readers.hs). A new format is one reader plus one line here;
 * `@markwright/contracts` holds the extensions and MIME types derived from it (test/formats-table.test.ts).
 */
export const FORMATS = [
  {
    format: 'pdf',
    pages: true,
    extensions: ['pdf'],
    mimeTypes: ['application/pdf'],
    kind: 'a PDF document',
    sniff: { container: 'pdf' },
    load: reader.pdf,
  },
  {
    format: 'docx',
    extensions: ['docx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    kind: 'a Word document',
    sniff: { container: 'zip', folder: 'word/' },
    load: reader.docx,
  },
  {
    format: 'doc',
    extensions: ['doc'],
    mimeTypes: ['application/msword'],
    kind: 'a Word document',
    sniff: { container: 'ole', streams: ['WordDocument'] },
    load: reader.doc,
  },
  {
    format: 'xlsx',
    pages: true,
    extensions: ['xlsx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    kind: 'a spreadsheet',
    sniff: { container: 'zip', folder: 'xl/' },
    readsText: true,
    load: reader.spreadsheet,
  },
  {
    format: 'xls',
    pages: true,
    extensions: ['xls'],
    mimeTypes: ['application/vnd.ms-excel'],
    kind: 'a spreadsheet',
    sniff: { container: 'ole', streams: ['Workbook', 'Book'] },
    readsText: true,
    load: reader.spreadsheet,
  },
  {
    format: 'pptx',
    pages: true,
    extensions: ['pptx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    kind: 'a presentation',
    sniff: { container: 'zip', folder: 'ppt/' },
    load: reader.pptx,
  },
  {
    format: 'ppt',
    pages: true,
    extensions: ['ppt'],
    mimeTypes: ['application/vnd.ms-powerpoint'],
    kind: 'a presentation',
    sniff: { container: 'ole', streams: ['PowerPoint Document'] },
    load: reader.ppt,
  },
  {
    format: 'html',
    extensions: ['html', 'htm'],
    mimeTypes: ['text/html'],
    kind: 'an HTML page',
    sniff: { container: 'text' },
    load: reader.html,
  },
  {
    format: 'txt',
    extensions: ['txt'],
    mimeTypes: ['text/plain'],
    kind: 'a text file',
    sniff: { container: 'text' },
    load: reader.text,
  },
  {
    format: 'rtf',
    extensions: ['rtf'],
    mimeTypes: ['application/rtf', 'text/rtf'],
    kind: 'an RTF document',
    sniff: { container: 'rtf' },
    load: reader.rtf,
  },
  {
    format: 'csv',
    extensions: ['csv'],
    mimeTypes: ['text/csv'],
    kind: 'a CSV file',
    sniff: { container: 'text' },
    load: reader.csv,
  },
  {
    format: 'xml',
    extensions: ['xml'],
    mimeTypes: ['application/xml', 'text/xml'],
    kind: 'an XML file',
    sniff: { container: 'text' },
    load: reader.xml,
  },
  {
    format: 'json',
    extensions: ['json'],
    mimeTypes: ['application/json'],
    kind: 'a JSON file',
    sniff: { container: 'text' },
    load: reader.json,
  },
  {
    format: 'md',
    extensions: ['md', 'markdown'],
    mimeTypes: ['text/markdown'],
    kind: 'a Markdown file',
    sniff: { container: 'text' },
    load: reader.markdown,
  },
  {
    format: 'epub',
    extensions: ['epub'],
    mimeTypes: ['application/epub+zip'],
    kind: 'an EPUB book',
    sniff: { container: 'zip', member: 'META-INF/container.xml' },
    load: reader.epub,
  },
  {
    format: 'odt',
    extensions: ['odt'],
    mimeTypes: ['application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.text-template'],
    kind: 'an OpenDocument text',
    sniff: { container: 'zip', odfBody: 'text' },
    load: reader.odt,
  },
  {
    format: 'ods',
    pages: true,
    extensions: ['ods'],
    mimeTypes: [
      'application/vnd.oasis.opendocument.spreadsheet',
      'application/vnd.oasis.opendocument.spreadsheet-template',
    ],
    kind: 'a spreadsheet',
    sniff: { container: 'zip', odfBody: 'spreadsheet' },
    readsText: true,
    load: reader.spreadsheet,
  },
  {
    format: 'odp',
    pages: true,
    extensions: ['odp'],
    mimeTypes: [
      'application/vnd.oasis.opendocument.presentation',
      'application/vnd.oasis.opendocument.presentation-template',
    ],
    kind: 'a presentation',
    sniff: { container: 'zip', odfBody: 'presentation' },
    load: reader.odp,
  },
  {
    format: 'jpg',
    extensions: ['jpg', 'jpeg'],
    mimeTypes: ['image/jpeg'],
    kind: 'an image',
    sniff: { container: 'binary', fileTypes: ['jpg'] },
    load: reader.image,
  },
  {
    // Every other image sharp decodes for OCR reads as a PNG would.
    format: 'png',
    extensions: ['png'],
    mimeTypes: ['image/png'],
    kind: 'an image',
    sniff: { container: 'binary', fileTypes: ['png', 'gif', 'webp', 'tif'] },
    load: reader.image,
  },
  {
    format: 'wav',
    extensions: ['wav'],
    mimeTypes: ['audio/wav', 'audio/x-wav'],
    kind: 'an audio file',
    sniff: { container: 'binary', fileTypes: ['wav'] },
    load: reader.audio,
  },
  {
    format: 'mp3',
    extensions: ['mp3'],
    mimeTypes: ['audio/mpeg'],
    kind: 'an audio file',
    sniff: { container: 'binary', fileTypes: ['mp3'] },
    load: reader.audio,
  },
  {
    // Every other container ffmpeg decodes for transcription reads as an M4A would.
    format: 'm4a',
    extensions: ['m4a'],
    mimeTypes: ['audio/mp4', 'audio/x-m4a'],
    kind: 'an audio file',
    sniff: {
      container: 'binary',
      fileTypes: ['m4a', 'mp4', 'aac', 'flac', 'ogg', 'oga', 'opus', 'webm', 'mov', '3gp', 'aif', 'amr', 'wma'],
    },
    load: reader.audio,
  },
] as const satisfies readonly FormatLine[];

export type FormatName = (typeof FORMATS)[number]['format'];
type Line = (typeof FORMATS)[number];

/** The contract's exact list of accepted extensions, in its order: every line's extensions. */
export const SUPPORTED_EXTENSIONS = FORMATS.flatMap((line: Line) => line.extensions) as readonly string[];
export type SupportedExtension = Line['extensions'][number];

export function isSupportedExtension(ext: string): ext is SupportedExtension {
  return SUPPORTED_EXTENSIONS.includes(ext.toLowerCase());
}

/** The line whose extensions include `ext` (any case). */
export function formatOf(ext: string): FormatLine | undefined {
  const lower = ext.toLowerCase();
  return (FORMATS as readonly FormatLine[]).find((line) => line.extensions.includes(lower));
}

/**
 * The reader for what the bytes are (content, not extension): a .ppt that is really a PPTX
 * reads as PPTX; the name only says which text format a text file is.
 */
export async function readerForContent(input: Buffer, ext: string): Promise<Reader> {
  if (!isSupportedExtension(ext)) return readerFor(ext);
  const format = await sniffFormat(input, ext, FORMATS);
  return (FORMATS as readonly FormatLine[]).find((line) => line.format === format)!.load();
}

/** The reader for an extension (any case), or the user-facing refusal of one no line has. */
export function readerFor(ext: string): Reader {
  const lower = ext.toLowerCase();
  const line = formatOf(lower);
  if (line) return line.load();
  throw new ConversionError('unsupported_format', `Files of type .${lower} are not supported.`);
}

/** Files of these types are text: an empty one is read (and says it is empty) rather than taken for an empty document. */
/** Whether `page_range` (E2) applies to files of this extension: PDF, presentations, spreadsheets. */
export function acceptsPageRange(ext: string): boolean {
  return formatOf(ext)?.pages === true;
}

export function isTextExtension(ext: string): boolean {
  return formatOf(ext)?.sniff.container === 'text';
}

/** What the bytes are, among every format of the table (the extension only tells text formats apart). */
export function sniffContent(input: Buffer, declaredExtension: string): ReturnType<typeof sniffFormat> {
  return sniffFormat(input, declaredExtension, FORMATS);
}

/** The error a sniff throws, for callers that import only this table (`@markwright/conversion/formats`). */
export { ConversionError };
