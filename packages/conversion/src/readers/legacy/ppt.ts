import type { Reader } from '../reader';
import { noPageSelected, selectedPages } from '../../page-range';
import { ConversionError } from '../../types';
import { text as plain, type Block, type Inline } from '../../document/model';
import {
  paragraphsToBlocks,
  readingOrder,
  slidesToBlocks,
  type ParagraphModel,
  type SlideModel,
} from '../shared/slides';
import { openCompoundFile, streamOf, summaryInformation } from '../shared/ole';
import { embeddedObjectBlocks, type EmbeddedObject } from '../shared/ole-objects';

const RT = {
  document: 0x03e8,
  documentAtom: 0x03e9,
  slide: 0x03ee,
  notes: 0x03f0,
  mainMaster: 0x03f8,
  exObjList: 0x0409,
  slideListWithText: 0x0ff0,
  slidePersistAtom: 0x03f3,
  notesAtom: 0x03f1,
  outlineTextRef: 0x0f9e,
  textHeader: 0x0f9f,
  textChars: 0x0fa0,
  textBytes: 0x0fa8,
  styleTextProp: 0x0fa1,
  styleTextProp9: 0x0fac,
  exEmbed: 0x0fcc,
  exOleObjAtom: 0x0fc3,
  exObjRef: 0x0bc1,
  cString: 0x0fba,
  userEditAtom: 0x0ff5,
  docInfoList: 0x07d0,
  progTags: 0x1388,
  binaryTagData: 0x138b,
  outlineTextProps9: 0x0fae,
  outlineTextPropsHeader: 0x0faf,
  persistDirectory: 0x1772,
  // OfficeArt (drawing) records
  groupContainer: 0xf003,
  shapeContainer: 0xf004,
  groupAtom: 0xf009,
  shapeAtom: 0xf00a,
  properties: 0xf00b,
  tertiaryProperties: 0xf122,
  childAnchor: 0xf00f,
  clientAnchor: 0xf010,
  clientData: 0xf011,
  clientTextbox: 0xf00d,
} as const;
const TITLE_TYPES = new Set([0, 6]);
/** TextHeaderAtom type of text in a shape that is no placeholder. */
const OTHER_TEXT = 4;
/** The longest line a plain box may hold to stand as its slide's title. */
const MAX_DRAWN_TITLE = 100;
const MAX_DEPTH = 32;
/** OfficeArt shape type of straight lines (a table's borders are drawn with them). */
const LINE_SHAPE = 20;
/** Cell edges this many master units apart or less are one grid line drawn with rounding. */
const GRID_ROUNDING = 2;
/** OfficeArt property: tableProperties, whose lowest bit marks a group shape as a table. */
const TABLE_PROPERTIES = 0x039f;

interface TextRun {
  type: number;
  text: string;
  /** Per paragraph, from the StyleTextPropAtom after the text: explicit bullet on/off and indent level. */
  paragraphs?: Array<{ chars: number; bullet?: boolean; level: number }>;
  /** Per paragraph run (same order), from the PowerPoint 2000 StyleTextProp9Atom: numbered rather than bulleted. */
  numbered?: AutoNumber[];
}

/**
 * A paragraph run's automatic numbering (TextPFException9): on with its start number, off, or
 * undefined when the run does not say (it then inherits, see runParagraphs).
 */
type AutoNumber = { start: number } | false | undefined;

/** One thing on a slide at its position: text runs, or blocks already built (a table, a chart). */
interface Item {
  x: number;
  y: number;
  /** Width and height on the slide, where the shape has an anchor. */
  w?: number;
  h?: number;
  runs: TextRun[];
  blocks?: Block[];
}

/** Maps a group's child coordinates onto the slide. */
interface Frame {
  map(x: number, y: number): { x: number; y: number };
}
const SLIDE_FRAME: Frame = { map: (x, y) => ({ x, y }) };

/** TextPFException mask bits and the sizes of the optional fields they announce, in file order. */
const PF_FIELDS: Array<[mask: number, size: number]> = [
  [0x000f, 2], // bulletFlags (hasBullet, bulletHasFont, bulletHasColor, bulletHasSize)
  [0x0080, 2], // bulletChar
  [0x0010, 2], // bulletFontRef
  [0x0040, 2], // bulletSize
  [0x0020, 4], // bulletColor
  [0x0800, 2], // textAlignment
  [0x1000, 2], // lineSpacing
  [0x2000, 2], // spaceBefore
  [0x4000, 2], // spaceAfter
  [0x0100, 2], // leftMargin
  [0x0400, 2], // indent
  [0x8000, 2], // defaultTabSize
];

/**
 * PPT (PowerPoint 97-2003): the "PowerPoint Document" stream's records. The persist directory
 * (reached from the "Current User" stream) names the live slide, notes and object records, so
 * edits saved incrementally do not show old copies; files without one are walked in file order.
 * Each slide's shapes are read with their positions and put in reading order: text boxes (title
 * vs body by the TextHeaderAtom), tables (group shapes flagged as tables, rebuilt from the cells'
 * anchors) and embedded charts and worksheets (see shared/ole-objects). Notes containers give speaker notes.
 */
export const pptReader: Reader = {
  name: 'ppt',
  async read(input, options) {
    const cfb = openCompoundFile(input, 'PPT file');
    const stream = streamOf(cfb, 'PowerPoint Document');
    if (!stream) throw new ConversionError('corrupt_file', 'The PPT file has no PowerPoint Document stream.');
    if (streamOf(cfb, 'EncryptedSummary'))
      throw new ConversionError('encrypted_file', 'The PPT file is password-protected.');
    const doc = readDocument(stream, streamOf(cfb, 'Current User'));
    const objects = (id: number): Block[] => {
      const object = doc.objects.get(id);
      return object ? embeddedObjectBlocks(object) : [];
    };
    const slides = doc.slideOffsets.map((offset, i) => readSlide(stream, offset, doc, i, objects));
    const hasContent = slides.some((s) => s.length);
    const source = hasContent
      ? slides
      : doc.listed.map((runs) => runs.filter((r) => r.text).map((r) => ({ x: 0, y: 0, runs: [r] })));
    // Notes belong to the slide whose id they name; files without ids pair them in order.
    const notesOf = (i: number): TextRun[] =>
      doc.slideIds.length
        ? (doc.notes.find((n) => n.slideId === doc.slideIds[i])?.runs ?? [])
        : (doc.notes[i]?.runs ?? []);
    const tolerance = doc.slideHeight / 48;
    // E2: slides outside the page range are left out before they are laid out (the binary stream is read whole).
    const numbers = selectedPages(options.pageRange, source.length);
    if (options.pageRange && !numbers.length) throw noPageSelected(source.length);
    const models: SlideModel[] = numbers.map((number) => ({
      ...toSlide(readingOrder(source[number - 1]!, tolerance), notesOf(number - 1)),
      number,
    }));
    const info = summaryInformation(cfb);
    return {
      blocks: slidesToBlocks(models),
      metadata: { title: info.title, author: info.author, page_count: source.length },
      pages: numbers,
    };
  },
};

interface DocumentModel {
  /** Offsets of the slide containers in presentation order. */
  slideOffsets: number[];
  /** Slide ids in presentation order, from the SlideListWithText. */
  slideIds: number[];
  /** Per slide (SlideListWithText order), the text atoms kept there: outline text of PowerPoint 97 placeholders. */
  listed: TextRun[][];
  notes: Array<{ slideId?: number; runs: TextRun[] }>;
  /** Embedded OLE objects by their exObjId. */
  objects: Map<number, EmbeddedObject>;
  /** Slide height in master units (576 per inch), for the reading-order tolerance. */
  slideHeight: number;
}

interface RecordHeader {
  instance: number;
  type: number;
  body: number;
  end: number;
  container: boolean;
}

function header(buf: Buffer, pos: number, limit: number): RecordHeader | undefined {
  if (pos < 0 || pos + 8 > limit) return undefined;
  const verInstance = buf.readUInt16LE(pos);
  const len = buf.readUInt32LE(pos + 4);
  if (pos + 8 + len > limit) return undefined;
  return {
    instance: verInstance >> 4,
    type: buf.readUInt16LE(pos + 2),
    body: pos + 8,
    end: pos + 8 + len,
    container: (verInstance & 0x0f) === 0x0f,
  };
}

/** The records directly inside [start, end). */
function* records(buf: Buffer, start: number, end: number): Generator<RecordHeader> {
  let pos = start;
  for (let h = header(buf, pos, end); h; h = header(buf, pos, end)) {
    yield h;
    pos = h.end;
  }
}

function readDocument(stream: Buffer, currentUser: Buffer | undefined): DocumentModel {
  const model: DocumentModel = {
    slideOffsets: [],
    slideIds: [],
    listed: [],
    notes: [],
    objects: new Map(),
    slideHeight: 4320,
  };
  const persist = persistDirectory(stream, currentUser);
  const top = [...records(stream, 0, stream.length)];
  // The live records: those the persist directory names, else every top-level record in file order.
  const live = persist
    ? [...new Set(persist.offsets.values())]
        .sort((a, b) => a - b)
        .map((o) => header(stream, o, stream.length))
        .filter((h): h is RecordHeader => !!h)
    : top;
  const document =
    (persist && header(stream, persist.offsets.get(persist.docId) ?? -1, stream.length)) ||
    top.find((h) => h.type === RT.document);
  const slidePersists: Array<{ persistId: number; slideId: number }> = [];
  const outlineNumbers = new Map<string, AutoNumber[][]>();
  if (document?.type === RT.document) {
    for (const h of records(stream, document.body, document.end)) {
      if (h.type === RT.documentAtom && h.end - h.body >= 8) {
        const height = stream.readInt32LE(h.body + 4);
        if (height > 0) model.slideHeight = height;
      } else if (h.type === RT.slideListWithText && h.instance === 0) {
        slideList(stream, h, model, slidePersists);
      } else if (h.type === RT.exObjList) {
        objectList(stream, h, model, persist?.offsets);
      } else if (h.type === RT.docInfoList || h.type === RT.progTags) {
        outlineNumbering(stream, h, outlineNumbers);
      }
    }
  }
  numberOutline(model, outlineNumbers);
  const persisted = slidePersists
    .map((p) => persist?.offsets.get(p.persistId))
    .filter((o): o is number => o !== undefined && header(stream, o, stream.length)?.type === RT.slide);
  model.slideOffsets =
    persisted.length && persisted.length === slidePersists.length
      ? persisted
      : live.filter((h) => h.type === RT.slide).map((h) => h.body - 8);
  if (model.slideOffsets !== persisted) {
    // Slides found in file order: keep the ids only if they pair one to one.
    if (model.slideIds.length !== model.slideOffsets.length) model.slideIds = [];
  }
  for (const h of live) {
    if (h.type !== RT.notes) continue;
    const slideId = notesSlideId(stream, h.body, h.end);
    if (slideId === 0 || (slideId ?? 0) >= 0x80000000) continue; // the notes master
    const runs: TextRun[] = [];
    for (const item of readDrawing(stream, h.body, h.end, 0, SLIDE_FRAME, undefined)) runs.push(...item.runs);
    model.notes.push({ slideId, runs });
  }
  return model;
}

type PersistDirectory = { offsets: Map<number, number>; docId: number };

/** The persist directory of the last edit (persist id → stream offset), following the edit chain back. */
function persistDirectory(stream: Buffer, currentUser: Buffer | undefined): PersistDirectory | undefined {
  let edit: number | undefined;
  if (currentUser && currentUser.length >= 24 && currentUser.readUInt16LE(2) === 0x0ff6) {
    edit = currentUser.readUInt32LE(16);
  }
  const offsets = new Map<number, number>();
  let docId: number | undefined;
  const seen = new Set<number>();
  while (edit !== undefined && edit > 0 && !seen.has(edit) && seen.size < 1000) {
    seen.add(edit);
    const atom = header(stream, edit, stream.length);
    if (!atom || atom.type !== RT.userEditAtom || atom.end - atom.body < 20) return scannedPersistDirectory(stream);
    docId ??= stream.readUInt32LE(atom.body + 16);
    const dir = header(stream, stream.readUInt32LE(atom.body + 12), stream.length);
    if (!dir || dir.type !== RT.persistDirectory) return scannedPersistDirectory(stream);
    // Newer edits come first in the chain and win.
    directoryEntries(stream, dir, (id, offset) => offsets.has(id) || offsets.set(id, offset));
    edit = stream.readUInt32LE(atom.body + 8) || undefined;
  }
  return docId !== undefined && offsets.size ? { offsets, docId } : scannedPersistDirectory(stream);
}

/**
 * Without a usable Current User stream (some writers leave it stale): the persist directories
 * and user edits found at the top level, in file order, later ones winning.
 */
function scannedPersistDirectory(stream: Buffer): PersistDirectory | undefined {
  const offsets = new Map<number, number>();
  let docId: number | undefined;
  for (const h of records(stream, 0, stream.length)) {
    if (h.type === RT.userEditAtom && h.end - h.body >= 20) docId = stream.readUInt32LE(h.body + 16);
    else if (h.type === RT.persistDirectory) directoryEntries(stream, h, (id, offset) => offsets.set(id, offset));
  }
  return docId !== undefined && offsets.size ? { offsets, docId } : undefined;
}

/** A PersistDirectoryAtom's entries: runs of consecutive persist ids (20 bits) with a count (12 bits), then their offsets. */
function directoryEntries(stream: Buffer, dir: RecordHeader, set: (id: number, offset: number) => void): void {
  let pos = dir.body;
  while (pos + 4 <= dir.end) {
    const entry = stream.readUInt32LE(pos);
    pos += 4;
    for (let i = 0; i < entry >>> 20 && pos + 4 <= dir.end; i++, pos += 4) {
      set((entry & 0xfffff) + i, stream.readUInt32LE(pos));
    }
  }
}

/** SlideListWithText: each SlidePersistAtom starts a slide; the text atoms after it are its outline text. */
function slideList(
  buf: Buffer,
  list: RecordHeader,
  model: DocumentModel,
  persists: Array<{ persistId: number; slideId: number }>,
): void {
  let current: TextRun[] | undefined;
  let lastType = 4;
  // A TextHeaderAtom's run waits for its characters.
  let held = false;
  for (const h of records(buf, list.body, list.end)) {
    if (h.type === RT.slidePersistAtom && h.end - h.body >= 16) {
      current = [];
      held = false;
      model.listed.push(current);
      const slideId = buf.readUInt32LE(h.body + 12);
      model.slideIds.push(slideId);
      persists.push({ persistId: buf.readUInt32LE(h.body), slideId });
    } else if (h.type === RT.textHeader && h.end - h.body >= 4) {
      lastType = buf.readUInt32LE(h.body);
      // OutlineTextRefAtoms count TextHeaderAtoms, so a text without characters (an empty title) keeps its place.
      current?.push({ type: lastType, text: '' });
      held = true;
    } else if ((h.type === RT.textChars || h.type === RT.textBytes) && current) {
      const text = decode(buf, h.body, h.end, h.type);
      if (held) current[current.length - 1]!.text = text;
      else current.push({ type: lastType, text });
      held = false;
    } else if (h.type === RT.styleTextProp && current?.length) {
      const run = current[current.length - 1]!;
      run.paragraphs ??= paragraphStyles(buf, h.body, h.end, run.text.length + 1);
    }
  }
}

/**
 * The PowerPoint 9 numbering of outline text (PowerPoint 97 placeholders' text kept in the
 * SlideListWithText): the Document's ___PPT9 tag (in its DocInfoList) holds, per text, an OutlineTextPropsHeaderExAtom
 * (slide id and text type) followed by that text's StyleTextProp9Atom. Keyed "slideId:type", in order.
 */
function outlineNumbering(buf: Buffer, container: RecordHeader, out: Map<string, AutoNumber[][]>, depth = 0): void {
  let key: string | undefined;
  for (const h of records(buf, container.body, container.end)) {
    if (h.type === RT.outlineTextPropsHeader && h.end - h.body >= 8) {
      key = `${buf.readUInt32LE(h.body)}:${buf.readUInt32LE(h.body + 4)}`;
    } else if (h.type === RT.styleTextProp9 && key !== undefined) {
      out.set(key, [...(out.get(key) ?? []), numbering(buf, h.body, h.end)]);
      key = undefined;
    } else if ((h.container || h.type === RT.binaryTagData) && depth < 4) {
      outlineNumbering(buf, h, out, depth + 1);
    }
  }
}

/** Gives each slide's outline text runs their numbering, the k-th text of a type on a slide the k-th entry for it. */
function numberOutline(model: DocumentModel, numbers: Map<string, AutoNumber[][]>): void {
  if (!numbers.size) return;
  model.listed.forEach((runs, i) => {
    const slideId = model.slideIds[i];
    if (slideId === undefined) return;
    const seen = new Map<number, number>();
    for (const run of runs) {
      if (!run.text) continue;
      const k = seen.get(run.type) ?? 0;
      seen.set(run.type, k + 1);
      run.numbered ??= numbers.get(`${slideId}:${run.type}`)?.[k];
    }
  });
}

/** ExObjList: the embedded objects (ExEmbed) with their program id and the persist id of their storage. */
function objectList(buf: Buffer, list: RecordHeader, model: DocumentModel, offsets?: Map<number, number>): void {
  for (const embed of records(buf, list.body, list.end)) {
    if (embed.type !== RT.exEmbed) continue;
    let id: number | undefined;
    let storage: number | undefined;
    let progId = '';
    for (const h of records(buf, embed.body, embed.end)) {
      if (h.type === RT.exOleObjAtom && h.end - h.body >= 20) {
        id = buf.readUInt32LE(h.body + 8);
        storage = offsets?.get(buf.readUInt32LE(h.body + 16));
      } else if (h.type === RT.cString && h.instance === 2) {
        progId = buf.subarray(h.body, h.end).toString('utf16le');
      }
    }
    const stg = storage !== undefined ? header(buf, storage, buf.length) : undefined;
    if (id !== undefined && stg) {
      model.objects.set(id, { progId, storage: buf.subarray(stg.body, stg.end), compressed: stg.instance === 1 });
    }
  }
}

function readSlide(
  buf: Buffer,
  offset: number,
  doc: DocumentModel,
  index: number,
  objects: (id: number) => Block[],
): Item[] {
  const slide = header(buf, offset, buf.length);
  if (!slide) return [];
  const context: SlideContext = { outline: doc.listed[index] ?? [], objects };
  return readDrawing(buf, slide.body, slide.end, 0, SLIDE_FRAME, context);
}

interface SlideContext {
  /** The slide's outline text in the SlideListWithText, which OutlineTextRefAtoms point into. */
  outline: TextRun[];
  objects: (id: number) => Block[];
}

/** The shapes (and loose text atoms) in [start, end), each at its position on the slide. */
function readDrawing(
  buf: Buffer,
  start: number,
  end: number,
  depth: number,
  frame: Frame,
  context: SlideContext | undefined,
): Item[] {
  const items: Item[] = [];
  let loose: TextRun[] | undefined;
  let lastType = 4;
  for (const h of records(buf, start, end)) {
    if (h.type === RT.groupContainer && depth < MAX_DEPTH) {
      items.push(...readGroup(buf, h, depth + 1, frame, context));
      loose = undefined;
    } else if (h.type === RT.shapeContainer) {
      const item = readShape(buf, h, frame, context);
      if (item) items.push(item);
      loose = undefined;
    } else if (h.type === RT.textHeader && h.end - h.body >= 4) {
      lastType = buf.readUInt32LE(h.body);
    } else if (h.type === RT.textChars || h.type === RT.textBytes) {
      if (!loose) {
        const last = items[items.length - 1];
        loose = [];
        items.push({ x: last?.x ?? 0, y: last?.y ?? 0, runs: loose });
      }
      loose.push({ type: lastType, text: decode(buf, h.body, h.end, h.type) });
    } else if (h.type === RT.styleTextProp && loose?.length) {
      const run = loose[loose.length - 1]!;
      run.paragraphs ??= paragraphStyles(buf, h.body, h.end, run.text.length + 1);
    } else if (h.container && depth < MAX_DEPTH && h.type !== RT.slideListWithText) {
      const inner = readDrawing(buf, h.body, h.end, depth + 1, frame, context);
      if (inner.length) loose = undefined;
      items.push(...inner);
    }
  }
  return items;
}

interface ShapeInfo {
  shapeType: number;
  properties: Map<number, number>;
  /** Anchor in the parent's coordinates: left, top, right, bottom. */
  anchor?: [number, number, number, number];
  /** The group's own coordinate space (OfficeArtFSPGR), for group shapes. */
  groupRect?: [number, number, number, number];
  runs: TextRun[];
  objectId?: number;
  /** Per paragraph run, numbered (from the StyleTextProp9Atom in the shape's PowerPoint 9 tag). */
  numbered?: AutoNumber[];
}

/** The atoms of one shape container. */
function shapeInfo(buf: Buffer, shape: RecordHeader): ShapeInfo {
  const info: ShapeInfo = { shapeType: 0, properties: new Map(), runs: [] };
  const rect = (h: RecordHeader, small: boolean): [number, number, number, number] | undefined => {
    if (small && h.end - h.body >= 8) {
      // SmallRectStruct: top, left, right, bottom.
      const [t, l, r, b] = [0, 2, 4, 6].map((o) => buf.readInt16LE(h.body + o)) as [number, number, number, number];
      return [l, t, r, b];
    }
    if (h.end - h.body >= 16) {
      const v = [0, 4, 8, 12].map((o) => buf.readInt32LE(h.body + o)) as [number, number, number, number];
      return v;
    }
    return undefined;
  };
  for (const h of records(buf, shape.body, shape.end)) {
    if (h.type === RT.shapeAtom) info.shapeType = h.instance;
    else if (h.type === RT.properties || h.type === RT.tertiaryProperties) {
      for (let i = 0; i < h.instance && h.body + i * 6 + 6 <= h.end; i++) {
        const id = buf.readUInt16LE(h.body + i * 6) & 0x3fff;
        info.properties.set(id, buf.readUInt32LE(h.body + i * 6 + 2));
      }
    } else if (h.type === RT.groupAtom) info.groupRect = rect(h, false);
    else if (h.type === RT.childAnchor) info.anchor = rect(h, false);
    else if (h.type === RT.clientAnchor) {
      // The slide anchor is a SmallRectStruct (8 bytes) or a RectStruct (16 bytes), both top, left, right, bottom.
      const r = rect(h, h.end - h.body < 16);
      info.anchor ??= r && (h.end - h.body < 16 ? r : [r[1], r[0], r[2], r[3]]);
    } else if (h.type === RT.clientData) {
      clientData(buf, h, info);
    } else if (h.type === RT.clientTextbox) {
      textbox(buf, h, info);
    }
  }
  return info;
}

/** A shape's client data: the embedded object it shows, and PowerPoint 2000's numbering of its paragraphs. */
function clientData(buf: Buffer, data: RecordHeader, info: ShapeInfo, depth = 0): void {
  for (const h of records(buf, data.body, data.end)) {
    if (h.type === RT.exObjRef && h.end - h.body >= 4) info.objectId = buf.readUInt32LE(h.body);
    else if (h.type === RT.styleTextProp9) info.numbered = numbering(buf, h.body, h.end);
    // ProgTags → ProgBinaryTag → BinaryTagDataBlob (an atom holding records) carry the StyleTextProp9Atom.
    else if ((h.container || h.type === 0x138b) && depth < 4) clientData(buf, h, info, depth + 1);
  }
}

/** The text of a shape: its own text atoms, or the outline text an OutlineTextRefAtom points to. */
function textbox(buf: Buffer, box: RecordHeader, info: ShapeInfo): void {
  let lastType = 4;
  for (const h of records(buf, box.body, box.end)) {
    if (h.type === RT.textHeader && h.end - h.body >= 4) lastType = buf.readUInt32LE(h.body);
    else if (h.type === RT.textChars || h.type === RT.textBytes) {
      info.runs.push({ type: lastType, text: decode(buf, h.body, h.end, h.type) });
    } else if (h.type === RT.styleTextProp && info.runs.length) {
      const run = info.runs[info.runs.length - 1]!;
      run.paragraphs ??= paragraphStyles(buf, h.body, h.end, run.text.length + 1);
    } else if (h.type === RT.outlineTextRef && h.end - h.body >= 4) {
      info.runs.push({ type: -1 - buf.readUInt32LE(h.body), text: '' });
    }
  }
}

function readShape(
  buf: Buffer,
  shape: RecordHeader,
  frame: Frame,
  context: SlideContext | undefined,
): Item | undefined {
  const info = shapeInfo(buf, shape);
  const runs = resolveRuns(info.runs, context);
  if (info.numbered) for (const r of runs) r.numbered ??= info.numbered;
  const pos = position(info, frame);
  const blocks = info.objectId !== undefined ? context?.objects(info.objectId) : undefined;
  if (!runs.length && !blocks?.length) return undefined;
  return { ...pos, runs, blocks: blocks?.length ? blocks : undefined };
}

/** A shape's text runs, an outline reference (stored as a negative type) replaced by the slide's listed text atom. */
function resolveRuns(runs: TextRun[], context: SlideContext | undefined): TextRun[] {
  return runs.flatMap((r) => {
    if (r.type >= 0) return [r];
    const listed = context?.outline[-1 - r.type];
    return listed ? [listed] : [];
  });
}

function position(info: ShapeInfo, frame: Frame): { x: number; y: number; w?: number; h?: number } {
  const a = info.anchor;
  if (!a) return frame.map(0, 0);
  const top = frame.map(a[0], a[1]);
  const bottom = frame.map(a[2], a[3]);
  return bottom.x > top.x && bottom.y > top.y ? { ...top, w: bottom.x - top.x, h: bottom.y - top.y } : top;
}

/** A group: a table when its shape is flagged as one, else its shapes with the group's coordinates mapped onto the slide. */
function readGroup(
  buf: Buffer,
  group: RecordHeader,
  depth: number,
  frame: Frame,
  context: SlideContext | undefined,
): Item[] {
  const children = [...records(buf, group.body, group.end)];
  const first = children[0]?.type === RT.shapeContainer ? shapeInfo(buf, children[0]) : undefined;
  const members = first ? children.slice(1) : children;
  if (first && (first.properties.get(TABLE_PROPERTIES) ?? 0) & 1) {
    const rows = tableRows(buf, members, context);
    if (rows.length) return [{ ...position(first, frame), runs: [], blocks: [{ type: 'table', rows }] }];
  }
  let inner = frame;
  const g = first?.groupRect;
  const a = first?.anchor;
  if (g && a && g[2] > g[0] && g[3] > g[1]) {
    const sx = (a[2] - a[0]) / (g[2] - g[0]);
    const sy = (a[3] - a[1]) / (g[3] - g[1]);
    inner = { map: (x, y) => frame.map(a[0] + (x - g[0]) * sx, a[1] + (y - g[1]) * sy) };
  }
  const items: Item[] = [];
  for (const h of members) {
    if (h.type === RT.shapeContainer) {
      const item = readShape(buf, h, inner, context);
      if (item) items.push(item);
    } else if (h.type === RT.groupContainer && depth < MAX_DEPTH)
      items.push(...readGroup(buf, h, depth + 1, inner, context));
  }
  return items;
}

/**
 * A PowerPoint table's cells are its group's child shapes laid on a grid: the distinct cell edges
 * give the columns and rows, and a merged cell spans several of them (its text is repeated in
 * each, as a reader sees the merged value across them). Border lines are skipped.
 */
function tableRows(buf: Buffer, members: RecordHeader[], context: SlideContext | undefined): Inline[][][] {
  const cells: Array<{ box: [number, number, number, number]; text: string }> = [];
  for (const h of members) {
    if (h.type !== RT.shapeContainer) continue;
    const info = shapeInfo(buf, h);
    const box = info.anchor;
    if (info.shapeType === LINE_SHAPE || !box || box[2] <= box[0] || box[3] <= box[1]) continue;
    const text = resolveRuns(info.runs, context)
      .map((r) => r.text)
      .join('\r')
      .split(/[\r\v\n]+/)
      .map((t) => t.trim())
      .filter(Boolean)
      .join(' ');
    cells.push({ box, text });
  }
  if (!cells.length || cells.length > 10_000) return [];
  const edges = (values: number[], smallestCell: number): number[] => {
    const sorted = [...new Set(values)].sort((a, b) => a - b);
    // Edges a few units apart are the same grid line drawn with rounding, unless cells are that small:
    // LibreOffice writes its tables' rows one unit tall, stacked, and sizes them when drawing.
    const rounding = Math.min(GRID_ROUNDING, (smallestCell - 1) / 2);
    return sorted.filter((v, i) => i === 0 || v - sorted[i - 1]! > rounding);
  };
  const smallest = (side: 0 | 1): number =>
    cells.reduce((m, c) => Math.min(m, c.box[side + 2]! - c.box[side]!), Infinity);
  const xs = edges(
    cells.flatMap((c) => [c.box[0], c.box[2]]),
    smallest(0),
  );
  const ys = edges(
    cells.flatMap((c) => [c.box[1], c.box[3]]),
    smallest(1),
  );
  /** The grid line nearest to v (binary search: a table of thousands of cells stays linear-logarithmic). */
  const index = (lines: number[], v: number): number => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lines[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && v - lines[lo - 1]! < lines[lo]! - v ? lo - 1 : lo;
  };
  const width = xs.length - 1;
  const height = ys.length - 1;
  if (width < 1 || height < 1 || width * height > 100_000) return [];
  const grid: string[][] = Array.from({ length: height }, () => Array<string>(width).fill(''));
  // Overlapping hostile cells could each span the whole grid: filling stops at a bounded amount of work.
  let budget = 1_000_000;
  for (const { box, text } of cells) {
    const [c0, c1] = [index(xs, box[0]), index(xs, box[2])];
    const [r0, r1] = [index(ys, box[1]), index(ys, box[3])];
    for (let r = r0; r < Math.max(r1, r0 + 1) && r < height && budget > 0; r++) {
      for (let c = c0; c < Math.max(c1, c0 + 1) && c < width; c++, budget--) grid[r]![c] = text;
    }
  }
  return grid.map((row) => row.map((cell) => [plain(cell)]));
}

/** The slide id a notes container belongs to (its NotesAtom's slideIdRef); the notes master's has the high bit set or is 0. */
function notesSlideId(buf: Buffer, start: number, end: number): number | undefined {
  return start + 12 <= end && buf.readUInt16LE(start + 2) === RT.notesAtom ? buf.readUInt32LE(start + 8) : undefined;
}

/** The paragraph runs of a StyleTextPropAtom: character count, explicit bullet flag and indent level. */
function paragraphStyles(buf: Buffer, start: number, end: number, textLength: number): TextRun['paragraphs'] {
  const out: NonNullable<TextRun['paragraphs']> = [];
  let pos = start;
  let covered = 0;
  try {
    while (covered < textLength && pos + 10 <= end) {
      const chars = buf.readUInt32LE(pos);
      const level = buf.readUInt16LE(pos + 4);
      const masks = buf.readUInt32LE(pos + 6);
      pos += 10;
      let bullet: boolean | undefined;
      for (const [mask, size] of PF_FIELDS) {
        if (!(masks & mask)) continue;
        if (mask === 0x000f && masks & 0x0001) bullet = (buf.readUInt16LE(pos) & 1) === 1;
        pos += size;
      }
      if (masks & 0x100000) pos += 2 + buf.readUInt16LE(pos) * 4; // tabStops
      if (masks & 0x10000) pos += 2; // fontAlign
      if (masks & 0xe0000) pos += 2; // wrapFlags
      if (masks & 0x200000) pos += 2; // textDirection
      out.push({ chars, bullet, level: Math.min(level, 4) });
      covered += chars;
    }
  } catch {
    // A truncated atom keeps what was read.
  }
  return out;
}

/**
 * The StyleTextProp9Atom: per paragraph run, a TextPFException9 (whether the bullet is an
 * automatic number), a TextCFException9 and a TextSIException, whose optional fields the masks announce.
 */
function numbering(buf: Buffer, start: number, end: number): AutoNumber[] {
  const out: AutoNumber[] = [];
  let pos = start;
  try {
    while (pos + 12 <= end && out.length < 10_000) {
      const pf = buf.readUInt32LE(pos);
      pos += 4;
      if (pf & 0x00800000) pos += 2; // bulletBlipRef
      let numbered: boolean | undefined;
      let first = 1;
      if (pf & 0x02000000) {
        numbered = buf.readUInt16LE(pos) !== 0; // fBulletHasAutoNumber
        pos += 2;
      }
      if (pf & 0x01000000) {
        // bulletAutoNumberScheme: the scheme (1., a), i. …), then the number the list starts at.
        numbered ??= true;
        first = buf.readInt16LE(pos + 2);
        pos += 4;
      }
      out.push(numbered === undefined ? undefined : numbered && { start: first >= 0 ? first : 1 });
      const cf = buf.readUInt32LE(pos);
      pos += 4;
      if (cf & 0x00100000) pos += 4; // pp10ext
      const si = buf.readUInt32LE(pos);
      pos += 4;
      for (const bit of [0x1, 0x2, 0x4, 0x40]) if (si & bit) pos += 2; // spell, lang, altLang, bidi
      if (si & 0x20) pos += 4; // pp10ext
      if (si & 0x200) pos += 4 + buf.readUInt32LE(pos) * 4; // smartTags
    }
  } catch {
    // A truncated atom keeps what was read.
  }
  return out;
}

function decode(buf: Buffer, start: number, end: number, type: number): string {
  return type === RT.textChars
    ? buf.subarray(start, end).toString('utf16le')
    : buf.subarray(start, end).toString('latin1');
}

function toSlide(items: Item[], noteRuns: TextRun[]): SlideModel {
  const runs = items.flatMap((i) => i.runs);
  const titleRun = runs.find((r) => TITLE_TYPES.has(r.type) && r.text.trim()) ?? drawnTitle(items);
  const title = titleRun?.text.replace(/[\r\v]+/g, ' ').trim() ?? '';
  const blocks: Block[] = [];
  for (const item of items) {
    for (const run of item.runs) {
      if (run === titleRun) continue;
      if (TITLE_TYPES.has(run.type) && run.text.replace(/[\r\v]+/g, ' ').trim() === title) continue;
      blocks.push(...paragraphsToBlocks(runParagraphs(run)));
    }
    if (item.blocks) blocks.push(...item.blocks);
  }
  const notes = noteRuns
    .filter((r) => r.type === 2 || r.type === 1)
    .flatMap((r) => r.text.split(/\r/).map((t) => t.trim()));
  return { title, blocks, notes: notes.filter((n) => n && !/^\d+$/.test(n)) };
}

/**
 * The title of a slide without a title placeholder: its topmost text, when that is a plain box
 * (not a body placeholder) of one short unbulleted line. LibreOffice's PPT export writes a title
 * slide's centred title so, as a plain text box.
 */
function drawnTitle(items: Item[]): TextRun | undefined {
  const first = items.find((i) => i.blocks?.length || i.runs.some((r) => r.text.trim()));
  const run = first?.blocks?.length || first?.runs.length !== 1 ? undefined : first.runs[0]!;
  if (!run || run.type !== OTHER_TEXT || run.paragraphs?.some((p) => p.bullet)) return undefined;
  const text = run.text.trim();
  return text.length <= MAX_DRAWN_TITLE && !/[\r\v]/.test(text) && /\p{L}/u.test(text) ? run : undefined;
}

/**
 * A text run's paragraphs with their bullets: numbered, bulleted (explicitly, or by a body
 * placeholder's master) or plain. A bulleted paragraph run whose PowerPoint 9 numbering says
 * nothing continues the numbered list right before it at the same level (PowerPoint splits a
 * list into runs when any other property changes); a numbered list keeps its start number.
 */
function runParagraphs(run: TextRun): ParagraphModel[] {
  const paragraphs: ParagraphModel[] = [];
  // Body placeholders are bulleted by their master unless a paragraph turns it off; other boxes only when turned on.
  const byDefault = run.type === 1 || run.type === 7 || run.type === 8;
  const styles = run.paragraphs ?? [];
  let styleIndex = 0;
  let styleLeft = styles[0]?.chars ?? Infinity;
  let previous: ParagraphModel | undefined;
  let startedRun = -1;
  for (const line of run.text.split(/\r/)) {
    const style = styles[styleIndex];
    const text = line.replace(/\v/g, ' ').trim();
    const bulleted = style?.bullet ?? byDefault;
    if (text && !/^\*$/.test(text)) {
      const level = bulleted ? (style?.level ?? 0) : 0;
      const auto = run.numbered?.[styleIndex];
      const continues = previous?.bullet === 'number' && previous.level === level;
      const numbered = bulleted && (auto === undefined ? continues : auto !== false);
      const paragraph: ParagraphModel = { text, level, bullet: numbered ? 'number' : bulleted ? 'bullet' : 'none' };
      if (numbered && auto && startedRun !== styleIndex && !continues) paragraph.start = auto.start;
      if (numbered) startedRun = styleIndex;
      paragraphs.push(paragraph);
      previous = paragraph;
    }
    // Move to the style run that covers the next paragraph.
    styleLeft -= line.length + 1;
    while (styleLeft <= 0 && styleIndex + 1 < styles.length) {
      styleIndex++;
      styleLeft += styles[styleIndex]!.chars;
    }
  }
  return paragraphs;
}
