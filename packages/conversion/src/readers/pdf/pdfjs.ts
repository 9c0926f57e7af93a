export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfJsDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjs: Promise<PdfJs> | undefined;
let loadsHeld = false;
let requested = false;

/**
 * Thrown by loadPdfJs in a conversion worker that holds pdf.js's load (see holdPdfJsLoads): the task
 * is run again once pdf.js is loaded, outside the built-ins check.
 */
export class PdfJsNotLoaded extends Error {
  constructor() {
    super('pdf.js is loaded between tasks');
  }
}

/**
 * A conversion worker's built-ins guard must not see pdf.js install its polyfills during a task
 * (it would take them for pollution). Once this is called, a read that needs pdf.js before it is
 * loaded fails with PdfJsNotLoaded and the request is remembered: the worker checks the built-ins,
 * loads pdf.js, takes a new snapshot and runs the task again (conversion-task.ts).
 */
export function holdPdfJsLoads(): void {
  loadsHeld = true;
}

/** Whether a read asked for pdf.js while its load was held (and it is not loaded); clears the request. */
export function takePdfJsRequest(): boolean {
  const asked = requested && !pdfjs;
  requested = false;
  return asked;
}

/**
 * pdf.js ships as ES modules only; loaded once per worker thread, and only for files that need it
 * (forms, a page the content scanner leaves to it, right-to-left ligatures, the reason poppler
 * refused a file). Its worker module is loaded with it (it sets globalThis.pdfjsWorker, which
 * pdf.js's in-thread "fake worker" uses), so that both install their polyfills in this one step.
 * `force` is the worker's own load between tasks.
 */
export function loadPdfJs(force = false): Promise<PdfJs> {
  if (!pdfjs && loadsHeld && !force) {
    requested = true;
    return Promise.reject(new PdfJsNotLoaded());
  }
  if (!pdfjs) {
    const natives = HOT_NATIVES.map(
      ([target, key]) => [target, key, Reflect.getOwnPropertyDescriptor(target, key)] as const,
    );
    pdfjs = import('pdfjs-dist/legacy/build/pdf.worker.mjs')
      .then(() => import('pdfjs-dist/legacy/build/pdf.mjs'))
      .finally(() => {
        for (const [target, key, descriptor] of natives)
          if (descriptor) Reflect.defineProperty(target, key, descriptor);
      });
  }
  return pdfjs;
}

/**
 * Built-ins that pdf.js's legacy build replaces with core-js versions on Node 20 (for spec corners
 * no document reaches: a push past 2^32 - 1 elements, JSON.parse's source-text reviver), and that
 * every reader calls all the time: the polyfilled push alone was 5 % of a PDF conversion's CPU, in
 * our code as much as in pdf.js's. They are put back; what pdf.js adds (Promise.withResolvers, the
 * Set methods…) stays.
 */
const HOT_NATIVES: Array<[object, PropertyKey]> = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
];

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
