import type { Chunk, Page } from '@markwright/contracts/src/structure';
import { chunkPlaces } from '../writers/chunk-places';

/**
 * A page as it crosses from the worker thread: its Markdown is either sent (`markdown`) or, when it
 * is a stretch of the document's Markdown (pages always are, E1's join), named by where it stands
 * there (`at`, `length`); chunks are named so too, in columns (`ChunkColumns`). The document's
 * Markdown crosses once instead of up to three times (it, its pages, its chunks): structured
 * cloning copies every string twice.
 */
type SentPage = Omit<Page, 'markdown'> & { markdown?: string; at?: number; length?: number };

export interface StructureSent {
  markdown: string;
  pages?: SentPage[];
  chunks?: ChunkColumns;
}

/**
 * The chunks as they cross, in columns: structured cloning copies every object, array and string
 * one by one (~550 chunks of the 1 MB HTML, each with two arrays and its headings' texts, cost
 * ~0.6 ms of CPU between the two threads), a few typed arrays and one table of texts at once.
 * Chunk i's numbers are `numbers[i * CHUNK_FIELDS ...]`, in the order of the constants below.
 */
export interface ChunkColumns {
  /**
   * Per chunk: its index and tokens; where its Markdown stands in the document (`at`, -1: the
   * chunk is the next of `whole`; `length`); its repeated table header (a text's place in `texts`,
   * -1: none); its pages and its headings, each n >= 0 (a list of n, the next n of `pageNumbers`
   * or `headings`) or -k - 1 (the very list of chunk k, which the writer shares between neighbours).
   */
  numbers: Int32Array;
  /** The chunks' lists of pages, one after another. */
  pageNumbers: Int32Array;
  /** The chunks' lists of headings, one after another, each heading by its text's place in `texts`. */
  headings: Int32Array;
  /** Every heading's text and table header, once each. */
  texts: string[];
  /** Chunks sent as they are, in order: not a stretch of the document, or with values columns do not hold. */
  whole: Chunk[];
}

/** Numbers per chunk in `ChunkColumns.numbers`, and their places. */
const CHUNK_FIELDS = 7;
const INDEX = 0;
const TOKENS = 1;
const AT = 2;
const LENGTH = 3;
const HEAD = 4;
const PAGES = 5;
const HEADINGS = 6;

/** `result` with its pages' and chunks' Markdown named by place where it stands in `result.markdown` (in the worker). */
export function sendStructure<R extends { markdown: string; pages?: Page[]; chunks?: Chunk[] }>(
  result: R,
): Omit<R, 'pages' | 'chunks'> & StructureSent {
  const document = result.markdown;
  const sent: Omit<R, 'pages' | 'chunks'> & StructureSent = { ...result, pages: undefined, chunks: undefined };
  if (result.pages) {
    const places = new Places(document);
    sent.pages = result.pages.map((page) => {
      const at = places.locate(page.markdown);
      return places.passed(at, page.markdown.length) ? { number: page.number, at, length: page.markdown.length } : page;
    });
  } else delete sent.pages;
  if (result.chunks) {
    const places = new Places(document);
    // Cut by the chunk writer from this document: their places are known, not looked for.
    const recorded = chunkPlaces(result.chunks);
    const known = recorded?.document === document ? recorded.places : [];
    const columns = new ColumnWriter(result.chunks.length);
    result.chunks.forEach((chunk, i) => {
      const place = known[i];
      if (place) {
        places.passed(place.at, place.length);
        columns.add(chunk, place.at, place.length, place.head);
        return;
      }
      const { markdown } = chunk;
      let head = '';
      let at = places.locate(markdown);
      if (at < 0 && (head = TABLE_HEADER.exec(markdown)?.[0] ?? '')) {
        // A continuation of a table: its header and delimiter rows, then a stretch of the document.
        at = places.locate(markdown.slice(head.length));
      }
      const length = markdown.length - head.length;
      if (places.passed(at, length)) columns.add(chunk, at, length, head);
      else columns.addWhole(chunk);
    });
    sent.chunks = columns.finish();
  } else delete sent.chunks;
  return sent;
}

/** What `sendStructure` sent, with every page's and chunk's Markdown again (on the calling thread). */
export function receiveStructure<R extends StructureSent>(
  sent: R,
): Omit<R, 'pages' | 'chunks'> & { pages?: Page[]; chunks?: Chunk[] } {
  const document = sent.markdown;
  const text = (page: SentPage): string => page.markdown ?? document.slice(page.at!, page.at! + page.length!);
  const received: Omit<R, 'pages' | 'chunks'> & { pages?: Page[]; chunks?: Chunk[] } = {
    ...sent,
    pages: undefined,
    chunks: undefined,
  };
  if (sent.pages) received.pages = sent.pages.map((p) => ({ number: p.number, markdown: text(p) }));
  else delete received.pages;
  if (sent.chunks) received.chunks = readColumns(sent.chunks, document);
  else delete received.chunks;
  return received;
}

/** Chunks into columns (in the worker), in order. */
class ColumnWriter {
  private readonly numbers: Int32Array;
  private count = 0;
  private readonly pageNumbers: number[] = [];
  private readonly headings: number[] = [];
  private readonly texts: string[] = [];
  private readonly textPlaces = new Map<string, number>();
  private readonly whole: Chunk[] = [];
  /** The last chunk added to the columns, and its place among the chunks. */
  private previous: Chunk | undefined;
  private previousAt = -1;
  /** Where the lists of the previous chunk, or the chunk it shares them with, were first sent. */
  private pagesOf = -1;
  private headingsOf = -1;

  constructor(chunks: number) {
    this.numbers = new Int32Array(chunks * CHUNK_FIELDS);
  }

  /** A chunk whose Markdown is `head`, then `length` characters of the document from `at`. */
  add(chunk: Chunk, at: number, length: number, head: string): void {
    const { index, tokens, pages, headings } = chunk;
    if (!isInt32(index) || !isInt32(tokens) || !pages.every(isInt32) || !headings.every(isText)) {
      this.addWhole(chunk);
      return;
    }
    const i = this.count++;
    const row = i * CHUNK_FIELDS;
    const numbers = this.numbers;
    numbers[row + INDEX] = index;
    numbers[row + TOKENS] = tokens;
    numbers[row + AT] = at;
    numbers[row + LENGTH] = length;
    numbers[row + HEAD] = head ? this.text(head) : -1;
    // The writer shares a list between neighbours: it crosses once, and is received shared.
    const neighbour = this.previousAt === i - 1 ? this.previous : undefined;
    if (neighbour?.pages === pages) numbers[row + PAGES] = -this.pagesOf - 1;
    else {
      numbers[row + PAGES] = pages.length;
      for (const page of pages) this.pageNumbers.push(page);
      this.pagesOf = i;
    }
    if (neighbour?.headings === headings) numbers[row + HEADINGS] = -this.headingsOf - 1;
    else {
      numbers[row + HEADINGS] = headings.length;
      for (const heading of headings) this.headings.push(this.text(heading));
      this.headingsOf = i;
    }
    this.previous = chunk;
    this.previousAt = i;
  }

  /** A chunk sent as it is. */
  addWhole(chunk: Chunk): void {
    const row = this.count++ * CHUNK_FIELDS;
    this.numbers[row + AT] = -1;
    this.whole.push(chunk);
  }

  finish(): ChunkColumns {
    return {
      numbers: this.numbers,
      pageNumbers: Int32Array.from(this.pageNumbers),
      headings: Int32Array.from(this.headings),
      texts: this.texts,
      whole: this.whole,
    };
  }

  /** `text`'s place in the table of texts. */
  private text(text: string): number {
    let at = this.textPlaces.get(text);
    if (at === undefined) {
      at = this.texts.push(text) - 1;
      this.textPlaces.set(text, at);
    }
    return at;
  }
}

/** The chunks sent in `columns`, their Markdown taken from `document` (on the calling thread). */
function readColumns(columns: ChunkColumns, document: string): Chunk[] {
  const { numbers, pageNumbers, headings: headingTexts, texts, whole } = columns;
  // Filled in order by push, as the lists: arrays made by length have holes for V8, a slower kind.
  const chunks: Chunk[] = [];
  let nextWhole = 0;
  let nextPage = 0;
  let nextHeading = 0;
  for (let row = 0; row < numbers.length; row += CHUNK_FIELDS) {
    const at = numbers[row + AT]!;
    if (at < 0) {
      chunks.push(whole[nextWhole++]!);
      continue;
    }
    const head = numbers[row + HEAD]!;
    const stretch = document.slice(at, at + numbers[row + LENGTH]!);
    const pageCount = numbers[row + PAGES]!;
    let pages: number[];
    if (pageCount < 0) pages = chunks[-pageCount - 1]!.pages;
    else {
      pages = [];
      for (let p = 0; p < pageCount; p++) pages.push(pageNumbers[nextPage++]!);
    }
    const headingCount = numbers[row + HEADINGS]!;
    let headings: string[];
    if (headingCount < 0) headings = chunks[-headingCount - 1]!.headings;
    else {
      headings = [];
      for (let h = 0; h < headingCount; h++) headings.push(texts[headingTexts[nextHeading++]!]!);
    }
    chunks.push({
      index: numbers[row + INDEX]!,
      markdown: head < 0 ? stretch : texts[head]! + stretch,
      tokens: numbers[row + TOKENS]!,
      pages,
      headings,
    });
  }
  return chunks;
}

/** A number an Int32Array gives back as it is (not -0). */
function isInt32(value: unknown): value is number {
  return typeof value === 'number' && (value | 0) === value && (value !== 0 || 1 / value > 0);
}

function isText(value: unknown): value is string {
  return typeof value === 'string';
}

/** A table's header and delimiter rows at the start of a chunk. */
const TABLE_HEADER = /^\|[^\n]*\n\|(?: *:?-+:? *\|)+\n/;

/**
 * Where parts stand in a document, found in order: each where the last one ended, after the white
 * space that joins them (pages, chunks), or within what the parts sent as they are since then
 * spanned. -1 when not found (an empty part is sent as it is).
 */
class Places {
  private from = 0;
  /** Characters of parts not found since the last one found: how far ahead the next may be. */
  private skipped = 0;

  constructor(private readonly document: string) {}

  /** Where `part` stands: at the next place, or within what was skipped; -1 when not found. */
  locate(part: string): number {
    if (!part) return -1;
    let at = this.from;
    while (at < this.document.length && WHITE_SPACE.test(this.document[at]!)) at++;
    // A slice compared whole: several times faster in V8 than startsWith on a long document.
    if (this.document.slice(at, at + part.length) === part) return at;
    if (!this.skipped) return -1;
    const found = this.document.slice(this.from, this.from + this.skipped + part.length + SLACK).indexOf(part);
    return found < 0 ? -1 : this.from + found;
  }

  /** Moves past a part of `length` found at `at` (true), or past one not found (at -1: false). */
  passed(at: number, length: number): boolean {
    if (at < 0) {
      this.skipped += length + SLACK;
      return false;
    }
    this.from = at + length;
    this.skipped = 0;
    return true;
  }
}

/** What may stand between two parts beyond their lengths (joining white space). */
const SLACK = 16;

const WHITE_SPACE = /\s/;
