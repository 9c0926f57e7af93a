import type { PageRange } from '@markwright/contracts/src/structure';
import { ConversionError } from './types';

/** The spans of a page range cut to the file's pages (E2: a span past the end selects what exists). */
export function selectedSpans(range: PageRange, pageCount: number): Array<[number, number]> {
  return range
    .filter(([from]) => from <= pageCount)
    .map(([from, to]): [number, number] => [from, Math.min(to, pageCount)]);
}

/** E2: a range that selects no existing page fails the conversion, naming the file's page count. */
export function noPageSelected(pageCount: number): ConversionError {
  return new ConversionError(
    'no_pages_selected',
    `The page range selects no page: the file has ${pageCount} page${pageCount === 1 ? '' : 's'}.`,
  );
}

export { pageSelected, selectedPages } from '@markwright/contracts/src/page-range';
