import { structureOptions } from '../src/domain/run-conversion';

/** The options of E1–E4 as the converter hands them from the row to the library. */
describe('structureOptions', () => {
  it('When the row asked for nothing, then the library gets no structure option at all', () => {
    expect(
      structureOptions({ includePages: false, pageRange: null, chunkMaxTokens: null, includeDocument: false }),
    ).toEqual({});
  });

  it('When the row asked for everything, then page_range comes as spans and the rest as they are', () => {
    expect(
      structureOptions({ includePages: true, pageRange: '1-3,7', chunkMaxTokens: 512, includeDocument: true }),
    ).toEqual({
      includePages: true,
      pageRange: [
        [1, 3],
        [7, 7],
      ],
      chunkMaxTokens: 512,
      includeDocument: true,
    });
  });
});
