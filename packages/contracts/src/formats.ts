/**
 * The formats the API accepts: extensions in the contract's order and their MIME types. Derived
 * from the conversion library's format table (packages/conversion/src/formats/table.ts, the one
 * place a format is registered) and kept here so that the gateway checks an upload's name without
 * loading the library; packages/conversion/test/formats-table.test.ts fails when the two differ.
 */
export const FORMAT_MIME_TYPES = {
  pdf: ['application/pdf'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  doc: ['application/msword'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  xls: ['application/vnd.ms-excel'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  ppt: ['application/vnd.ms-powerpoint'],
  html: ['text/html'],
  htm: ['text/html'],
  txt: ['text/plain'],
  rtf: ['application/rtf', 'text/rtf'],
  csv: ['text/csv'],
  xml: ['application/xml', 'text/xml'],
  json: ['application/json'],
  md: ['text/markdown'],
  markdown: ['text/markdown'],
  epub: ['application/epub+zip'],
  odt: ['application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.text-template'],
  ods: ['application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.spreadsheet-template'],
  odp: ['application/vnd.oasis.opendocument.presentation', 'application/vnd.oasis.opendocument.presentation-template'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
  wav: ['audio/wav', 'audio/x-wav'],
  mp3: ['audio/mpeg'],
  m4a: ['audio/mp4', 'audio/x-m4a'],
} as const satisfies Record<string, readonly string[]>;

export type SupportedExtension = keyof typeof FORMAT_MIME_TYPES;

/** The contract's exact list of accepted extensions, in its order (messages list them so). */
export const SUPPORTED_EXTENSIONS = Object.keys(FORMAT_MIME_TYPES) as SupportedExtension[];

export function isSupportedExtension(ext: string): ext is SupportedExtension {
  return Object.hasOwn(FORMAT_MIME_TYPES, ext.toLowerCase());
}
