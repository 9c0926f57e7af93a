import CFB from 'cfb';

/**
 * Builders of BIFF8 chart records for tests (SheetJS writes worksheets, not charts): a record
 * is a 2-byte type, a 2-byte length and its body.
 */
export function biff(type: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(body.length, 2);
  return Buffer.concat([head, body]);
}

const u16 = (...values: number[]): Buffer => Buffer.concat(values.map((v) => Buffer.from([v & 0xff, (v >> 8) & 0xff])));
const f64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return b;
};
/** A BOF record opening a substream of type `dt` (0x0005 globals, 0x0010 worksheet, 0x0020 chart, 0x8000 MS Graph chart). */
export const bof = (dt: number): Buffer =>
  biff(0x0809, Buffer.concat([u16(0x0600, dt, 0x0dbb, 0x07cc), Buffer.alloc(8)]));
export const eof = (): Buffer => biff(0x000a);
const shortString = (text: string): Buffer =>
  Buffer.concat([Buffer.from([text.length, 1]), Buffer.from(text, 'utf16le')]);
const seriesText = (text: string): Buffer => biff(0x100d, Buffer.concat([u16(0), shortString(text)]));
const begin = (): Buffer => biff(0x1033);
const end = (): Buffer => biff(0x1034);
/** A BRAI record: id 0 name, 1 values, 2 categories; with an area (ptgArea3d) when the data comes from cells. */
const brai = (id: number, area?: [rowFirst: number, rowLast: number, colFirst: number, colLast: number]): Buffer => {
  const formula = area ? Buffer.concat([Buffer.from([0x3b]), u16(0, ...area)]) : Buffer.alloc(0);
  return biff(0x1051, Buffer.concat([Buffer.from([id, area ? 2 : 1]), u16(0, 0, formula.length), formula]));
};

export interface ChartSpec {
  title?: string;
  /** 0x1017 bar, 0x1018 line, 0x1019 pie. */
  kind?: number;
  categories: string[];
  series: Array<{
    name: string;
    values: number[];
    cells?: { name: [number, number]; values: [number, number, number, number] };
  }>;
  /** Category cells (rowFirst, rowLast, colFirst, colLast), for charts whose data is not cached. */
  categoryCells?: [number, number, number, number];
  /** Write the chart's own data cache (SIIndex with Number/Label records), as MS Graph does. */
  cache?: boolean;
  /** Write MS Graph 97's datasheet instead: old-shape Label/Number records, a series per row, categories in row 0. */
  datasheet?: boolean;
}

/** A chart substream (BOF of type `dt` … EOF): title Text/ObjectLink, plot kind, Series with their BRAI and SeriesText, data cache. */
export function chartSubstream(spec: ChartSpec, dt = 0x0020): Buffer {
  const parts = [bof(dt), biff(0x1002, Buffer.alloc(16))]; // Chart
  if (spec.title) {
    parts.push(biff(0x1025, Buffer.alloc(32)), begin(), biff(0x1027, u16(1, 0, 0)), seriesText(spec.title), end());
  }
  for (const s of spec.series) {
    parts.push(biff(0x1003, u16(1, 1, spec.categories.length, s.values.length, 1, 0)), begin());
    if (s.cells) parts.push(brai(0, [s.cells.name[0], s.cells.name[0], s.cells.name[1], s.cells.name[1]]));
    else parts.push(brai(0), seriesText(s.name));
    parts.push(brai(1, s.cells?.values), brai(2, spec.categoryCells), end());
  }
  parts.push(biff(0x1014, Buffer.alloc(20)), begin(), biff(spec.kind ?? 0x1017, Buffer.alloc(6)), end()); // ChartFormat
  if (spec.cache) {
    parts.push(biff(0x1065, u16(2)));
    spec.series.forEach((_, col) =>
      spec.categories.forEach((c, row) =>
        parts.push(
          biff(0x0204, Buffer.concat([u16(row, col, 0, c.length), Buffer.from([1]), Buffer.from(c, 'utf16le')])),
        ),
      ),
    );
    parts.push(biff(0x1065, u16(1)));
    spec.series.forEach((s, col) =>
      s.values.forEach((v, row) => parts.push(biff(0x0203, Buffer.concat([u16(row, col, 0), f64(v)])))),
    );
  }
  if (spec.datasheet) {
    const label = (row: number, col: number, text: string) =>
      biff(
        0x0004,
        Buffer.concat([u16(row, col), Buffer.alloc(3), Buffer.from([text.length, 0]), Buffer.from(text, 'latin1')]),
      );
    spec.categories.forEach((c, i) => parts.push(label(0, i + 1, c)));
    spec.series.forEach((s, row) => {
      parts.push(label(row + 1, 0, s.name));
      s.values.forEach((v, i) =>
        parts.push(biff(0x0003, Buffer.concat([u16(row + 1, i + 1), Buffer.alloc(3), f64(v)]))),
      );
    });
  }
  parts.push(eof());
  return Buffer.concat(parts);
}

/** A compound file (an OLE object's storage) holding `workbook` as its Workbook stream. */
export function workbookStorage(workbook: Buffer): Buffer {
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'Workbook', workbook);
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

/** `xls` (a compound file from SheetJS) with `extra` appended to its Workbook stream. */
export function appendToWorkbook(xls: Buffer, extra: Buffer): Buffer {
  const cfb = CFB.read(xls, { type: 'buffer' });
  const entry = CFB.find(cfb, 'Workbook')!;
  const out = CFB.utils.cfb_new();
  CFB.utils.cfb_add(out, 'Workbook', Buffer.concat([Buffer.from(entry.content as Uint8Array), extra]));
  return Buffer.from(CFB.write(out, { type: 'buffer' }) as Uint8Array);
}

/** `xls` with `extra` (a chart substream) inserted at the end of its `sheet`-th sheet substream, as Excel embeds a chart. */
export function embedInSheet(xls: Buffer, sheet: number, extra: Buffer): Buffer {
  const cfb = CFB.read(xls, { type: 'buffer' });
  const stream = Buffer.from(CFB.find(cfb, 'Workbook')!.content as Uint8Array);
  let pos = 0;
  let depth = 0;
  let seen = -1;
  while (pos + 4 <= stream.length) {
    const type = stream.readUInt16LE(pos);
    const next = pos + 4 + stream.readUInt16LE(pos + 2);
    if (type === 0x0809 && depth++ === 0 && stream.readUInt16LE(pos + 6) !== 0x0005) seen++;
    if (type === 0x000a && --depth === 0 && seen === sheet) {
      // BoundSheet records give each sheet's stream offset: those after the insertion move.
      for (let at = 0; at + 4 <= pos; at += 4 + stream.readUInt16LE(at + 2)) {
        if (stream.readUInt16LE(at) === 0x0085 && stream.readUInt32LE(at + 4) > pos) {
          stream.writeUInt32LE(stream.readUInt32LE(at + 4) + extra.length, at + 4);
        }
      }
      const out = CFB.utils.cfb_new();
      CFB.utils.cfb_add(out, 'Workbook', Buffer.concat([stream.subarray(0, pos), extra, stream.subarray(pos)]));
      return Buffer.from(CFB.write(out, { type: 'buffer' }) as Uint8Array);
    }
    pos = next;
  }
  throw new Error(`no sheet ${sheet}`);
}

/**
 * A cell note as Excel 97-2003 writes it: the comment object (Obj with its ftCmo id), its TxO with
 * the text's length, a Continue with the text (in 16-bit characters when one is past Latin-1, as Excel
 * stores it), a Continue with the formatting runs (the last run's unused bytes as Excel leaves them),
 * and the Note record tying cell and object.
 */
export function noteRecords(row: number, col: number, id: number, author: string, text: string): Buffer {
  const obj = biff(0x005d, Buffer.concat([u16(0x0015, 0x0012, 0x0019, id, 0x4011), Buffer.alloc(12), u16(0, 0)]));
  const txo = biff(0x01b6, Buffer.concat([u16(0x0212, 0), Buffer.alloc(6), u16(text.length, 16, 0, 0)]));
  const wide = [...text].some((ch) => ch.charCodeAt(0) > 0xff);
  const chars = biff(
    0x003c,
    Buffer.concat([Buffer.from([wide ? 1 : 0]), Buffer.from(text, wide ? 'utf16le' : 'latin1')]),
  );
  const runs = biff(0x003c, Buffer.concat([u16(0, 1, 0, 0, text.length, 0), Buffer.from([0xff, 0xff, 0xff, 0xff])]));
  const note = biff(
    0x001c,
    Buffer.concat([
      u16(row, col, 0x0002, id, author.length),
      Buffer.from([0]),
      Buffer.from(author, 'latin1'),
      Buffer.alloc(1),
    ]),
  );
  return Buffer.concat([obj, txo, chars, runs, note]);
}

/** One MS Graph chart as an embedded object's workbook holds it (a bar chart, one series, cached values): the DOC, RTF and PPTX hosts' tests share it. */
export function ducksSeenChart(): Buffer {
  return chartSubstream(
    {
      title: 'Ducks seen',
      kind: 0x1018,
      categories: ['2021', '2022'],
      series: [{ name: 'Mallard', values: [120, 130] }],
      cache: true,
    },
    0x8000,
  );
}
