import { pdfPageCount } from './readers/pdf/poppler';

/**
 * How many pages a file has, where that can be known cheaply before reading it: PDFs only for
 * now (poppler's page tree). Used to split long documents into page ranges (issue 22); undefined
 * means "don't know", and the document is converted whole.
 */
export async function countPages(input: Buffer, extension: string): Promise<number | undefined> {
  if (extension.toLowerCase() !== 'pdf') return undefined;
  return pdfPageCount(input);
}
