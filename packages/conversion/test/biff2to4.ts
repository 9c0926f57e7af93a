/**
 * Builders of Excel 2.x, 3.0 and 4.0 worksheets for tests: a bare BIFF2/3/4 record stream, with
 * no OLE container (what those versions saved). A record is a 2-byte type, a 2-byte length and
 * its body; the layouts are those of the BIFF2-4 records in Microsoft's [MS-XLS] predecessor
 * documentation as OpenOffice's "Excel File Format" summarises them.
 */
export type BiffVersion = 2 | 3 | 4;
export type BiffCell = string | number;

const u16 = (...values: number[]): Buffer => Buffer.concat(values.map((v) => Buffer.from([v & 0xff, (v >> 8) & 0xff])));
const f64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return b;
};

function record(type: number, body: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([u16(type, body.length), body]);
}

/** BOF record type by version (the high byte says the version) and the worksheet substream type. */
const BOF_TYPES: Record<BiffVersion, number> = { 2: 0x0009, 3: 0x0209, 4: 0x0409 };
const WORKSHEET = 0x0010;

function bof(version: BiffVersion): Buffer {
  // BIFF2: version, substream type. BIFF3/4: version, substream type, build.
  const body = version === 2 ? u16(0x0002, WORKSHEET) : u16(0x0000, WORKSHEET, 0x0000);
  return record(BOF_TYPES[version], body);
}

function dimensions(version: BiffVersion, rows: number, cols: number): Buffer {
  return version === 2 ? record(0x0000, u16(0, rows, 0, cols)) : record(0x0200, u16(0, rows, 0, cols, 0));
}

function cell(version: BiffVersion, row: number, col: number, value: BiffCell): Buffer {
  if (version === 2) {
    // Row, column, three bytes of cell attributes, then the value.
    const head = Buffer.concat([u16(row, col), Buffer.from([0, 0, 0])]);
    if (typeof value === 'number') return record(0x0003, Buffer.concat([head, f64(value)]));
    const chars = Buffer.from(value, 'latin1');
    return record(0x0004, Buffer.concat([head, Buffer.from([chars.length]), chars]));
  }
  // Row, column, XF index, then the value.
  const head = u16(row, col, 0x0f);
  if (typeof value === 'number') return record(0x0203, Buffer.concat([head, f64(value)]));
  const chars = Buffer.from(value, 'latin1');
  return record(0x0204, Buffer.concat([head, u16(chars.length), chars]));
}

/** One worksheet holding `rows` (strings and numbers), as Excel 2, 3 or 4 saved it. */
export function biffWorksheet(version: BiffVersion, rows: BiffCell[][]): Buffer {
  const cols = Math.max(...rows.map((r) => r.length));
  return Buffer.concat([
    bof(version),
    dimensions(version, rows.length, cols),
    ...rows.flatMap((r, i) => r.map((value, j) => cell(version, i, j, value))),
    record(0x000a),
  ]);
}
