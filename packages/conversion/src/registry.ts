import type { Converter } from './types';
import { ConversionError } from './types';
import { sniffFormat } from './format-sniffing';

// require() loads a converter on first use the same way under tsx, jest and the bundle; import()
// is not hooked by tsx in the worker threads that convert.
/* eslint-disable @typescript-eslint/no-require-imports */

/** A converter's extensions and how to load it: a parser is only required for its own format. */
interface RegistryLine {
  readonly extensions: readonly string[];
  readonly load: () => Converter;
}

/** Every converter, one line each. A new format is one file plus one line here. */
export const REGISTRY: readonly RegistryLine[] = [
  {
    extensions: ['txt'],
    load: () => (require('./converters/text') as typeof import('./converters/text')).plainTextConverter,
  },
  {
    extensions: ['md', 'markdown'],
    load: () => (require('./converters/markdown') as typeof import('./converters/markdown')).markdownConverter,
  },
  { extensions: ['csv'], load: () => (require('./converters/csv') as typeof import('./converters/csv')).csvConverter },
  {
    extensions: ['json'],
    load: () => (require('./converters/json') as typeof import('./converters/json')).jsonConverter,
  },
  { extensions: ['xml'], load: () => (require('./converters/xml') as typeof import('./converters/xml')).xmlConverter },
  {
    extensions: ['html', 'htm'],
    load: () => (require('./converters/html') as typeof import('./converters/html')).htmlConverter,
  },
  {
    extensions: ['docx'],
    load: () => (require('./converters/docx') as typeof import('./converters/docx')).docxConverter,
  },
  {
    extensions: ['xlsx', 'xls', 'ods'],
    load: () => (require('./converters/spreadsheet') as typeof import('./converters/spreadsheet')).spreadsheetConverter,
  },
  { extensions: ['pdf'], load: () => (require('./converters/pdf') as typeof import('./converters/pdf')).pdfConverter },
  {
    extensions: ['pptx'],
    load: () =>
      (require('./converters/presentation/pptx') as typeof import('./converters/presentation/pptx')).pptxConverter,
  },
  { extensions: ['odt'], load: () => (require('./converters/odf') as typeof import('./converters/odf')).odtConverter },
  { extensions: ['odp'], load: () => (require('./converters/odf') as typeof import('./converters/odf')).odpConverter },
  {
    extensions: ['epub'],
    load: () => (require('./converters/epub') as typeof import('./converters/epub')).epubConverter,
  },
  { extensions: ['rtf'], load: () => (require('./converters/rtf') as typeof import('./converters/rtf')).rtfConverter },
  {
    extensions: ['doc'],
    load: () => (require('./converters/legacy/doc') as typeof import('./converters/legacy/doc')).docConverter,
  },
  {
    extensions: ['ppt'],
    load: () => (require('./converters/legacy/ppt') as typeof import('./converters/legacy/ppt')).pptConverter,
  },
  {
    extensions: ['jpg', 'jpeg', 'png'],
    load: () => (require('./converters/media/image') as typeof import('./converters/media/image')).imageConverter,
  },
  {
    extensions: ['wav', 'mp3', 'm4a'],
    load: () => (require('./converters/media/audio') as typeof import('./converters/media/audio')).audioConverter,
  },
];

/** The contract's exact list of accepted extensions. */
export const SUPPORTED_EXTENSIONS = [
  'pdf',
  'docx',
  'doc',
  'xlsx',
  'xls',
  'pptx',
  'ppt',
  'html',
  'htm',
  'txt',
  'rtf',
  'csv',
  'xml',
  'json',
  'md',
  'markdown',
  'epub',
  'odt',
  'ods',
  'odp',
  'jpg',
  'jpeg',
  'png',
  'wav',
  'mp3',
  'm4a',
] as const;
export type SupportedExtension = (typeof SUPPORTED_EXTENSIONS)[number];

export function isSupportedExtension(ext: string): ext is SupportedExtension {
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(ext.toLowerCase());
}

/**
 * The converter for what the bytes are (content, not extension): a .ppt that is really a PPTX
 * converts as PPTX; the name only says which text format a text file is.
 */
export async function converterForContent(input: Buffer, ext: string): Promise<Converter> {
  if (!isSupportedExtension(ext)) return converterFor(ext);
  return converterFor(await sniffFormat(input, ext));
}

export function converterFor(ext: string): Converter {
  const lower = ext.toLowerCase();
  const found = REGISTRY.find((line) => line.extensions.includes(lower));
  if (found) return found.load();
  if (isSupportedExtension(lower)) {
    throw new ConversionError('not_implemented', `Conversion of .${lower} files is not available yet.`);
  }
  throw new ConversionError('unsupported_format', `Files of type .${lower} are not supported.`);
}
