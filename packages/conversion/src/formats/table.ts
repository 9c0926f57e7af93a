import type { Converter } from '../types';
import { ConversionError } from '../types';
import { sniffFormat } from './sniff';

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
    load: () => (require('../readers/text') as typeof import('../readers/text')).plainTextConverter,
  },
  {
    extensions: ['md', 'markdown'],
    load: () => (require('../readers/markdown') as typeof import('../readers/markdown')).markdownConverter,
  },
  { extensions: ['csv'], load: () => (require('../readers/csv') as typeof import('../readers/csv')).csvConverter },
  {
    extensions: ['json'],
    load: () => (require('../readers/json') as typeof import('../readers/json')).jsonConverter,
  },
  { extensions: ['xml'], load: () => (require('../readers/xml') as typeof import('../readers/xml')).xmlConverter },
  {
    extensions: ['html', 'htm'],
    load: () => (require('../readers/html') as typeof import('../readers/html')).htmlConverter,
  },
  {
    extensions: ['docx'],
    load: () => (require('../readers/docx') as typeof import('../readers/docx')).docxConverter,
  },
  {
    extensions: ['xlsx', 'xls', 'ods'],
    load: () => (require('../readers/spreadsheet') as typeof import('../readers/spreadsheet')).spreadsheetConverter,
  },
  { extensions: ['pdf'], load: () => (require('../readers/pdf') as typeof import('../readers/pdf')).pdfConverter },
  {
    extensions: ['pptx'],
    load: () =>
      (require('../readers/pptx') as typeof import('../readers/pptx')).pptxConverter,
  },
  { extensions: ['odt'], load: () => (require('../readers/odf') as typeof import('../readers/odf')).odtConverter },
  { extensions: ['odp'], load: () => (require('../readers/odf') as typeof import('../readers/odf')).odpConverter },
  {
    extensions: ['epub'],
    load: () => (require('../readers/epub') as typeof import('../readers/epub')).epubConverter,
  },
  { extensions: ['rtf'], load: () => (require('../readers/rtf') as typeof import('../readers/rtf')).rtfConverter },
  {
    extensions: ['doc'],
    load: () => (require('../readers/legacy/doc') as typeof import('../readers/legacy/doc')).docConverter,
  },
  {
    extensions: ['ppt'],
    load: () => (require('../readers/legacy/ppt') as typeof import('../readers/legacy/ppt')).pptConverter,
  },
  {
    extensions: ['jpg', 'jpeg', 'png'],
    load: () => (require('../readers/image') as typeof import('../readers/image')).imageConverter,
  },
  {
    extensions: ['wav', 'mp3', 'm4a'],
    load: () => (require('../readers/audio') as typeof import('../readers/audio')).audioConverter,
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
