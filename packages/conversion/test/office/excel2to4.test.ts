import { closeConversionWorkers, convertDocument, convertIsolated } from '../../src';
import { biffWorksheet, type BiffVersion } from '../biff2to4';

/** Issue 21: Excel 2.x-4.0 worksheets (BIFF2-4 without an OLE container) convert, under any spreadsheet name. */
const std = { enhanced: false };
const limits = { timeoutMs: 120_000, maxMemoryMb: 1536 };
const ROWS = [
  ['Fruit', 'Qty'],
  ['Apples', 3],
  ['Pears', 4.5],
];
const TABLE = '## Sheet1\n\n| Fruit | Qty |\n| --- | --- |\n| Apples | 3 |\n| Pears | 4.5 |';
const VERSIONS: BiffVersion[] = [2, 3, 4];

afterAll(() => closeConversionWorkers());

describe('Excel 2-4 worksheets', () => {
  it.each(VERSIONS)(
    'When a BIFF%i worksheet is uploaded as .xls, then its cells come out as a table',
    async (version) => {
      const { markdown, metadata } = await convertDocument(biffWorksheet(version, ROWS), 'xls', std);
      expect(markdown.trim()).toBe(TABLE);
      expect(metadata.page_count).toBe(1);
    },
  );

  it.each(VERSIONS)(
    'When a BIFF%i worksheet is named .xlsx, then it still converts, in a worker as the service runs it',
    async (version) => {
      const { markdown } = await convertIsolated(biffWorksheet(version, ROWS), 'xlsx', std, limits);
      expect(markdown.trim()).toBe(TABLE);
    },
  );

  it('When a BIFF4 record stream holds a chart substream (not a worksheet), then it is refused as before', async () => {
    const chart = biffWorksheet(4, ROWS);
    chart.writeUInt16LE(0x0020, 6);
    await expect(convertDocument(chart, 'xls', std)).rejects.toMatchObject({ code: 'corrupt_file' });
  });
});
