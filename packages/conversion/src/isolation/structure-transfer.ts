import type { Chunk, Page } from '@markwright/contracts/src/structure';
import { chunkPlaces } from '../writers/chunk-places';

/**
 * A page or chunk as it crosses from the worker thread: its Markdown is either sent (`markdown`)
 * or, when it is a stretch of the document's Markdown (pages always are, E1's join; most chunks
 * too, E3's), named by where it stands there (`at`, `length`), after `head` (a continuation
 * chunk's repeated table header). The document's Markdown crosses once instead of up to three
 * times (it, its pages, its chunks): structured cloning copies every string twice.
 */
type Sent<T extends { markdown: string }> = Omit<T, 'markdown'> & {
  markdown?: string;
  at?: number;
  length?: number;
  head?: string;
};

export interface StructureSent {
  markdown: string;
  pages?: Array<Sent<Page>>;
  chunks?: Array<Sent<Chunk>>;
}

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
    sent.chunks = result.chunks.map((chunk, i) => {
      const { markdown, index, tokens, pages, headings } = chunk;
      const place = known[i];
      if (place) {
        places.passed(place.at, place.length);
        const { at, length, head } = place;
        return head
          ? { index, tokens, pages, headings, at, length, head }
          : { index, tokens, pages, headings, at, length };
      }
      let head = '';
      let at = places.locate(markdown);
      if (at < 0 && (head = TABLE_HEADER.exec(markdown)?.[0] ?? '')) {
        // A continuation of a table: its header and delimiter rows, then a stretch of the document.
        at = places.locate(markdown.slice(head.length));
      }
      const length = markdown.length - head.length;
      if (!places.passed(at, length)) return chunk;
      return head
        ? { index, tokens, pages, headings, at, length, head }
        : { index, tokens, pages, headings, at, length };
    });
  } else delete sent.chunks;
  return sent;
}

/** What `sendStructure` sent, with every page's and chunk's Markdown again (on the calling thread). */
export function receiveStructure<R extends StructureSent>(
  sent: R,
): Omit<R, 'pages' | 'chunks'> & { pages?: Page[]; chunks?: Chunk[] } {
  const document = sent.markdown;
  const text = (part: { markdown?: string; at?: number; length?: number; head?: string }): string =>
    part.markdown ?? (part.head ?? '') + document.slice(part.at!, part.at! + part.length!);
  const received: Omit<R, 'pages' | 'chunks'> & { pages?: Page[]; chunks?: Chunk[] } = {
    ...sent,
    pages: undefined,
    chunks: undefined,
  };
  if (sent.pages) received.pages = sent.pages.map((p) => ({ number: p.number, markdown: text(p) }));
  else delete received.pages;
  if (sent.chunks) {
    received.chunks = sent.chunks.map((c) => ({
      index: c.index,
      markdown: text(c),
      tokens: c.tokens,
      pages: c.pages,
      headings: c.headings,
    }));
  } else delete received.chunks;
  return received;
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
