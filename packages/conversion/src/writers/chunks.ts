import type { Chunk } from '@markwright/contracts/src/structure';
import type { Block } from '../document/model';
import { inlineText } from '../document/predicates';
import { CONTROL_CHARACTER, withoutControlCharacters } from '../document/control-characters';
import { countTokens, TokenIndex } from '../tokens/count';
import { type ChunkPlaces, chunkPlaces, recordChunkPlaces } from './chunk-places';
import type { PageBlocks } from './pages';

/**
 * A unit the chunker never cuts inside (a block, a table row, a list item, a code line, a
 * sentence): its Markdown, how it joins the unit before it, and where it comes from.
 */
interface Piece {
  markdown: string;
  /** What stands between this piece and the one before it in the Markdown: "\n\n" between blocks. */
  joiner: string;
  tokens: number;
  page: number;
  /** Texts of the headings enclosing the block the piece is from, outermost first. */
  headings: string[];
  /** The piece is a heading block: a chunk may always start here. */
  heading: boolean;
  /** A table's header and delimiter rows, on the rows after its first piece (repeated when a chunk starts there). */
  tableHeader?: string;
  /** Where `markdown` stands in the document's Markdown; -1 when it is not found there as it is. */
  at: number;
  /** The counter's marks at the piece's start and end (StretchCounter.mark); -1 when it has none. */
  startMark: number;
  endMark: number;
}

/**
 * E3's chunks, cut from the Markdown as written: `markdownOf` is a block written alone by the
 * writer of the whole document, `document` the document's Markdown, in which each block is found
 * so that every count is a stretch of one split of the whole text (TokenIndex) instead of a new
 * pass of the tokenizer. Blocks are packed into chunks of at most `maxTokens` o200k tokens, a
 * chunk preferably ending before a heading; a block larger than the limit is cut between table
 * rows (the header and delimiter rows repeated at the start of each continuation chunk), list
 * items or code lines, and a unit larger than the limit at sentence, then word, then character
 * boundaries.
 */
export function writeChunks(
  groups: PageBlocks[],
  maxTokens: number,
  markdownOf: (block: Block, written: string) => string,
  document: string,
): Chunk[] {
  return chunksOf(groups, maxTokens, markdownOf, document, false)!;
}

/**
 * writeChunks when neither the document nor a chunk holds a control character (CONTROL_CHARACTER),
 * else undefined (the caller strips them and chunks again). The token index's scan of the document
 * tells, so a document is not tested by a pass of its own; only a chunk that is not a stretch of the
 * document (rare: a block not found in it as written) is tested.
 */
export function writeChunksWithoutControls(
  groups: PageBlocks[],
  maxTokens: number,
  markdownOf: (block: Block, written: string) => string,
  document: string,
): Chunk[] | undefined {
  return chunksOf(groups, maxTokens, markdownOf, document, true);
}

/** writeChunks, or writeChunksWithoutControls (`withoutControls`). */
function chunksOf(
  groups: PageBlocks[],
  maxTokens: number,
  markdownOf: (block: Block, written: string) => string,
  document: string,
  withoutControls: boolean,
): Chunk[] | undefined {
  const counter = new StretchCounter(document);
  /** Each block found, as the piece it is when it fits (its units' marks from startMark to endMark), and its block. */
  const found: Piece[] = [];
  const foundBlocks: Block[] = [];
  const open: Array<{ level: number; text: string }> = [];
  /** The texts of `open`, shared by the pieces until a heading changes them. */
  let headings: string[] = [];
  /** Where the last block found ends in `document`, and where the next one is looked for. */
  let end = 0;
  let first = true;
  /** The page and headings of the blocks, one object for their pieces until either changes (not one per block). */
  let place: Place = { page: 0, headings };
  // Every block found in the document first, its edges (and its rows', items', lines') marked, so
  // that the index records their counts as it scans instead of being searched for each.
  for (const { number, blocks, written } of groups) {
    place = { page: number, headings };
    blocks.forEach((block, i) => {
      if (block.type === 'heading') {
        while (open.length && open[open.length - 1]!.level >= block.level) open.pop();
        headings = open.map((h) => h.text);
        place = { page: number, headings };
      }
      const markdown = markdownOf(block, written[i]!);
      if (markdown) {
        const at = counter.find(markdown, first ? 0 : end + BLOCK_JOINER.length);
        end = at >= 0 ? at + markdown.length : end + BLOCK_JOINER.length + markdown.length;
        first = false;
        const marks = at >= 0 && counter.marksFrom(at) ? counter.markCount() : -1;
        if (marks >= 0) markEdges(block, markdown, at, counter);
        // A block found but not marked, or one that may be cut, is counted as stretches other than between marks.
        if (at >= 0 && (marks < 0 || counter.mayExceed(markdown.length, maxTokens))) counter.stretches = true;
        const whole = piece(place, markdown, '\n\n', 0, at, undefined, marks, marks < 0 ? -1 : counter.markCount() - 1);
        whole.heading = block.type === 'heading';
        found.push(whole);
        foundBlocks.push(block);
      }
      if (block.type === 'heading' && markdown) {
        open.push({ level: block.level, text: withoutControlCharacters(inlineText(block.text)).trim() });
        headings = open.map((h) => h.text);
        place = { page: number, headings };
      }
    });
  }
  try {
    if (withoutControls && counter.controls()) return undefined;
    const pieces: Piece[] = [];
    for (let k = 0; k < found.length; k++) blockPieces(found[k]!, foundBlocks[k]!, maxTokens, counter, pieces);
    const chunks = pack(pieces, maxTokens, counter);
    if (withoutControls) {
      const { places } = chunkPlaces(chunks)!;
      // A stretch of the document was scanned: only its repeated table header (a continuation chunk's) is tested.
      for (let i = 0; i < chunks.length; i++)
        if (CONTROL_CHARACTER.test(places[i] ? places[i]!.head : chunks[i]!.markdown)) return undefined;
    }
    return chunks;
  } finally {
    counter.release();
  }
}

/**
 * Marks a block's edges in the counter (it stands at `at`, and marksFrom(at) holds), or a table's,
 * list's or code block's units' edges (unitOffsets' units: start and end of each, in pairs; the
 * first starts and the last ends with the block).
 */
function markEdges(block: Block, markdown: string, at: number, counter: StretchCounter): void {
  const units =
    block.type === 'table' || block.type === 'list' || block.type === 'code'
      ? markUnits(block.type, markdown, at, counter)
      : 0;
  if (!units) counter.mark(at, at + markdown.length);
}

/**
 * Marks the units of a table, list or code block that stands at `at` (unitEnd's), without an
 * array (most blocks fit, and are not cut): how many, 0 for a table of fewer than three lines (not
 * cut by rows, and marked whole).
 */
function markUnits(type: UnitType, markdown: string, at: number, counter: StretchCounter): number {
  for (let start = 0, units = 1; ; units++) {
    const end = unitEnd(type, markdown, start);
    if (end < 0) return 0;
    counter.mark(at + start, at + end);
    if (end === markdown.length) return units;
    start = end + 1;
  }
}

/** A released counter's marks, for the next one (a thread's counters run one after another). */
let spareMarks: Int32Array | undefined;
/** The most marks kept between documents (1 MB of them). */
const SPARE_MARKS_MAX = 1 << 18;

/** What stands between two blocks in the Markdown. */
const BLOCK_JOINER = '\n\n';
/** How far past where a block is expected it is looked for (a writer's edge trimmed differently). */
const FIND_SLACK = 256;

/**
 * Token counts of stretches of the document's Markdown, or of text that is not one (counted on
 * its own). The document is split and counted once, on the first count.
 */
class StretchCounter {
  private index: TokenIndex | undefined;
  /** Positions the index records as it scans (TokenIndex's marks), ascending; marked before the first count. */
  private marks: Int32Array = spareMarks ?? new Int32Array(1024);
  private marked = 0;
  /** Stretches other than between marks will be counted (`stretch`, `count`): the index records every boundary as it scans. */
  stretches = false;

  constructor(readonly document: string) {
    spareMarks = undefined;
  }

  /** Whether a stretch from `start` on may be marked: the index is not built, and no mark is past it. */
  marksFrom(start: number): boolean {
    return !this.index && (this.marked === 0 || start >= this.marks[this.marked - 1]!);
  }

  /** The marks made so far: the id of the next. */
  markCount(): number {
    return this.marked;
  }

  /** Marks the stretch [start, end) of the document (marksFrom(start) holds, end >= start): its start's id is markCount() before. */
  mark(start: number, end: number): void {
    if (this.marked + 2 > this.marks.length) {
      const grown = new Int32Array(this.marks.length * 2);
      grown.set(this.marks);
      this.marks = grown;
    }
    this.marks[this.marked++] = start;
    this.marks[this.marked++] = end;
  }

  /** UTF-8 bytes per code unit at most in the document: 1 when it is all ASCII, else 3; 0 until asked. */
  private unitBytes = 0;

  /**
   * Whether a stretch of the document `length` code units long may count more than `max` tokens.
   * A token is at least one UTF-8 byte, so a block within the limit by its bytes is never cut (the
   * document's bytes are measured once, not each block's: that costs a pass per block).
   */
  mayExceed(length: number, max: number): boolean {
    if (length > max) return true;
    if (length * 3 <= max) return false;
    this.unitBytes ||= Buffer.byteLength(this.document, 'utf8') === this.document.length ? 1 : 3;
    return length * this.unitBytes > max;
  }

  /** Where mark `id` stands in the document. */
  position(id: number): number {
    return this.marks[id]!;
  }

  /** The count of the document between two marks. */
  between(first: number, last: number): number {
    this.index ??= new TokenIndex(this.document, this.marks, this.marked, this.stretches);
    return this.index.countBetween(first, last);
  }

  /** Whether the document holds a control character (TokenIndex.controls); every mark is made. */
  controls(): boolean {
    this.index ??= new TokenIndex(this.document, this.marks, this.marked, this.stretches);
    return this.index.controls;
  }

  /** Where `markdown` stands in the document, looked for from `from`: -1 when not near there. */
  find(markdown: string, from: number): number {
    // A slice compared whole: several times faster in V8 than startsWith on a long document.
    if (this.document.slice(from, from + markdown.length) === markdown) return from;
    const found = this.document.slice(from, from + markdown.length + FIND_SLACK).indexOf(markdown);
    return found < 0 ? -1 : from + found;
  }

  /** The count of `prefix` + the document from `at` to `end`. */
  stretch(at: number, end: number, prefix = ''): number {
    this.index ??= new TokenIndex(this.document, this.marks, this.marked, this.stretches);
    return this.index.count(at, end, prefix);
  }

  /** The count of `text`, which stands at `at` in the document (or nowhere: -1). */
  count(text: string, at: number): number {
    return at >= 0 ? this.stretch(at, at + text.length) : countTokens(text);
  }

  /** The index is not used again: its arrays, and the marks, go to the next one. */
  release(): void {
    this.index?.release();
    if (this.marks.length <= SPARE_MARKS_MAX) spareMarks = this.marks;
  }

  /** `joiner` stands in the document between what ends at `end` and what starts at `at`. */
  joins(end: number, joiner: string, at: number): boolean {
    if (at !== end + joiner.length) return false;
    // Compared by character: the joiners are a few characters, and a slice of them would be a new string each.
    for (let k = 0; k < joiner.length; k++)
      if (this.document.charCodeAt(end + k) !== joiner.charCodeAt(k)) return false;
    return true;
  }
}

type Place = Pick<Piece, 'page' | 'headings'>;

/** A piece that is not a heading (one shape for all, made without spreading objects: chunking makes one per block or row). */
function piece(
  place: Place,
  markdown: string,
  joiner: string,
  tokens: number,
  at: number,
  tableHeader?: string,
  startMark = -1,
  endMark = -1,
): Piece {
  return {
    markdown,
    joiner,
    tokens,
    page: place.page,
    headings: place.headings,
    heading: false,
    tableHeader,
    at,
    startMark,
    endMark,
  };
}

/**
 * A block as pieces, added to `out`: `whole` (its piece, its count not set) when it fits, else cut
 * at the boundaries E3 allows. A table, list or code block is counted by its units (rows, items or
 * lines), each between its marks, not once whole and again in parts; near the limit the whole is
 * counted. A block of one unit is counted and cut as one marked whole, which it is.
 */
function blockPieces(whole: Piece, block: Block, max: number, counter: StretchCounter, out: Piece[]): void {
  const { markdown, at, startMark: marks, endMark: last } = whole;
  if (marks < 0) return unmarkedBlockPieces(block, markdown, at, max, whole, counter, out);
  const units = (last - marks + 1) / 2;
  if (units === 1) {
    const tokens = counter.between(marks, last);
    if (tokens > max) return splitText(markdown, at, max, whole, '\n\n', counter, out);
    whole.tokens = tokens;
    out.push(whole);
    return;
  }
  // Its units' counts plus one per line break between them, until past the limit (the block is cut).
  let estimate = -1;
  for (let u = 0; u < units && estimate <= max; u++) estimate += counter.between(marks + 2 * u, marks + 2 * u + 1) + 1;
  if (estimate <= max && (estimate <= max * NEAR_LIMIT || counter.between(marks, last) <= max)) {
    whole.tokens = estimate;
    out.push(whole);
    return;
  }
  // Cut: its units as strings, each with its count.
  const counts: number[] = [];
  const texts: string[] = [];
  const starts: number[] = [];
  for (let u = 0; u < units; u++) {
    const start = counter.position(marks + 2 * u);
    counts.push(counter.between(marks + 2 * u, marks + 2 * u + 1));
    texts.push(markdown.slice(start - at, counter.position(marks + 2 * u + 1) - at));
    starts.push(start);
  }
  cutBlockPieces(block, texts, starts, counts, marks, max, whole, counter, out);
}

/** blockPieces of a block with no marks (not found in the document as it is written alone, at -1). */
function unmarkedBlockPieces(
  block: Block,
  markdown: string,
  at: number,
  max: number,
  place: Place,
  counter: StretchCounter,
  out: Piece[],
): void {
  const estimate =
    block.type === 'table' || block.type === 'list' || block.type === 'code'
      ? unitsEstimate(block.type, markdown, at, max, counter)
      : undefined;
  if (estimate === undefined) {
    const tokens = counter.count(markdown, at);
    if (tokens > max) return splitText(markdown, at, max, place, '\n\n', counter, out);
    const whole = piece(place, markdown, '\n\n', tokens, at);
    whole.heading = block.type === 'heading';
    out.push(whole);
    return;
  }
  if (estimate <= max && (estimate <= max * NEAR_LIMIT || counter.count(markdown, at) <= max)) {
    out.push(piece(place, markdown, '\n\n', estimate, at));
    return;
  }
  // Cut: its units as strings, each with its count.
  const offsets = unitOffsets(block.type as UnitType, markdown)!;
  const counts: number[] = [];
  for (let u = 0; u < offsets.length; u += 2)
    counts.push(unitTokens(markdown, at, offsets[u]!, offsets[u + 1]!, counter));
  const units: string[] = [];
  const starts: number[] = [];
  for (let u = 0; u < offsets.length; u += 2) {
    units.push(markdown.slice(offsets[u], offsets[u + 1]));
    starts.push(at < 0 ? -1 : at + offsets[u]!);
  }
  cutBlockPieces(block, units, starts, counts, -1, max, place, counter, out);
}

/**
 * A table, list or code block cut into its units (`units`, standing at `starts`, with `counts`;
 * marked from `marks` in pairs, -1: not marked): a list's items and a code block's lines as pieces,
 * a table's rows with its header and delimiter rows repeated before a continuation row.
 */
function cutBlockPieces(
  block: Block,
  units: string[],
  starts: number[],
  counts: number[],
  marks: number,
  max: number,
  place: Place,
  counter: StretchCounter,
  out: Piece[],
): void {
  const at = starts[0]!;
  /** The marks of unit i's start and end, or -1 and -1. */
  const startOf = (i: number): number => (marks < 0 ? -1 : marks + 2 * i);
  const endOf = (i: number): number => (marks < 0 ? -1 : marks + 2 * i + 1);
  if (block.type !== 'table') return unitPieces(units, starts, counts, marks, '\n', max, place, counter, out);
  // The header and delimiter rows: the first unit but its last line.
  const header = units[0]!.slice(0, units[0]!.lastIndexOf('\n'));
  const room = max - counter.count(header, at) - 1;
  units.forEach((row, i) => {
    const joiner = i === 0 ? '\n\n' : '\n';
    const rowAt = starts[i]!;
    // The first piece holds the header; a continuation row is written after it again when it opens a chunk.
    if (i === 0) {
      if (counts[0]! <= max) out.push(piece(place, row, joiner, counts[0]!, rowAt, undefined, startOf(0), endOf(0)));
      else splitText(row, rowAt, max, place, joiner, counter, out);
    } else if (room <= 0 || counts[i]! > room) splitText(row, rowAt, max, place, joiner, counter, out);
    else out.push(piece(place, row, joiner, counts[i]!, rowAt, header, startOf(i), endOf(i)));
  });
}

/**
 * The packing's estimate of a table, list or code block that fits: its units' counts (unitEnd's)
 * plus one per line break between them, with no array or string made (most blocks fit). Infinity
 * once it passes `max` before its last unit (the block is cut), undefined when the block has no
 * units (a table of fewer than three lines).
 */
function unitsEstimate(
  type: UnitType,
  markdown: string,
  at: number,
  max: number,
  counter: StretchCounter,
): number | undefined {
  let estimate = -1;
  for (let start = 0; ;) {
    const end = unitEnd(type, markdown, start);
    if (end < 0) return undefined;
    estimate += unitTokens(markdown, at, start, end, counter) + 1;
    if (end === markdown.length) return estimate;
    if (estimate > max) return Infinity;
    start = end + 1;
  }
}

/** The count of a unit, markdown[from, to), of a block that stands at `at` in the document (-1: not there). */
function unitTokens(markdown: string, at: number, from: number, to: number, counter: StretchCounter): number {
  return at < 0 ? countTokens(markdown.slice(from, to)) : counter.stretch(at + from, at + to);
}

/** Above this share of the limit a block's summed line counts are checked against a count of the whole. */
const NEAR_LIMIT = 0.8;

/**
 * Where the units of a table, list or code block stand in its Markdown, as [start, end) offsets in
 * pairs (unitEnd's). Undefined for a table of fewer than three lines, which is not cut by rows.
 */
function unitOffsets(type: UnitType, markdown: string): number[] | undefined {
  const offsets: number[] = [];
  for (let start = 0; ;) {
    const end = unitEnd(type, markdown, start);
    if (end < 0) return undefined;
    offsets.push(start, end);
    if (end === markdown.length) return offsets;
    start = end + 1;
  }
}

/** The blocks the chunker cuts between units (rows, items, lines) when they do not fit. */
type UnitType = 'table' | 'list' | 'code';

/**
 * Where the unit of a table, list or code block that starts at `start` in its Markdown ends (the
 * next starts one line break after it): its lines, grouped (a table's first unit is its header,
 * delimiter and first row; a list's top-level item keeps its nested lines). -1 for the first unit of
 * a table of fewer than three lines, which is not cut by rows. Units are walked with no array or
 * callback: the chunker marks those of every table, list and code block it finds.
 */
function unitEnd(type: UnitType, markdown: string, start: number): number {
  let end = markdown.indexOf('\n', start);
  if (type === 'table' && start === 0) {
    for (let line = 1; line < 3; line++) {
      if (end < 0) return -1;
      end = markdown.indexOf('\n', end + 1);
    }
  } else if (type === 'list') {
    while (end >= 0 && !itemStarts(markdown, end + 1)) end = markdown.indexOf('\n', end + 1);
  }
  return end < 0 ? markdown.length : end;
}

/** Whether a list's top-level item starts at `at` (the start of a line). */
function itemStarts(markdown: string, at: number): boolean {
  ITEM_START.lastIndex = at;
  return ITEM_START.test(markdown);
}

/** A list's top-level item starts a line (sticky: tested where the line starts). */
const ITEM_START = /(?:\d+\.|-)(?= |\n|$)/y;

/** Units joined by `joiner` in the Markdown; the first joins what is before the block by a blank line. */
function unitPieces(
  units: string[],
  starts: number[],
  counts: number[],
  marks: number,
  joiner: string,
  max: number,
  place: Place,
  counter: StretchCounter,
  out: Piece[],
): void {
  units.forEach((unit, i) => {
    const join = i === 0 ? '\n\n' : joiner;
    const start = marks < 0 ? -1 : marks + 2 * i;
    const end = marks < 0 ? -1 : start + 1;
    if (counts[i]! <= max) out.push(piece(place, unit, join, counts[i]!, starts[i]!, undefined, start, end));
    else splitText(unit, starts[i]!, max, place, join, counter, out);
  });
}

const SPLITTERS: Array<{ pattern: RegExp; joiner: string }> = [
  { pattern: /\n{2,}/g, joiner: '\n\n' },
  { pattern: /\n/g, joiner: '\n' },
  // A sentence ends at . ! ? (closing quotes or brackets after it) before white space.
  { pattern: /(?<=[.!?]["'”’)\]]*)\s+/g, joiner: ' ' },
  { pattern: /\s+/g, joiner: ' ' },
];

/**
 * Text larger than the limit, added to `out` cut at paragraphs, lines, sentences, words, and at
 * last characters. `at`: where the text stands in the document (-1: not there); each part keeps
 * its own place.
 */
function splitText(
  text: string,
  at: number,
  max: number,
  place: Place,
  firstJoiner: string,
  counter: StretchCounter,
  out: Piece[],
  level = 0,
): void {
  const tokens = counter.count(text, at);
  if (tokens <= max) {
    out.push(piece(place, text, firstJoiner, tokens, at));
    return;
  }
  for (let l = level; l < SPLITTERS.length; l++) {
    const { pattern, joiner } = SPLITTERS[l]!;
    const parts = partsOf(text, pattern);
    if (parts.length < 2) continue;
    parts.forEach(({ part, offset }, i) =>
      splitText(part, at < 0 ? -1 : at + offset, max, place, i === 0 ? firstJoiner : joiner, counter, out, l + 1),
    );
    return;
  }
  let offset = 0;
  characterPieces(text, max).forEach((run, i) => {
    const runAt = at < 0 ? -1 : at + offset;
    offset += run.length;
    out.push(piece(place, run, i === 0 ? firstJoiner : '', counter.count(run, runAt), runAt));
  });
}

/** `text.split(pattern)` without the empty parts, each part with where it starts in `text`. */
function partsOf(text: string, pattern: RegExp): Array<{ part: string; offset: number }> {
  const parts: Array<{ part: string; offset: number }> = [];
  let from = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > from) parts.push({ part: text.slice(from, m.index), offset: from });
    from = m.index + m[0].length;
  }
  if (from < text.length) parts.push({ part: text.slice(from), offset: from });
  return parts;
}

/**
 * A word larger than the limit, in runs of max/4 code points: a code point is at most 4 bytes, so
 * at most 4 tokens, and each run fits whatever it holds; packing then fills chunks with them.
 * (Counting long prefixes to find the longest that fits costs the BPE quadratic time on one word.)
 */
function characterPieces(text: string, max: number): string[] {
  const chars = [...text];
  const size = Math.max(1, Math.floor(max / 4));
  const out: string[] = [];
  for (let at = 0; at < chars.length; at += size) out.push(chars.slice(at, at + size).join(''));
  return out;
}

/**
 * Pieces packed greedily into chunks. A piece that does not fit ends the chunk, before the last
 * heading in it when there is one after its start (the heading and what follows it open the
 * next chunk). Token counts of joined text are not additive, so a chunk is counted exactly when
 * it is closed, and its last pieces move to the next chunk while it exceeds the limit. A chunk
 * whose pieces stand in the document as they are joined is that stretch of the document (after
 * its repeated table header), and is counted as a stretch.
 */
function pack(pieces: Piece[], max: number, counter: StretchCounter): Chunk[] {
  const chunks: Chunk[] = [];
  const places: ChunkPlaces['places'] = [];
  const headerTokens = new Map<string, number>();
  // apart[k]: pieces up to k that do not follow the piece before them in the document as joined.
  const apart = new Int32Array(pieces.length + 1);
  for (let k = 0; k < pieces.length; k++) {
    const p = pieces[k]!;
    const before = pieces[k - 1];
    const follows =
      before !== undefined &&
      before.at >= 0 &&
      p.at >= 0 &&
      counter.joins(before.at + before.markdown.length, p.joiner, p.at);
    apart[k + 1] = apart[k]! + (follows ? 0 : 1);
  }
  /** Pieces from..to-1 are one stretch of the document (the first piece may start anywhere). */
  const stretch = (from: number, to: number): boolean => pieces[from]!.at >= 0 && apart[to]! - apart[from + 1]! === 0;
  const headerOf = (from: number): string => (pieces[from]!.tableHeader ? `${pieces[from]!.tableHeader}\n` : '');
  const textOf = (from: number, to: number): string => {
    const first = pieces[from]!;
    if (stretch(from, to)) {
      const last = pieces[to - 1]!;
      return headerOf(from) + counter.document.slice(first.at, last.at + last.markdown.length);
    }
    let out = first.tableHeader ? `${first.tableHeader}\n${first.markdown}` : first.markdown;
    for (let k = from + 1; k < to; k++) out += pieces[k]!.joiner + pieces[k]!.markdown;
    return out;
  };
  const countOf = (from: number, to: number): number => {
    if (!stretch(from, to)) return countTokens(textOf(from, to));
    const first = pieces[from]!;
    const last = pieces[to - 1]!;
    if (!first.tableHeader && first.startMark >= 0 && last.endMark >= 0)
      return counter.between(first.startMark, last.endMark);
    return counter.stretch(first.at, last.at + last.markdown.length, headerOf(from));
  };
  const costOf = (p: Piece, first: boolean): number => {
    if (!first) return p.tokens + 1;
    if (!p.tableHeader) return p.tokens;
    let header = headerTokens.get(p.tableHeader);
    if (header === undefined) headerTokens.set(p.tableHeader, (header = countTokens(p.tableHeader)));
    return p.tokens + header + 1;
  };
  let start = 0;
  while (start < pieces.length) {
    let end = start;
    let estimate = 0;
    /** `estimate` is the exact count of pieces start..end (it was counted whole, not summed). */
    let exact = false;
    while (end < pieces.length) {
      const cost = costOf(pieces[end]!, end === start);
      // Summed counts are an estimate of the joined text (BPE merges across a join): checked exactly
      // before stopping, and the estimate set to the exact count when the piece fits after all.
      if (end > start && estimate + cost > max) {
        const count = countOf(start, end + 1);
        if (count > max) break;
        estimate = count;
        exact = true;
      } else {
        estimate += cost;
        exact = false;
      }
      end++;
    }
    let stop = end;
    if (end < pieces.length) {
      for (let k = end - 1; k > start; k--) {
        if (pieces[k]!.heading) {
          stop = k;
          break;
        }
      }
    }
    // The chunk as the packing loop last counted it whole is not counted again.
    let tokens = exact && stop === end ? estimate : countOf(start, stop);
    while (tokens > max && stop - start > 1) {
      stop--;
      tokens = countOf(start, stop);
    }
    // Its pages, each once, ascending: a chunk's pieces are mostly on one page (no Set made per chunk).
    const pages: number[] = [];
    for (let k = start; k < stop; k++) {
      const page = pieces[k]!.page;
      if (pages[pages.length - 1] !== page && !pages.includes(page)) pages.push(page);
    }
    if (pages.length > 1) pages.sort((a, b) => a - b);
    const chunk: Chunk = {
      index: chunks.length,
      markdown: textOf(start, stop),
      tokens,
      pages,
      headings: pieces[start]!.headings,
    };
    const first = pieces[start]!;
    const last = pieces[stop - 1]!;
    places.push(
      stretch(start, stop)
        ? { at: first.at, length: last.at + last.markdown.length - first.at, head: headerOf(start) }
        : undefined,
    );
    chunks.push(chunk);
    start = stop;
  }
  recordChunkPlaces(chunks, { document: counter.document, places });
  return chunks;
}
