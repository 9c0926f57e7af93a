import { biffRecords } from './biff-records';

/**
 * Cell notes (comments) of an XLS (BIFF8) workbook stream, read from the records themselves: a
 * note's text is a TxO record's `cchText` characters, carried by the Continue records after it
 * ([MS-XLS] 2.4.329), which are followed by one more Continue holding the text's formatting runs.
 * SheetJS reads a note in 16-bit characters on into those runs, so it ends in bytes of the run table
 * ("ÿÿ", a stray letter), and may give a long note as NULs; the length the record states is where
 * the text ends.
 */

const REC = {
  bof: 0x0809,
  eof: 0x000a,
  note: 0x001c,
  obj: 0x005d,
  txo: 0x01b6,
  continue: 0x003c,
} as const;
const BIFF8 = 0x0600;
const WORKSHEET = 0x0010;
/** ftCmo, the common object data that opens an Obj record and holds the object's id. */
const FT_CMO = 0x0015;
/** Notes read per workbook, so a hostile stream cannot allocate without bound. */
const MAX_NOTES = 65_536;

/** The text of each note by sheet (BoundSheet order, as the substreams follow) and cell (`row,col`, from 0). */
export type BiffNotes = Map<number, Map<string, string>>;

export function readBiffNotes(stream: Buffer): BiffNotes {
  const out: BiffNotes = new Map();
  const substreams: { type: number; biff8: boolean }[] = [];
  let sheet = -1;
  let count = 0;
  // Per worksheet: the id of the last Obj record, and the texts of its text objects by id.
  let objId: number | undefined;
  let texts = new Map<number, string>();
  for (const { type, len, body, end } of biffRecords(stream)) {
    if (type === REC.bof && len >= 4) {
      const dt = stream.readUInt16LE(body + 2);
      if (!substreams.length && dt !== 0x0005) sheet++;
      substreams.push({ type: dt, biff8: stream.readUInt16LE(body) === BIFF8 });
      objId = undefined;
      texts = new Map();
      continue;
    }
    if (type === REC.eof) {
      substreams.pop();
      continue;
    }
    // Only a worksheet's own records: an embedded chart's substream has objects of its own.
    const current = substreams.length === 1 ? substreams[0] : undefined;
    if (!current?.biff8 || current.type !== WORKSHEET) continue;
    if (type === REC.obj && len >= 8 && stream.readUInt16LE(body) === FT_CMO) {
      objId = stream.readUInt16LE(body + 6);
    } else if (type === REC.txo && len >= 12 && objId !== undefined) {
      // The Continue records that carry the text follow; the walk passes over them (no worksheet record).
      texts.set(objId, txoText(stream, stream.readUInt16LE(body + 10), end));
    } else if (type === REC.note && len >= 8 && count < MAX_NOTES) {
      const text = texts.get(stream.readUInt16LE(body + 6));
      if (text === undefined) continue;
      const cells = out.get(sheet) ?? new Map<string, string>();
      out.set(sheet, cells);
      cells.set(`${stream.readUInt16LE(body)},${stream.readUInt16LE(body + 2)}`, text);
      count++;
    }
  }
  return out;
}

/**
 * The `cch` characters of a TxO's text from the Continue records starting at `pos`; each opens with
 * its own flag byte (bit 0: two bytes per character).
 */
function txoText(stream: Buffer, cch: number, pos: number): string {
  let text = '';
  while (text.length < cch && pos + 4 <= stream.length && stream.readUInt16LE(pos) === REC.continue) {
    const body = pos + 4;
    const end = Math.min(stream.length, body + stream.readUInt16LE(pos + 2));
    pos = end;
    if (body >= end) continue;
    const wide = (stream[body]! & 1) === 1;
    const want = cch - text.length;
    const bytes = stream.subarray(body + 1, Math.min(end, body + 1 + want * (wide ? 2 : 1)));
    text += wide ? bytes.toString('utf16le') : bytes.toString('latin1');
  }
  return text;
}
