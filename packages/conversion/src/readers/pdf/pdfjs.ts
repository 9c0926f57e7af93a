export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfJsDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjs: Promise<PdfJs> | undefined;
/**
 * pdf.js ships as ES modules only; loaded once per worker thread, and only for files that need it.
 * Its worker module is loaded with it (it sets globalThis.pdfjsWorker, which pdf.js's in-thread
 * "fake worker" uses), so that both install their polyfills in this one step.
 */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.worker.mjs').then(() => import('pdfjs-dist/legacy/build/pdf.mjs'));
  return pdfjs;
}

/** Opens a PDF with pdf.js (no fonts rendered, no eval); throws pdf.js's own error. */
export async function openPdf(input: Buffer): Promise<PdfJsDocument> {
  const lib = await loadPdfJs();
  return lib.getDocument({
    data: new Uint8Array(input),
    isEvalSupported: false,
    // Forms that exist only as XFA are laid out with their data (other files are read as without it).
    enableXfa: true,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  }).promise;
}

export interface PdfInfo {
  title: string;
  author: string;
  pages: number;
  /** The file has an AcroForm or XFA form whose field values may not be drawn on the page. */
  form: boolean;
}

/** The info dictionary, page count and form flags: pdf.js reads them from the trailer and catalog, no page is parsed. */
export async function documentInfo(doc: PdfJsDocument): Promise<PdfInfo> {
  const info = (await doc.getMetadata()).info as Record<string, unknown>;
  const field = (name: string): string => (typeof info[name] === 'string' ? info[name].trim() : '');
  return {
    title: field('Title'),
    author: field('Author'),
    pages: doc.numPages,
    form: info.IsAcroFormPresent === true || info.IsXFAPresent === true,
  };
}
