import CFB from 'cfb';

/**
 * Builders of PowerPoint 97 binary records for tests and benches (nothing on npm writes PPT):
 * a record is an 8-byte header (version/instance, type, length) and its body.
 */
export function record(type: number, body: Buffer, container = false, instance = 0): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt16LE((instance << 4) | (container ? 0x0f : 0), 0);
  header.writeUInt16LE(type, 2);
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

export const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A TextHeaderAtom (0 title, 1 body, 2 notes, 4 other) followed by the text as UTF-16. */
export const textAtom = (kind: number, text: string): Buffer =>
  Buffer.concat([record(0x0f9f, u32(kind)), record(0x0fa0, Buffer.from(text, 'utf16le'))]);

/** A compound file whose "PowerPoint Document" stream is `stream`. */
export function pptFile(stream: Buffer): Buffer {
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'PowerPoint Document', stream);
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}
