import ExcelJS from 'exceljs';
import * as XLSX from 'xlsx';
import { convertDocument } from '../../src';

const std = { enhanced: false };

describe('spreadsheets', () => {
  it('When an xlsx has two sheets with number formats, then each is a section with values as shown', async () => {
    const wb = new ExcelJS.Workbook();
    wb.creator = 'Ana';
    wb.title = 'Budget';
    const s1 = wb.addWorksheet('Costs');
    s1.addRow(['Item', 'Price', 'Share', 'Date']);
    s1.addRow(['Café', 1234.5, 0.25, new Date(Date.UTC(2026, 0, 15))]);
    s1.getColumn(2).numFmt = '#,##0.00';
    s1.getColumn(3).numFmt = '0%';
    s1.getColumn(4).numFmt = 'yyyy-mm-dd';
    const s2 = wb.addWorksheet('Empty');
    void s2;
    const input = Buffer.from(await wb.xlsx.writeBuffer());
    const { markdown, metadata } = await convertDocument(input, 'xlsx', std);
    expect(markdown).toBe(
      '## Costs\n\n| Item | Price | Share | Date |\n| --- | --- | --- | --- |\n| Café | 1,234.50 | 25% | 2026-01-15 |\n\n## Empty\n\n*(empty sheet)*\n',
    );
    expect(metadata).toEqual({ title: 'Budget', author: 'Ana', page_count: 2 });
  });

  it('When a sheet holds two separate tables, then each becomes its own GFM table and empty edges are trimmed', async () => {
    const ws = XLSX.utils.aoa_to_sheet([[], ['', 'a', 'b', '', '', 'x'], ['', '1', '2', '', '', '9']]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Data');
    for (const bookType of ['xlsx', 'xls', 'ods'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      const { markdown } = await convertDocument(input, bookType, std);
      expect([bookType, markdown]).toEqual([
        bookType,
        '## Data\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n| x |\n| --- |\n| 9 |\n',
      ]);
    }
  });

  it('When the spreadsheet is corrupt, then it fails with corrupt_file', async () => {
    await expect(convertDocument(Buffer.from('PK\u0003\u0004garbage'), 'xlsx', std)).rejects.toMatchObject({
      code: 'corrupt_file',
    });
  });
});
