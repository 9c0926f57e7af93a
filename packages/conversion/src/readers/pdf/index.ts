import type { Reader, ReadResult } from '../reader';
import type { ConvertOptions } from '../../types';
import { ConversionError } from '../../types';
import { buildLines, linesWithGaps, type Line, type TextItem } from './layout';
import { MAX_PDF_PAGES, readPages, readPageSpans, type PopplerPage } from './poppler';
import { noPageSelected, selectedSpans } from '../../page-range';
import { documentInfo, openPdf, PdfJsNotLoaded, type PdfInfo, type PdfJsDocument } from './pdfjs';
import { pageRules } from './rulings';
import { contentRules, type ContentRules } from './content-rules';
import { openEagerObjects, openLazyObjects } from './objects';
import { ruledTables, type RuledTable } from './ruled-tables';
import { withFormValues } from './form-fields';
import { ligatureSpellings, withLigaturesInOrder } from './rtl-ligatures';
import { xfaBlocks } from './xfa-form';
import { readsAsGarbage } from './text-quality';
import { drawnInStandardFonts } from './standard-fonts';
import { drawsOnlyStrokes } from './line-art';
import { linesToBlocks, removeRunningLines } from './blocks';
import { joinTablesOverPages } from './tables-over-pages';
import { quarterTurnOf, turnedItems, turnedRules } from './turned-pages';
import type { Block } from '../../document/model';
// OCR (its engine loads sharp) is loaded by the reads that need it: most PDFs have a text layer. require(), as the
// format table does, loads a module the same way under tsx, jest and the bundle.
/* eslint-disable @typescript-eslint/no-require-imports */
type OcrLayout = typeof import('../shared/ocr/layout');
const ocrLayout = (): OcrLayout => require('../shared/ocr/layout') as OcrLayout;
const scannedPdf = () => require('../shared/ocr/scanned-pdf') as typeof import('../shared/ocr/scanned-pdf');
const wordBoxes = () => require('../shared/ocr/word-boxes') as typeof import('../shared/ocr/word-boxes');
const pictures = () => require('../shared/ocr/pictures') as typeof import('../shared/ocr/pictures');
const glyphOrder = () => require('./glyph-order') as typeof import('./glyph-order');
/* eslint-enable @typescript-eslint/no-require-imports */

export { MAX_PDF_PAGES } from './poppler';

/**
 * PDF text layer: poppler gives positioned text with font sizes and weights (pdf.js only names what is
 * wrong with a file poppler refuses); lines are rebuilt, running headers and footers
 * dropped, headings found by font size, lists by markers, tables by aligned columns, and
 * paragraphs re-joined across line breaks and hyphenation.
 */
export const pdfReader: Reader = {
  name: 'pdf',
  read: (input, options) => readPdf(input, options, false),
};

/** The PDF read; `glyphOrderRead`: its fonts without a Unicode map were given one by their glyph order (glyph-order.ts). */
async function readPdf(input: Buffer, options: ConvertOptions, glyphOrderRead: boolean): Promise<ReadResult> {
  // pdftohtml reads the pages in its own process while the trailer and catalog are read here (title, author, page count, form).
  // With a page range (E2) it is asked for the selected spans only; spans past the end are judged once the count is known.
  const stop = new AbortController();
  const range = options.pageRange;
  const reading = range
    ? readPageSpans(input, range, stop.signal)
    : readPages(input, 1, MAX_PDF_PAGES + 1, stop.signal).then(
        (pages) => ({ pages, failed: [] as number[] }),
        () => undefined,
      );
  // pdf.js, opened when a file needs it; a worker that has not loaded it yet runs the task again once it has.
  let opened: Promise<PdfJsOpened> | undefined;
  const pdfJs = (): Promise<PdfJsOpened> =>
    (opened ??= openPdf(input).then(
      (doc): PdfJsOpened => ({ doc }),
      (error: unknown): PdfJsOpened => {
        if (error instanceof PdfJsNotLoaded) throw error;
        return { error };
      },
    ));
  try {
    // The object layer read through the cross-reference table: only the objects asked for are parsed.
    const lazy = await openLazyObjects(input);
    let info: PdfInfo | undefined;
    let doc: PdfJsDocument | undefined;
    if (lazy && !lazy.acroForm) {
      info = { title: lazy.title, author: lazy.author, pages: lazy.pageCount, form: false };
    } else {
      // Forms, and files the lazy reader doubts: pdf.js reads the document info, as it reads the form.
      doc = (await pdfJs()).doc;
      info = doc ? await documentInfo(doc).catch(() => undefined) : undefined;
    }
    // The page limit is on pages read: a range may select a few pages of a longer file.
    if (info && info.pages > MAX_PDF_PAGES && !range) stop.abort();
    const read = await reading;
    let poppler: PopplerPage[] | undefined = read?.pages;
    if (range && info?.pages) {
      if (!selectedSpans(range, info.pages).length) throw noPageSelected(info.pages);
      // A span that starts within the file and still failed is poppler refusing the file.
      if (read!.failed.some((from) => from <= info.pages)) poppler = undefined;
    } else if (range && read!.failed.length) poppler = undefined;
    const pageCount = info?.pages || (range ? 0 : poppler?.length) || 0;
    if ((range ? (poppler?.length ?? 0) : pageCount) > MAX_PDF_PAGES) {
      throw new ConversionError(
        'too_large',
        `The PDF has ${info?.pages || `more than ${MAX_PDF_PAGES}`} pages; at most ${MAX_PDF_PAGES} can be converted.`,
      );
    }
    const metadata = { title: info?.title ?? '', author: info?.author ?? '', page_count: pageCount };
    // An XFA-only form: its pages are a placeholder, the form and its values are in the XFA.
    if (doc?.isPureXfa) return { blocks: xfaBlocks(doc.allXfaHtml), metadata };
    // poppler refused the file: pdf.js says why (password, damage) in the words users get.
    if (!poppler) return failWithReason((await pdfJs()).error);
    if (range && !poppler.length) throw noPageSelected(pageCount);
    const pages: Line[][] = [];
    const numbers = poppler.map((p) => p.number);
    const sizes = poppler.map((p) => ({ number: p.number, width: p.width, height: p.height }));
    const layout = options.enhanced ? ocrLayout() : undefined;
    // Drawn rules: the content scanner reads most files' pages; pdf.js's operator list serves the pages it leaves.
    // Files read by pdf.js from the start have their objects parsed by pdf-lib whole, on their first tabular page.
    let scanner: Promise<ContentRules | undefined> | undefined;
    const rulesPages = doc ? doc.numPages : lazy?.pageCount;
    for (const page of poppler) {
      // A page set a quarter turn (a landscape table on a portrait page) is read turned upright.
      const turn = quarterTurnOf(page.items);
      const height = turn ? page.width : page.height;
      let items = turn ? turnedItems(page.items, turn, page) : page.items;
      // pdf.js adds what poppler's text output lacks: form field values and drawn rules (when it could open the file).
      if (doc && info?.form) items = await withFormValues(doc, page.number, items, typicalSize(items));
      // Right-to-left ligatures are told from letter pairs by pdf.js's glyphs; a page pdf.js can't parse keeps poppler's spelling.
      if (items.some((i) => i.rtl)) {
        const ligatures = doc ?? (lazy && (await pdfJs()).doc);
        if (ligatures) {
          const spellings = await ligatureSpellings(ligatures, page.number).catch((error: unknown) => {
            if (error instanceof PdfJsNotLoaded) throw error;
            return new Map<string, string>();
          });
          items = withLigaturesInOrder(items, spellings);
        }
      }
      // Enhanced mode: pages set in columns are read column by column, whatever order the file draws them in.
      const inOrder = (list: TextItem[]): TextItem[] => (layout ? columnOrder(layout, list, height) : list);
      const ordered = inOrder(items);
      let lines: Line[] | undefined;
      if ((doc || lazy) && linesWithGaps(ordered, MIN_TABULAR_LINES) >= MIN_TABULAR_LINES) {
        scanner ??= lazy
          ? Promise.resolve(contentRules(lazy))
          : openEagerObjects(input).then((o) => o && contentRules(o));
        const scanned = await scanner;
        let rules = scanned && scanned.pageCount === rulesPages ? scanned.pageRules(page.number) : undefined;
        if (!rules) {
          const rulesDoc = doc ?? (await pdfJs()).doc;
          rules = rulesDoc ? await pageRules(rulesDoc, page.number) : [];
        }
        const { tables, rest } = ruledTables(turn ? turnedRules(rules, turn, page) : rules, items);
        // The lines are built once: from the text the tables leave, or from all of it.
        if (tables.length)
          lines = withTables(buildLines(inOrder(rest), page.number, height), tables, page.number, height);
      }
      pages.push(lines ?? buildLines(ordered, page.number, height));
    }
    await closePdfJs(opened);
    opened = undefined;
    const cleaned = removeRunningLines(pages);
    // Pages without text, and pages whose text layer reads as garbage, are read from their image; not text drawn in
    // the standard fonts without embedding them (a character table, letters set at an angle), which is what the page shows.
    const garbled = new Set(
      numbers.filter(
        (n, i) => pages[i]!.length > 0 && readsAsGarbage(pages[i]!) && !(lazy && drawnInStandardFonts(lazy, n)),
      ),
    );
    // Garbage from fonts without a Unicode map whose glyphs are in the standard order is read again with one (OCR costs seconds a page).
    if (garbled.size && !glyphOrderRead) {
      const mapped = await glyphOrder().withGlyphOrderUnicode(input);
      if (mapped) return await readPdf(Buffer.from(mapped), options, true);
    }
    // A page without text that draws only stroked lines (a grid, a line drawing) has no letters for OCR to find.
    const scanned = numbers.filter(
      (n, i) => (pages[i]!.length === 0 && !(lazy && drawsOnlyStrokes(lazy, n))) || garbled.has(n),
    );
    let ocr = new Map<number, Block[]>();
    if (scanned.length) {
      const [{ ocrPdfPages }, { ocrBlocks }, { withWordBoxes }] = [scannedPdf(), ocrLayout(), wordBoxes()];
      ocr = await ocrPdfPages(
        input,
        scanned,
        async (page, number) => {
          // Word boxes from the rendered page's pixels to the page's points (E4).
          const size = sizes.find((p) => p.number === number)!;
          const blocks = await ocrBlocks(page, options.enhanced);
          return withWordBoxes(blocks, page.words, size.width / page.image.width, size.height / page.image.height);
        },
        sizes,
      );
    }
    // Enhanced mode also reads the text inside pictures on pages that have a text layer.
    const textPages = numbers.filter((n) => !scanned.includes(n));
    const pictureText = options.enhanced
      ? await pictures().pdfPictureText(input, textPages)
      : new Map<number, string[]>();
    const blocks = pageBlocks(cleaned, numbers, ocr, pictureText, !!options.pageAnchored);
    return { blocks, metadata, pages: numbers, pageSizes: sizes };
  } finally {
    // A read that ends early (pdf.js to be loaded first, a refused range) leaves no child working.
    stop.abort();
    await closePdfJs(opened);
  }
}

/** pdf.js's document, or why it could not open the file. */
interface PdfJsOpened {
  doc?: PdfJsDocument;
  error?: unknown;
}

/** Frees pdf.js's document, if one was opened. */
async function closePdfJs(opened: Promise<{ doc?: PdfJsDocument }> | undefined): Promise<void> {
  const doc = await opened?.then((o) => o.doc).catch(() => undefined);
  await doc?.destroy();
}

/** Pages with fewer lines split by gaps wider than a word space are not looked at for drawn tables (their rules cost pdf.js a page parse). */
const MIN_TABULAR_LINES = 2;

/** The most common text size on a page, for form values placed among its text. */
function typicalSize(items: TextItem[]): number {
  const weight = new Map<number, number>();
  for (const i of items) weight.set(i.size, (weight.get(i.size) ?? 0) + i.text.length);
  return [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
}

/**
 * The page's lines with each ruled table standing before the first line below its top edge: a line whose
 * middle is below it (a heading set just above a table dips under its top rule with its descenders). The page's
 * lowest line drawn before any line above the table, when the next line climbs back over the table, is passed by:
 * a footer drawn before the page's text (ReportLab's page templates draw it first), not the text after the table.
 */
function withTables(lines: Line[], tables: RuledTable[], page: number, pageHeight: number): Line[] {
  const out = [...lines];
  for (const t of tables) {
    let at = -1;
    let above = false;
    for (let i = 0; i < out.length && at < 0; i++) {
      if (out[i]!.table) continue;
      if (!below(out[i]!, t.top)) above = true;
      else if (above || !drawnBeforeText(out, i, t)) at = i;
    }
    const line: Line = {
      text: '',
      runs: [],
      x: 0,
      y: t.top,
      depth: 0,
      right: 0,
      size: 0,
      bold: false,
      font: '',
      cells: [],
      gaps: 0,
      narrowGaps: undefined,
      page,
      pageHeight,
      table: t.rows,
      tableBox:
        t.left !== undefined && t.right !== undefined
          ? [t.left, pageHeight - t.top, t.right, pageHeight - t.bottom]
          : undefined,
      rtl: undefined,
      marker: undefined,
    };
    out.splice(at < 0 ? out.length : at, 0, line);
  }
  return out;
}

function below(line: Line, top: number): boolean {
  return line.y + line.size / 2 < top;
}

/** Whether the line below a table is the page's lowest and the next line of text is above the table. */
function drawnBeforeText(lines: Line[], i: number, t: RuledTable): boolean {
  const line = lines[i]!;
  const next = lines.slice(i + 1).find((l) => !l.table);
  return !!next && !below(next, t.top) && lines.every((l) => l.table || l.y >= line.y);
}

/** pdf.js's errors for an Encrypt dictionary of another security handler than the Standard one, or a version it lacks. */
const OTHER_SECURITY_HANDLER = /^(unknown encryption method|unsupported encryption algorithm)$/;

/** Names what is wrong with a file poppler refuses, from pdf.js's own error (poppler's messages are not for users). */
function failWithReason(error: unknown): never {
  if (!error) throw new ConversionError('corrupt_file', 'The PDF could not be read: its pages could not be parsed.');
  const e = error as Error;
  if (e.name === 'PasswordException') {
    throw new ConversionError('encrypted_file', 'The PDF is password-protected; remove the password and try again.');
  }
  // pdf.js reads the Standard (password) security handler only: others are certificates (Adobe.PubSec) or DRM plug-ins.
  if (OTHER_SECURITY_HANDLER.test(e.message)) {
    throw new ConversionError(
      'encrypted_file',
      'The PDF is encrypted for certain recipients (with certificates or a DRM plug-in, not a password); it cannot be opened without their key.',
    );
  }
  throw new ConversionError('corrupt_file', `The PDF could not be read: ${e.message}`);
}

/** The page's text items in reading order when they are set in 2+ columns; as drawn otherwise. */
function columnOrder({ columnSections }: OcrLayout, items: TextItem[], pageHeight: number): TextItem[] {
  const boxes = items
    .filter((item) => item.text.trim())
    .map((item) => ({
      text: item.text,
      x0: item.x,
      x1: item.x + item.width,
      y0: pageHeight - item.y - item.size,
      y1: pageHeight - item.y,
      item,
    }));
  const sections = columnSections(boxes);
  return sections ? sections.flatMap((lines) => lines.flatMap((line) => line.map((b) => b.item))) : items;
}

/**
 * Text-layer pages become blocks together (paragraphs may span pages); scanned pages contribute
 * their OCR blocks in place, and pictures read in enhanced mode follow their page's text.
 */
function pageBlocks(
  pages: Line[][],
  numbers: number[],
  ocr: Map<number, Block[]>,
  pictures: Map<number, string[]>,
  pageAnchored: boolean,
): Block[] {
  const blocks: Block[] = [];
  let run: Line[] = [];
  let waiting: { text: string; page: number }[] = [];
  const waitingBlocks = (): Block[] => {
    const out = waiting.map((text): Block => ({
      type: 'paragraph',
      text: [{ type: 'image', alt: `image: ${text.text}` }],
      page: text.page,
    }));
    waiting = [];
    return out;
  };
  pages.forEach((lines, i) => {
    const number = numbers[i]!;
    const recognised = ocr.get(number);
    if (!recognised) {
      // Pages asked for (E1, E3): every block on one page, a paragraph is not carried over the break.
      if (pageAnchored && run.length) {
        blocks.push(...linesToBlocks(run), ...waitingBlocks());
        run = [];
      }
      run.push(...lines);
      waiting.push(...(pictures.get(number) ?? []).map((text) => ({ text, page: number })));
      // Pictures follow the paragraph in progress at their page's end, not cut it in two.
      const last = lines[lines.length - 1];
      if (waiting.length && (!last || /[.!?:;)]$/.test(last.text))) {
        blocks.push(...linesToBlocks(run), ...waitingBlocks());
        run = [];
      }
      return;
    }
    blocks.push(...linesToBlocks(run), ...waitingBlocks());
    run = [];
    for (const block of recognised) blocks.push({ ...block, page: number });
  });
  blocks.push(...linesToBlocks(run), ...waitingBlocks());
  return pageAnchored ? blocks : joinTablesOverPages(blocks);
}
