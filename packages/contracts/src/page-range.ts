/**
 * The `page_range` grammar (E2) and the E1–E4 bounds: plain functions, no zod, so the conversion
 * library and its CLI load them without loading the schemas (structure.ts re-exports them).
 */

/** The largest page number `page_range` accepts (E2). */
export const PAGE_RANGE_MAX_PAGE = 100000;
/** `chunk_max_tokens` bounds (E3). */
export const CHUNK_MAX_TOKENS_MIN = 64;
export const CHUNK_MAX_TOKENS_MAX = 8192;

/** Selected pages: ascending, non-overlapping inclusive spans, 1-based. `[[1, 3], [7, 7]]` for "1-3,7". */
export type PageRange = ReadonlyArray<readonly [number, number]>;

/**
 * Parses `page_range` (E2): "N", "N-M" or a comma-separated list of those, 1-based, ascending,
 * not overlapping, numbers ≤ 100000. Returns the spans, or null when the text breaks the grammar.
 */
export function parsePageRange(text: string): PageRange | null {
  const parts = text.trim().split(',');
  const spans: Array<readonly [number, number]> = [];
  for (const part of parts) {
    const m = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(part);
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from || to > PAGE_RANGE_MAX_PAGE) return null;
    const previous = spans[spans.length - 1];
    if (previous && from <= previous[1]) return null;
    spans.push([from, to]);
  }
  return spans.length ? spans : null;
}

/** Whether page `n` (1-based) is selected; every page is when there is no range. */
export function pageSelected(range: PageRange | undefined, n: number): boolean {
  return !range || range.some(([from, to]) => n >= from && n <= to);
}

/** The selected pages that exist in a file of `pageCount` pages, ascending (E2: a range past the end selects what exists). */
export function selectedPages(range: PageRange | undefined, pageCount: number): number[] {
  const pages: number[] = [];
  for (let n = 1; n <= pageCount; n++) if (pageSelected(range, n)) pages.push(n);
  return pages;
}

/** `page_range` as written back (canonical form): "1-3,7". */
export function formatPageRange(range: PageRange): string {
  return range.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)).join(',');
}
