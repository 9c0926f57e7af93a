import type { PartRange } from '@markwright/db';
import type { ReadResult } from '@markwright/conversion';

/**
 * Long documents split across converters (issue 22): the plan of page ranges and the merge of
 * their models. The jobs themselves run in run-conversion.ts.
 */

/** Where a long document's ranges go: any converter's jobs queue. */
export interface SplitDeps {
  /** A PDF of more pages than this is split into ranges of this many pages. */
  pages: number;
  /** Publishes one range as a job (confirmed by the broker before it resolves). */
  publish: (conversionId: string, part: PartRange) => Promise<void>;
}

/** Pages 1..pageCount in consecutive ranges of `size` pages (the last one shorter). */
export function pageRanges(pageCount: number, size: number): PartRange[] {
  const ranges: PartRange[] = [];
  for (let first = 1; first <= pageCount; first += size) {
    ranges.push({ firstPage: first, lastPage: Math.min(pageCount, first + size - 1) });
  }
  return ranges;
}

/** Whether a claimed job is split: a PDF, read locally (enhanced mode's model pass wants the whole text), over the limit. */
export function splits(
  job: { extension: string; useEnhancedAi: boolean },
  pageCount: number | undefined,
  split: SplitDeps | undefined,
): split is SplitDeps {
  return (
    split !== undefined &&
    job.extension === 'pdf' &&
    !job.useEnhancedAi &&
    pageCount !== undefined &&
    pageCount > split.pages
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
