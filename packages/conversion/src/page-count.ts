import { openLazyObjects } from './readers/pdf/objects';
import { pdfPageCount } from './readers/pdf/poppler';

/**
 * The most pages the PDF reader reads (readers/pdf's MAX_PDF_PAGES; a test keeps them equal),
 * here without loading the reader: requiring it took the converter's main thread 140 ms on its
 * first long PDF, only to read this number.
 */
export const PDF_PAGE_LIMIT = 2000;

/**
 * How many pages a file has, where that can be known cheaply before reading it: PDFs only for
 * now. Used to split long documents into page ranges (issue 22); undefined means "don't know",
 * and the document is converted whole. The page tree's count comes from the PDF reader's lazy
 * object reader (readers/pdf/objects.ts: the cross-reference table and the few objects down to
 * the last page, the count pdf.js and the reader will see), else poppler's pdfinfo counts them (a
 * child process: 15-50 ms of the converter's time on a 400-page file), for files that reader
 * declines (damaged tables, encryption).
 */
export async function countPages(input: Buffer, extension: string): Promise<number | undefined> {
  if (extension.toLowerCase() !== 'pdf') return undefined;
  return (await openLazyObjects(input))?.pageCount ?? pdfPageCount(input);
}
