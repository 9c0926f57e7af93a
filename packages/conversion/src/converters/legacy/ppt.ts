import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import { renderMarkdown } from '../../markdown/writer';
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
} as const;
const TITLE_TYPES = new Set([0, 6]);
const MAX_DEPTH = 32;

interface TextRun {
  type: number;
  text: string;
}

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
    const notes: TextRun[][] = [];
    const listed: TextRun[][] = [];
    walk(stream, 0, stream.length, 0, { slides, notes, listed, target: undefined, lastType: 4 });
    const source = slides.some((s) => s.length) ? slides : listed;
    const models: SlideModel[] = source.map((runs, i) => toSlide(runs, notes[i] ?? []));
    const info = summaryInformation(cfb);
    return {
      markdown: renderMarkdown(renderSlides(models)),
      metadata: { title: info.title, author: info.author, page_count: models.length },
    };
  },
};

interface WalkState {
  slides: TextRun[][];
  notes: TextRun[][];
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
      if (type === RT.mainMaster) st.target = undefined;
      else {
        st.target = [];
        (type === RT.slide ? st.slides : st.notes).push(st.target);
      }
      if (type !== RT.mainMaster && depth < MAX_DEPTH) walk(buf, body, next, depth + 1, st);
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
    } else if (isContainer && depth < MAX_DEPTH) {
      walk(buf, body, next, depth + 1, st);
    }
    pos = next;
  }
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
    } else if (type === RT.textHeader && len >= 4) st.lastType = buf.readUInt32LE(body);
    else if ((type === RT.textChars || type === RT.textBytes) && current) {
      current.push({ type: st.lastType, text: decode(buf, body, body + len, type) });
    }
    pos = body + len;
  }
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
    const bullet: ParagraphModel['bullet'] = run.type === 1 || run.type === 7 || run.type === 8 ? 'bullet' : 'none';
    for (const line of run.text.split(/\r/)) {
      const text = line.replace(/\v/g, ' ').trim();
      if (text && !/^\*$/.test(text)) paragraphs.push({ text, level: 0, bullet });
    }
  }
  const notes = noteRuns
    .filter((r) => r.type === 2 || r.type === 1)
    .flatMap((r) => r.text.split(/\r/).map((t) => t.trim()));
  return { title, blocks: paragraphsToBlocks(paragraphs), notes: notes.filter((n) => n && !/^\d+$/.test(n)) };
}
