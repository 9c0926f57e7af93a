import type { PartRange } from '@markwright/db';
import { type DocumentMetadata, joinWrittenParts, type ReadResult, type WrittenBlocks } from '@markwright/conversion';
import type { SplitsInHand } from './splits-in-hand';

/**
 * Long documents split across converters (issue 22): the plan of page ranges and the merge of
 * their models. The jobs themselves run in run-conversion.ts.
 */

/** Where a long document's ranges go: any converter's jobs queue. */
export interface SplitDeps {
  /** A PDF of more pages than this is split (SPLIT_PAGES); no range is much shorter (see `planRanges`). */
  pages: number;
  /** Conversion slots of every converter taking jobs now (converters × CONVERTER_CONCURRENCY). */
  slots: () => Promise<number>;
  /** Publishes one range as a job (confirmed by the broker before it resolves). */
  publish: (conversionId: string, part: PartRange) => Promise<void>;
  /** The uploads and range readings this converter holds, so its range jobs need not read them back. */
  inHand: SplitsInHand;
}

/**
 * Pages a range has at most, whatever the slots: two ranges read at once by one converter hold
 * the whole file's parse twice plus their pages; on a 2,000-page PDF the worker threads peaked at
 * 545 MB RSS with ranges of 1,000 pages, 466 MB with ranges of 500 (and 394 MB with 64).
 */
export const MAX_RANGE_PAGES = 500;

/**
 * The ranges of a long document: as many as there are conversion slots to read them at once
 * (at least 2, and more when ranges would exceed MAX_RANGE_PAGES), never more than
 * ceil(pages / SPLIT_PAGES), in near-equal consecutive spans. Each range pays the file's fixed
 * costs again (every reader parses the whole file to reach its pages, and its own worker task),
 * so fewer, larger ranges finish sooner as long as every slot has one; a single slot still gets
 * 2, so a killed converter loses half the work, not all of it, and a converter started meanwhile
 * can take the second.
 */
export function planRanges(pageCount: number, splitPages: number, slots: number): PartRange[] {
  const most = Math.ceil(pageCount / Math.max(1, splitPages));
  const wanted = Math.max(2, Math.floor(slots), Math.ceil(pageCount / MAX_RANGE_PAGES));
  const count = Math.max(1, Math.min(most, wanted));
  const ranges: PartRange[] = [];
  for (let i = 0, first = 1; i < count; i++) {
    // The first (pageCount % count) ranges are one page longer.
    const size = Math.floor(pageCount / count) + (i < pageCount % count ? 1 : 0);
    ranges.push({ firstPage: first, lastPage: first + size - 1 });
    first += size;
  }
  return ranges;
}

/**
 * Whether a claimed job is split: a PDF, read locally (enhanced mode's model pass wants the whole
 * text), over the limit, and within the pages a PDF may have (`maxPages`): a longer one is read
 * whole, which fails it with the limit's own message instead of converting it range by range.
 */
export function splits(
  job: { extension: string; useEnhancedAi: boolean },
  pageCount: number | undefined,
  split: SplitDeps | undefined,
  maxPages: number,
): split is SplitDeps {
  return (
    split !== undefined &&
    job.extension === 'pdf' &&
    !job.useEnhancedAi &&
    pageCount !== undefined &&
    pageCount > split.pages &&
    pageCount <= maxPages
  );
}

/**
 * The ranges' readings joined in page order: their blocks and pages one after the other; title
 * and author as the first range read them, and the page count of the whole file (every range
 * reports it, E2).
 */
export function mergeParts(parts: Array<{ read: unknown }>): ReadResult {
  const reads = parts.map((p) => p.read as ReadResult);
  const first = reads[0]?.metadata;
  const pages = reads.flatMap((r) => r.pages ?? []);
  const pageSizes = reads.flatMap((r) => r.pageSizes ?? []);
  return {
    blocks: reads.flatMap((r) => r.blocks),
    metadata: { title: first?.title ?? '', author: first?.author ?? '', page_count: first?.page_count ?? 0 },
    ...(pages.length ? { pages } : {}),
    ...(pageSizes.length ? { pageSizes } : {}),
  };
}

/** A range's blocks as its worker wrote them (`writeBlocksOnly`), and the file's metadata as the range read it. */
export type WrittenPart = WrittenBlocks & { metadata: DocumentMetadata };

/**
 * The ranges' written blocks joined in page order into the document's Markdown (what
 * `finishDocument` writes from their readings merged, when only the Markdown is asked for); title,
 * author and page count as the first range read them, as `mergeParts` takes them.
 */
export function joinParts(parts: unknown[]): { markdown: string; metadata: DocumentMetadata } {
  const written = parts as WrittenPart[];
  const first = written[0]?.metadata;
  return {
    markdown: joinWrittenParts(written),
    metadata: { title: first?.title ?? '', author: first?.author ?? '', page_count: first?.page_count ?? 0 },
  };
}
