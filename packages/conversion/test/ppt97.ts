import { deflateSync } from 'node:zlib';
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

/** A compound file whose "PowerPoint Document" stream is `stream` (and "Current User", when given). */
export function pptFile(stream: Buffer, currentUser?: Buffer): Buffer {
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'PowerPoint Document', stream);
  if (currentUser) CFB.utils.cfb_add(cfb, 'Current User', currentUser);
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const i32s = (...values: number[]): Buffer => Buffer.concat(values.map((v) => u32(v | 0)));

/** An OfficeArt property table (OPT) of simple properties: [property id, value]. */
const properties = (type: number, props: Array<[number, number]>): Buffer =>
  record(type, Buffer.concat(props.map(([id, value]) => Buffer.concat([u16(id), u32(value)]))), false, props.length);

export interface ShapeSpec {
  /** left, top, right, bottom: on the slide (master units, 576 per inch), or in the group's space for a group's child. */
  box: [number, number, number, number];
  /** Text with its TextHeaderAtom kind (0 title, 1 body, 4 other); paragraphs separated by \r. */
  text?: { kind: number; text: string; style?: Buffer };
  /** OfficeArt shape type (1 rectangle, 20 line, 202 text box). */
  shapeType?: number;
  /** The shape shows embedded object `objectId` (an ExObjRefAtom in its client data). */
  objectId?: number;
  /**
   * Per paragraph run, its PowerPoint 9 numbering (a StyleTextProp9Atom in a ProgBinaryTag):
   * true numbered, { start } numbered from that number, false not numbered, null saying nothing.
   */
  numbered?: Array<boolean | { start: number } | null>;
  /** An OutlineTextRefAtom: the shape's text is the slide's index-th text in the SlideListWithText. */
  outlineRef?: number;
}

type Numbering = boolean | { start: number } | null;

/** A StyleTextProp9Atom: per paragraph run, its numbering (see ShapeSpec.numbered), then empty character and spelling parts. */
function styleTextProp9(numbered: Numbering[]): Buffer {
  const pf9 = (n: Numbering): Buffer =>
    n === null
      ? u32(0)
      : typeof n === 'object'
        ? Buffer.concat([u32(0x03000000), u16(1), u16(3), u16(n.start)]) // scheme 3: "1."
        : Buffer.concat([u32(0x02000000), u16(n ? 1 : 0)]);
  return record(0x0fac, Buffer.concat(numbered.map((n) => Buffer.concat([pf9(n), u32(0), u32(0)]))));
}

/** ProgTags holding one ___PPT9 ProgBinaryTag whose data blob holds `records`. */
function pp9Tags(records: Buffer): Buffer {
  const blob = record(0x138b, records);
  const tag = record(0x138a, Buffer.concat([record(0x0fba, Buffer.from('___PPT9', 'utf16le')), blob]), true);
  return record(0x1388, tag, true);
}

/** A shape container (OfficeArtSpContainer) as PowerPoint writes one. */
export function shape(spec: ShapeSpec, inGroup = false): Buffer {
  const [l, t, r, b] = spec.box;
  const parts = [
    record(0xf00a, Buffer.concat([u32(1025), u32(inGroup ? 0xa02 : 0xa00)]), false, spec.shapeType ?? 1),
    properties(0xf00b, [[0x7f, 0x40000]]),
    inGroup ? record(0xf00f, i32s(l, t, r, b)) : record(0xf010, Buffer.concat([t, l, r, b].map(u16))),
  ];
  const data: Buffer[] = [];
  if (spec.objectId !== undefined) data.push(record(0x0bc1, u32(spec.objectId)));
  if (spec.numbered) {
    data.push(pp9Tags(styleTextProp9(spec.numbered)));
  }
  if (data.length) parts.push(record(0xf011, Buffer.concat(data), true));
  if (spec.text) {
    const box = [textAtom(spec.text.kind, spec.text.text)];
    if (spec.text.style) box.push(record(0x0fa1, spec.text.style));
    parts.push(record(0xf00d, Buffer.concat(box), true));
  } else if (spec.outlineRef !== undefined) {
    parts.push(record(0xf00d, record(0x0f9e, u32(spec.outlineRef)), true));
  }
  return record(0xf004, Buffer.concat(parts), true);
}

/** A group shape (OfficeArtSpgrContainer): its own shape (flagged as a table when asked), then its children. */
export function group(box: [number, number, number, number], children: Buffer[], table = false): Buffer {
  const [l, t, r, b] = box;
  const own = record(
    0xf004,
    Buffer.concat([
      record(0xf009, i32s(l, t, r, b)),
      record(0xf00a, Buffer.concat([u32(1024), u32(0x201)]), false, 0),
      ...(table ? [properties(0xf122, [[0x039f, 1]])] : []),
      record(0xf010, Buffer.concat([t, l, r, b].map(u16))),
    ]),
    true,
  );
  return record(0xf003, Buffer.concat([own, ...children]), true);
}

/** A slide container holding a drawing with the given shapes. */
export function slide(...shapes: Buffer[]): Buffer {
  const patriarch = record(0xf004, record(0xf009, Buffer.alloc(16)), true);
  const drawing = record(0xf002, record(0xf003, Buffer.concat([patriarch, ...shapes]), true), true);
  return record(0x03ee, record(0x040c, drawing, true), true);
}

export interface PptDocumentSpec {
  slides: Buffer[];
  /**
   * Text kept in the SlideListWithText per slide (PowerPoint 97 placeholders' outline text); `null`
   * text is a TextHeaderAtom alone, as PowerPoint writes an empty placeholder.
   */
  outline?: Array<Array<{ kind: number; text: string | null }>>;
  /** Embedded OLE objects: exObjId, program id and the compound file; `compress` stores it zlib-compressed. */
  objects?: Array<{ id: number; progId: string; storage: Buffer; compress?: boolean }>;
  /** Slides written to the stream in this order (indexes into `slides`); the presentation order stays `slides`'. */
  fileOrder?: number[];
  /** Numbering of outline text (the Document's ___PPT9 OutlineTextProps9): slide index, text kind, per paragraph run. */
  outlineNumbered?: Array<{ slide: number; kind: number; numbered: Numbering[] }>;
}

/**
 * A PowerPoint Document stream laid out as PowerPoint saves it: the Document container (its
 * SlideListWithText and ExObjList), the slides, object storages, a PersistDirectoryAtom and a
 * UserEditAtom; and the Current User stream pointing at that edit.
 */
export function pptDocument(spec: PptDocumentSpec): { stream: Buffer; currentUser: Buffer; lastEdit: number } {
  const slideId = (i: number): number => 256 + i;
  const slidePersist = (i: number): number => 2 + i;
  const objectPersist = (k: number): number => 2 + spec.slides.length + k;
  const list = spec.slides.flatMap((_, i) => [
    record(0x03f3, i32s(slidePersist(i), 0, 0, slideId(i), 0)),
    ...(spec.outline?.[i] ?? []).map((t) => (t.text === null ? record(0x0f9f, u32(t.kind)) : textAtom(t.kind, t.text))),
  ]);
  const objects = (spec.objects ?? []).map((o, k) =>
    record(
      0x0fcc,
      Buffer.concat([
        record(0x0fc3, i32s(0, 0, o.id, 0, objectPersist(k), 0)),
        record(0x0fba, Buffer.from(o.progId, 'utf16le'), false, 2),
      ]),
      true,
    ),
  );
  const document = record(
    0x03e8,
    Buffer.concat([
      record(0x03e9, i32s(5760, 4320, 0, 0, 0, 0, 0, 0, 0, 0)),
      record(0x0ff0, Buffer.concat(list), true, 0),
      ...(objects.length ? [record(0x0409, Buffer.concat(objects), true)] : []),
      ...(spec.outlineNumbered
        ? [
            record(
              0x07d0,
              pp9Tags(
                Buffer.concat(
                  spec.outlineNumbered.map((o) =>
                    record(
                      0x0fae,
                      Buffer.concat([record(0x0faf, i32s(slideId(o.slide), o.kind)), styleTextProp9(o.numbered)]),
                      true,
                    ),
                  ),
                ),
              ),
              true,
            ),
          ]
        : []),
    ]),
    true,
  );
  const parts: Buffer[] = [document];
  const offsets = new Map<number, number>([[1, 0]]);
  let at = document.length;
  const put = (id: number, rec: Buffer): void => {
    offsets.set(id, at);
    parts.push(rec);
    at += rec.length;
  };
  for (const i of spec.fileOrder ?? spec.slides.map((_, i) => i)) put(slidePersist(i), spec.slides[i]!);
  (spec.objects ?? []).forEach((o, k) => {
    const body = o.compress ? Buffer.concat([u32(o.storage.length), deflateSync(o.storage)]) : o.storage;
    put(objectPersist(k), record(0x1011, body, false, o.compress ? 1 : 0));
  });
  const edit = persistEdit(offsets, at, 0);
  return {
    stream: Buffer.concat([...parts, edit.records]),
    currentUser: currentUser(edit.editOffset),
    lastEdit: edit.editOffset,
  };
}

/** A PersistDirectoryAtom (one entry per id) and the UserEditAtom after it, written at stream offset `at`. */
export function persistEdit(
  offsets: Map<number, number>,
  at: number,
  lastEdit: number,
): { records: Buffer; editOffset: number } {
  const entries = [...offsets].map(([id, offset]) => Buffer.concat([u32((1 << 20) | id), u32(offset)]));
  const directory = record(0x1772, Buffer.concat(entries));
  const edit = record(
    0x0ff5,
    Buffer.concat([i32s(256), u16(0), Buffer.from([0, 3]), i32s(lastEdit, at, 1, 100), u16(1), u16(0)]),
  );
  return { records: Buffer.concat([directory, edit]), editOffset: at + directory.length };
}

/** The Current User stream: a CurrentUserAtom pointing at the last edit. */
export function currentUser(editOffset: number): Buffer {
  return record(
    0x0ff6,
    Buffer.concat([u32(0x14), u32(0xe391c05f), u32(editOffset), u16(0), u16(0x03f4), u16(3), u16(0)]),
  );
}
