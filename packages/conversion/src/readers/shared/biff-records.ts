/** One BIFF record of a workbook stream: its type and where its body lies. */
export interface BiffRecord {
  type: number;
  len: number;
  /** Offset of the body (after the 4-byte header) and of the next record. */
  body: number;
  end: number;
}

/** The records of a BIFF stream in order, up to the first whose body runs past the stream's end. */
export function* biffRecords(stream: Buffer): Generator<BiffRecord> {
  let pos = 0;
  while (pos + 4 <= stream.length) {
    const type = stream.readUInt16LE(pos);
    const len = stream.readUInt16LE(pos + 2);
    const body = pos + 4;
    const end = body + len;
    if (end > stream.length) return;
    pos = end;
    yield { type, len, body, end };
  }
}
