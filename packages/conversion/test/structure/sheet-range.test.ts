import * as XLSX from '@e965/xlsx';
import { convertDocument } from '../../src';

// SheetJS's read wrapped so its calls are seen; it still parses (no behaviour of the library is replaced).
jest.mock('@e965/xlsx', () => {
  const real = jest.requireActual<typeof import('@e965/xlsx')>('@e965/xlsx');
  return { ...real, read: jest.fn(real.read) };
});

function workbook(sheets: number): Buffer {
  const wb = XLSX.utils.book_new();
  for (let i = 1; i <= sheets; i++) {
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([[`Head ${i}`], [`value ${i}`]]), `Sheet${i}`);
  }
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
}

describe('E2 page_range of a workbook', () => {
  it('When sheets 1 and 3 of an XLSX are selected, then SheetJS parses those sheets only', async () => {
    const bytes = workbook(4);
    const read = XLSX.read as jest.MockedFunction<typeof XLSX.read>;
    read.mockClear();
    const result = await convertDocument(bytes, 'xlsx', {
      enhanced: false,
      includePages: true,
      pageRange: [
        [1, 1],
        [3, 3],
      ],
    });
    expect(result.pages!.map((p) => p.number)).toEqual([1, 3]);
    expect(result.metadata.page_count).toBe(4);
    const withCells = read.mock.results
      .map((r) => r.value as XLSX.WorkBook)
      .filter((wb) => Object.keys(wb.Sheets ?? {}).length > 0);
    expect(withCells).toHaveLength(1);
    expect(Object.keys(withCells[0]!.Sheets)).toEqual(['Sheet1', 'Sheet3']);
    expect(withCells[0]!.SheetNames).toHaveLength(4);
  });
});
