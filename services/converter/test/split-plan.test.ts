import { MAX_RANGE_PAGES, planRanges, splits, type SplitDeps } from '../src/domain/split-conversion';
import { SplitsInHand } from '../src/domain/splits-in-hand';

/** Every page once, in order: the ranges are consecutive from page 1 to the last. */
function coversInOrder(ranges: Array<{ firstPage: number; lastPage: number }>, pages: number): boolean {
  let next = 1;
  for (const r of ranges) {
    if (r.firstPage !== next || r.lastPage < r.firstPage) return false;
    next = r.lastPage + 1;
  }
  return next === pages + 1;
}

describe('planRanges: how a long PDF is cut (issue 22, docs/decisions.md)', () => {
  it('When the converters have 2 slots, then 400 pages make 2 ranges of 200, not 7 of 64', () => {
    expect(planRanges(400, 64, 2)).toEqual([
      { firstPage: 1, lastPage: 200 },
      { firstPage: 201, lastPage: 400 },
    ]);
  });

  it('When there is a single slot, then there are still 2 ranges', () => {
    expect(planRanges(101, 64, 1)).toEqual([
      { firstPage: 1, lastPage: 51 },
      { firstPage: 52, lastPage: 101 },
    ]);
  });

  it('When there are more slots than SPLIT_PAGES-sized ranges, then no range is much shorter than SPLIT_PAGES', () => {
    const ranges = planRanges(400, 64, 20);
    expect(ranges).toHaveLength(7);
    expect(Math.min(...ranges.map((r) => r.lastPage - r.firstPage + 1))).toBe(57);
    expect(coversInOrder(ranges, 400)).toBe(true);
  });

  it('When 2 slots would make ranges longer than MAX_RANGE_PAGES, then there are more ranges (memory)', () => {
    const ranges = planRanges(2000, 64, 2);
    expect(ranges).toHaveLength(4);
    expect(Math.max(...ranges.map((r) => r.lastPage - r.firstPage + 1))).toBeLessThanOrEqual(MAX_RANGE_PAGES);
    expect(coversInOrder(ranges, 2000)).toBe(true);
  });

  it('When pages do not divide evenly, then the ranges differ by at most one page and cover every page once', () => {
    for (const [pages, slots] of [
      [65, 2],
      [401, 3],
      [2000, 6],
      [130, 4],
    ] as const) {
      const ranges = planRanges(pages, 64, slots);
      const sizes = ranges.map((r) => r.lastPage - r.firstPage + 1);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      expect(coversInOrder(ranges, pages)).toBe(true);
    }
  });
});

describe('splits: which jobs are split', () => {
  const split: SplitDeps = {
    pages: 64,
    slots: async () => 2,
    publish: async () => undefined,
    inHand: new SplitsInHand(1, 0),
  };
  const pdf = { extension: 'pdf', useEnhancedAi: false };
  const max = 2000;

  it('When a standard-mode PDF has more than SPLIT_PAGES pages, up to the reader’s limit, then it is split', () => {
    expect(splits(pdf, 65, split, max)).toBe(true);
    expect(splits(pdf, 2000, split, max)).toBe(true);
  });

  it('When the PDF is over the reader’s page limit, then it is read whole (and fails with the limit’s message)', () => {
    expect(splits(pdf, 2001, split, max)).toBe(false);
  });

  it('When the PDF is short, enhanced, of unknown length or not a PDF, then it is not split', () => {
    expect(splits(pdf, 64, split, max)).toBe(false);
    expect(splits({ ...pdf, useEnhancedAi: true }, 400, split, max)).toBe(false);
    expect(splits(pdf, undefined, split, max)).toBe(false);
    expect(splits({ ...pdf, extension: 'pptx' }, 400, split, max)).toBe(false);
    expect(splits(pdf, 400, undefined, max)).toBe(false);
  });
});
