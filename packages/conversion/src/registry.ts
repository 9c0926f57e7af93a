import type { Converter } from './types';
import { ConversionError } from './types';
import { plainTextConverter } from './converters/text';
import { csvConverter } from './converters/csv';
import { jsonConverter } from './converters/json';
import { xmlConverter } from './converters/xml';
import { htmlConverter } from './converters/html';
import { docxConverter } from './converters/docx';
import { spreadsheetConverter } from './converters/spreadsheet';
import { pdfConverter } from './converters/pdf';
import { pptxConverter } from './converters/presentation/pptx';
import { odpConverter, odtConverter } from './converters/odf';
import { epubConverter } from './converters/epub';
import { rtfConverter } from './converters/rtf';
import { docConverter } from './converters/legacy/doc';
import { pptConverter } from './converters/legacy/ppt';
import { imageConverter } from './converters/media/image';
import { audioConverter } from './converters/media/audio';
import { sniffFormat } from './format-sniffing';

/** Every converter, one line each. A new format is one file plus one line here. */
const converters: Converter[] = [
  plainTextConverter,
  csvConverter,
  jsonConverter,
  xmlConverter,
  htmlConverter,
  docxConverter,
  spreadsheetConverter,
  pdfConverter,
  pptxConverter,
  odtConverter,
  odpConverter,
  epubConverter,
  rtfConverter,
  docConverter,
  pptConverter,
  imageConverter,
  audioConverter,
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
  const found = converters.find((c) => c.extensions.includes(lower));
  if (found) return found;
  if (isSupportedExtension(lower)) {
    throw new ConversionError('not_implemented', `Conversion of .${lower} files is not available yet.`);
  }
  throw new ConversionError('unsupported_format', `Files of type .${lower} are not supported.`);
}
