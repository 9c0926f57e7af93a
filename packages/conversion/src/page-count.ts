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
 * and the document is converted whole. The page tree's count is read from the file's bytes when
 * its catalog and page tree are plain objects (`plainPdfPageCount`), else poppler's pdfinfo
 * counts them (a child process: 15-50 ms of the converter's time on a 400-page file).
 */
export async function countPages(input: Buffer, extension: string): Promise<number | undefined> {
  if (extension.toLowerCase() !== 'pdf') return undefined;
  return plainPdfPageCount(input) ?? pdfPageCount(input);
}

/** Dictionaries of a catalog or a page tree root are short; a longer span is not one of them. */
const MAX_DICT_BYTES = 64 * 1024;

/**
 * The /Count of the page tree the newest trailer's /Root points at, when the catalog and the
 * tree's root are plain (uncompressed) objects, as PDF writers without object streams leave
 * them; undefined whenever anything is not as expected (objects in object streams, an odd
 * layout, no count), so the caller asks poppler. Incremental updates append newer versions of an
 * object and a newer trailer: the last of each in the file is the one in force.
 */
export function plainPdfPageCount(input: Buffer): number | undefined {
  const root = lastReference(input, '/Root');
  if (!root) return undefined;
  const catalog = objectBody(input, root);
  if (catalog === undefined || !/\/Type\s*\/Catalog\b/.test(catalog)) return undefined;
  const pagesRef = /\/Pages\s+(\d+)\s+(\d+)\s+R\b/.exec(catalog);
  if (!pagesRef) return undefined;
  const tree = objectBody(input, `${pagesRef[1]} ${pagesRef[2]}`);
  if (tree === undefined || !/\/Type\s*\/Pages\b/.test(tree) || /\/Parent\b/.test(tree)) return undefined;
  const counts = [...tree.matchAll(/\/Count\s+(\d+)\b/g)];
  if (counts.length !== 1) return undefined;
  const count = Number(counts[0]![1]);
  return count > 0 ? count : undefined;
}

/** The "N G" of the last `<key> N G R` in the file (trailer or cross-reference stream dictionary). */
function lastReference(input: Buffer, key: string): string | undefined {
  for (let at = input.lastIndexOf(key); at >= 0; at = at > 0 ? input.lastIndexOf(key, at - 1) : -1) {
    const m = /^\/Root\s*(\d+)\s+(\d+)\s+R\b/.exec(input.toString('latin1', at, at + 40));
    if (m) return `${m[1]} ${m[2]}`;
  }
  return undefined;
}

/** The text between `N G obj` (its last definition in the file) and its `endobj`; undefined if not plain. */
function objectBody(input: Buffer, ref: string): string | undefined {
  const head = `${ref} obj`;
  for (let at = input.lastIndexOf(head); at >= 0; at = at > 0 ? input.lastIndexOf(head, at - 1) : -1) {
    // "12 0 obj" inside "112 0 obj" is not the object.
    if (at > 0 && !isWhitespace(input[at - 1]!)) continue;
    const start = at + head.length;
    const end = input.indexOf('endobj', start);
    if (end < 0 || end - start > MAX_DICT_BYTES) return undefined;
    const body = input.toString('latin1', start, end);
    return /\bstream\b/.test(body) ? undefined : body;
  }
  return undefined;
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
}
