import type { Converter, ConversionOutput } from '../../types';
import { ConversionError } from '../../types';
import { renderMarkdown } from '../../markdown/writer';
import { buildLines, type Line, type TextItem } from './layout';
import { linesToBlocks, removeRunningLines } from './blocks';
import type { Block } from '../../markdown/model';
import { ocrPdfPages } from '../../ocr/scanned-pdf';
import { columnSections } from '../../ocr/layout';
import { pdfPictureText, picturePlaceholder } from '../../ocr/pictures';

/** Pages read at most; a longer PDF fails with a message saying so. */
export const MAX_PDF_PAGES = 2000;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
/** pdf.js ships as ES modules only; loaded once per worker thread. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/**
 * PDF text layer: pdf.js gives positioned text; lines are rebuilt, running headers and footers
 * dropped, headings found by font size, lists by markers, tables by aligned columns, and
 * paragraphs re-joined across line breaks and hyphenation.
 */
export const pdfConverter: Converter = {
  name: 'pdf',
  extensions: ['pdf'],
  async convert(input, options): Promise<ConversionOutput> {
    const lib = await loadPdfJs();
    let doc: Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
    try {
      doc = await lib.getDocument({
        data: new Uint8Array(input),
        isEvalSupported: false,
        disableFontFace: true,
        useSystemFonts: false,
        stopAtErrors: false,
        verbosity: 0,
      }).promise;
    } catch (err) {
      const e = err as Error;
      if (e.name === 'PasswordException') {
        throw new ConversionError(
          'encrypted_file',
          'The PDF is password-protected; remove the password and try again.',
        );
      }
      throw new ConversionError('corrupt_file', `The PDF could not be read: ${e.message}`);
    }
    try {
      if (doc.numPages > MAX_PDF_PAGES) {
        throw new ConversionError(
          'too_large',
          `The PDF has ${doc.numPages} pages; at most ${MAX_PDF_PAGES} can be converted.`,
        );
      }
      const pages: Line[][] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        const fonts = await fontNames(page, content.items);
        const items: TextItem[] = [];
        for (const raw of content.items) {
          if (!('str' in raw)) continue;
          const [a, b, , d, e, f] = raw.transform as number[];
          const size = Math.hypot(a!, b!) || Math.abs(d!) || raw.height;
          const fontName = fonts.get(raw.fontName) ?? '';
          items.push({
            text: raw.str,
            x: e!,
            y: f!,
            width: raw.width,
            size,
            bold: /bold|black|heavy|semibold/i.test(fontName),
            rtl: (raw as { dir?: string }).dir === 'rtl',
          });
        }
        const height = page.view[3]! - page.view[1]!;
        // Enhanced mode: pages set in columns are read column by column, whatever order the file draws them in.
        pages.push(buildLines(options.enhanced ? columnOrder(items, height) : items, n, height));
        page.cleanup();
      }
      const cleaned = removeRunningLines(pages);
      const scanned = pages.map((lines, i) => (lines.length === 0 ? i + 1 : 0)).filter((n) => n > 0);
      const ocr = scanned.length ? await ocrPdfPages(input, scanned, options.enhanced) : new Map<number, Block[]>();
      // Enhanced mode also reads the text inside pictures on pages that have a text layer.
      const textPages = pages.map((lines, i) => (lines.length ? i + 1 : 0)).filter((n) => n > 0);
      const pictures = options.enhanced ? await pdfPictureText(input, textPages) : new Map<number, string[]>();
      const { info } = (await doc.getMetadata().catch(() => ({ info: {} }))) as { info: Record<string, unknown> };
      return {
        markdown: renderMarkdown(pageBlocks(cleaned, ocr, pictures)),
        metadata: {
          title: typeof info.Title === 'string' ? info.Title : '',
          author: typeof info.Author === 'string' ? info.Author : '',
          page_count: doc.numPages,
        },
      };
    } finally {
      await doc.destroy();
    }
  },
};

/** The page's text items in reading order when they are set in 2+ columns; as drawn otherwise. */
function columnOrder(items: TextItem[], pageHeight: number): TextItem[] {
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

/** Real font names (e.g. "Arial-BoldMT") for the text's fonts, which pdf.js resolves while building the operator list. */
async function fontNames(
  page: { getOperatorList(): Promise<unknown>; commonObjs: { get(id: string): unknown } },
  items: ReadonlyArray<object>,
): Promise<Map<string, string>> {
  const ids = new Set(items.map((i) => (i as { fontName?: string }).fontName).filter((n): n is string => !!n));
  const names = new Map<string, string>();
  // The operator list decodes the page's images too: a scanned page (no text) doesn't need it.
  if (!ids.size) return names;
  try {
    await page.getOperatorList();
  } catch {
    return names;
  }
  for (const id of ids) {
    try {
      const font = page.commonObjs.get(id) as { name?: string; bold?: boolean; black?: boolean } | undefined;
      names.set(id, `${font?.name ?? ''}${font?.bold || font?.black ? ' bold' : ''}`);
    } catch {
      names.set(id, '');
    }
  }
  return names;
}

/**
 * Text-layer pages become blocks together (paragraphs may span pages); scanned pages contribute
 * their OCR blocks in place, and pictures read in enhanced mode follow their page's text.
 */
function pageBlocks(pages: Line[][], ocr: Map<number, Block[]>, pictures: Map<number, string[]>): Block[] {
  const blocks: Block[] = [];
  let run: Line[] = [];
  let waiting: string[] = [];
  const waitingBlocks = (): Block[] => {
    const out = waiting.map((text): Block => ({ type: 'paragraph', text: picturePlaceholder('image', text) }));
    waiting = [];
    return out;
  };
  pages.forEach((lines, i) => {
    const recognised = ocr.get(i + 1);
    if (!recognised) {
      run.push(...lines);
      waiting.push(...(pictures.get(i + 1) ?? []));
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
    blocks.push(...recognised);
  });
  blocks.push(...linesToBlocks(run), ...waitingBlocks());
  return blocks;
}
