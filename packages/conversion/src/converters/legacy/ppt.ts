import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import { documentOutput } from '../../markdown/writer';
import { paragraphsToBlocks, renderSlides, type ParagraphModel, type SlideModel } from '../presentation/slides';
import { openCompoundFile, streamOf, summaryInformation } from './ole';

const RT = {
  slide: 0x03ee,
  notes: 0x03f0,
  mainMaster: 0x03f8,
  slideListWithText: 0x0ff0,
  slidePersistAtom: 0x03f3,
  textHeader: 0x0f9f,
  textChars: 0x0fa0,
  textBytes: 0x0fa8,
  styleTextProp: 0x0fa1,
  notesAtom: 0x03f1,
} as const;
const TITLE_TYPES = new Set([0, 6]);
const MAX_DEPTH = 32;

interface TextRun {
  type: number;
  text: string;
  /** Per paragraph, from the StyleTextPropAtom after the text: explicit bullet on/off and indent level. */
  paragraphs?: Array<{ chars: number; bullet?: boolean; level: number }>;
}

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
 * PPT (PowerPoint 97-2003): walks the records of the "PowerPoint Document" stream. Text comes
 * from each slide container's text boxes (title vs body by the TextHeaderAtom), falling back
 * to the SlideListWithText atoms of older files; notes containers give speaker notes.
 */
export const pptConverter: Converter = {
  name: 'ppt',
  extensions: ['ppt'],
  async convert(input) {
    const cfb = openCompoundFile(input, 'PPT file');
    const stream = streamOf(cfb, 'PowerPoint Document');
    if (!stream) throw new ConversionError('corrupt_file', 'The PPT file has no PowerPoint Document stream.');
    if (streamOf(cfb, 'EncryptedSummary'))
      throw new ConversionError('encrypted_file', 'The PPT file is password-protected.');
    const slides: TextRun[][] = [];
    const notes: WalkState['notes'] = [];
    const listed: TextRun[][] = [];
    const slideIds: number[] = [];
    walk(stream, 0, stream.length, 0, { slides, notes, slideIds, listed, target: undefined, lastType: 4 });
    const source = slides.some((s) => s.length) ? slides : listed;
    // Notes belong to the slide whose id they name; files without ids pair them in order.
    const notesOf = (i: number): TextRun[] =>
      slideIds.length ? (notes.find((n) => n.slideId === slideIds[i])?.runs ?? []) : (notes[i]?.runs ?? []);
    const models: SlideModel[] = source.map((runs, i) => toSlide(runs, notesOf(i)));
    const info = summaryInformation(cfb);
    return documentOutput(renderSlides(models), { title: info.title, author: info.author, page_count: models.length });
  },
};

interface WalkState {
  slides: TextRun[][];
  notes: Array<{ slideId?: number; runs: TextRun[] }>;
  /** Slide ids in presentation order, from the SlideListWithText. */
  slideIds: number[];
  listed: TextRun[][];
  target: TextRun[] | undefined;
  lastType: number;
}

function walk(buf: Buffer, start: number, end: number, depth: number, st: WalkState): void {
  let pos = start;
  while (pos + 8 <= end) {
    const verInstance = buf.readUInt16LE(pos);
    const type = buf.readUInt16LE(pos + 2);
    const len = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    const next = body + len;
    if (next > end || len > buf.length) return;
    const isContainer = (verInstance & 0x0f) === 0x0f;
    if (type === RT.slide || type === RT.notes || type === RT.mainMaster) {
      const saved = st.target;
      const slideId = type === RT.notes ? notesSlideId(buf, body, next) : undefined;
      const notesMaster = type === RT.notes && (slideId === 0 || (slideId ?? 0) >= 0x80000000);
      if (type === RT.mainMaster || notesMaster) st.target = undefined;
      else {
        st.target = [];
        if (type === RT.slide) st.slides.push(st.target);
        else st.notes.push({ slideId, runs: st.target });
      }
      if (st.target && depth < MAX_DEPTH) walk(buf, body, next, depth + 1, st);
      st.target = saved;
    } else if (type === RT.slideListWithText) {
      const instance = verInstance >> 4;
      const saved = st.target;
      st.target = undefined;
      if (instance === 0) walkList(buf, body, next, st);
      st.target = saved;
    } else if (type === RT.textHeader && len >= 4) {
      st.lastType = buf.readUInt32LE(body);
    } else if ((type === RT.textChars || type === RT.textBytes) && st.target) {
      st.target.push({ type: st.lastType, text: decode(buf, body, next, type) });
    } else if (type === RT.styleTextProp && st.target?.length) {
      const run = st.target[st.target.length - 1]!;
      run.paragraphs ??= paragraphStyles(buf, body, next, run.text.length + 1);
    } else if (isContainer && depth < MAX_DEPTH) {
      walk(buf, body, next, depth + 1, st);
    }
    pos = next;
  }
}

/** The slide id a notes container belongs to (its NotesAtom's slideIdRef); the notes master's has the high bit set or is 0. */
function notesSlideId(buf: Buffer, start: number, end: number): number | undefined {
  return start + 12 <= end && buf.readUInt16LE(start + 2) === RT.notesAtom ? buf.readUInt32LE(start + 8) : undefined;
}

/** SlideListWithText: each SlidePersistAtom starts a slide; the text atoms after it are its text. */
function walkList(buf: Buffer, start: number, end: number, st: WalkState): void {
  let pos = start;
  let current: TextRun[] | undefined;
  while (pos + 8 <= end) {
    const type = buf.readUInt16LE(pos + 2);
    const len = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (body + len > end) return;
    if (type === RT.slidePersistAtom) {
      current = [];
      st.listed.push(current);
      if (len >= 16) st.slideIds.push(buf.readUInt32LE(body + 12));
    } else if (type === RT.textHeader && len >= 4) st.lastType = buf.readUInt32LE(body);
    else if ((type === RT.textChars || type === RT.textBytes) && current) {
      current.push({ type: st.lastType, text: decode(buf, body, body + len, type) });
    }
    pos = body + len;
  }
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

function decode(buf: Buffer, start: number, end: number, type: number): string {
  return type === RT.textChars
    ? buf.subarray(start, end).toString('utf16le')
    : buf.subarray(start, end).toString('latin1');
}

function toSlide(runs: TextRun[], noteRuns: TextRun[]): SlideModel {
  const title =
    runs
      .find((r) => TITLE_TYPES.has(r.type))
      ?.text.replace(/[\r\v]+/g, ' ')
      .trim() ?? '';
  const paragraphs: ParagraphModel[] = [];
  for (const run of runs) {
    if (TITLE_TYPES.has(run.type) && run.text.replace(/[\r\v]+/g, ' ').trim() === title) continue;
    // Body placeholders are bulleted by their master unless a paragraph turns it off; other boxes only when turned on.
    const byDefault = run.type === 1 || run.type === 7 || run.type === 8;
    const styles = run.paragraphs ?? [];
    let styleIndex = 0;
    let styleLeft = styles[0]?.chars ?? Infinity;
    for (const line of run.text.split(/\r/)) {
      const style = styles[styleIndex];
      const text = line.replace(/\v/g, ' ').trim();
      const bulleted = style?.bullet ?? byDefault;
      if (text && !/^\*$/.test(text)) {
        paragraphs.push({ text, level: bulleted ? (style?.level ?? 0) : 0, bullet: bulleted ? 'bullet' : 'none' });
      }
      // Move to the style run that covers the next paragraph.
      styleLeft -= line.length + 1;
      while (styleLeft <= 0 && styleIndex + 1 < styles.length) {
        styleIndex++;
        styleLeft += styles[styleIndex]!.chars;
      }
    }
  }
  const notes = noteRuns
    .filter((r) => r.type === 2 || r.type === 1)
    .flatMap((r) => r.text.split(/\r/).map((t) => t.trim()));
  return { title, blocks: paragraphsToBlocks(paragraphs), notes: notes.filter((n) => n && !/^\d+$/.test(n)) };
}
