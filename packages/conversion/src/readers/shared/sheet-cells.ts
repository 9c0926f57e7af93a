import * as XLSX from '@e965/xlsx';

/** The cell at row `r`, column `c` (from 0) of a sheet read dense (rows as arrays) or keyed by address. */
export function sheetCell(sheet: XLSX.WorkSheet, r: number, c: number): XLSX.CellObject | undefined {
  const dense = sheet['!data'];
  return dense ? dense[r]?.[c] : (sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined);
}
