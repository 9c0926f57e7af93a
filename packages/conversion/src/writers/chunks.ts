import type { Chunk } from '@markwright/contracts/src/structure';
import type { Block } from '../document/model';
import { inlineText } from '../document/predicates';
import { countTokens } from '../tokens/count';
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
}

/**
 * E3's chunks, cut from the Markdown as written (`render` is the writer of the whole document,
 * applied to one block at a time): blocks are packed into chunks of at most `maxTokens` o200k
 * tokens, a chunk preferably ending before a heading; a block larger than the limit is cut between
 * table rows (the header and delimiter rows repeated at the start of each continuation chunk),
 * list items or code lines, and a unit larger than the limit at sentence, then word, then
 * character boundaries.
 */
export function writeChunks(groups: PageBlocks[], maxTokens: number, render: (blocks: Block[]) => string): Chunk[] {
  const pieces: Piece[] = [];
  const open: Array<{ level: number; text: string }> = [];
  for (const { number, blocks } of groups) {
    for (const block of blocks) {
      if (block.type === 'heading') {
        while (open.length && open[open.length - 1]!.level >= block.level) open.pop();
      }
      const headings = open.map((h) => h.text);
      const markdown = render([block]).trim();
      if (markdown) pieces.push(...blockPieces(block, markdown, maxTokens, { page: number, headings }));
      if (block.type === 'heading' && markdown) open.push({ level: block.level, text: inlineText(block.text).trim() });
    }
  }
  return pack(pieces, maxTokens);
}

type Place = Pick<Piece, 'page' | 'headings'>;

/**
 * A block as pieces: whole when it fits, else cut at the boundaries E3 allows. A table, list or
 * code block is counted by its rows, items or lines (the tokenizer is the cost of chunking: each
 * line is counted once, not once whole and again in parts); near the limit the whole is counted.
 */
function blockPieces(block: Block, markdown: string, max: number, place: Place): Piece[] {
  const whole = { ...place, heading: block.type === 'heading', markdown, joiner: '\n\n' };
  const lines = markdown.split('\n');
  const units =
    block.type === 'table' && lines.length > 2
      ? [`${lines[0]}\n${lines[1]}\n${lines[2]}`, ...lines.slice(3)]
      : block.type === 'list'
        ? listItems(lines)
        : block.type === 'code'
          ? lines
          : undefined;
  if (!units) {
    const tokens = countTokens(markdown);
    return tokens <= max ? [{ ...whole, tokens }] : splitText(markdown, max, place, '\n\n');
  }
  const counts = units.map(countTokens);
  const estimate = counts.reduce((a, b) => a + b, 0) + units.length - 1;
  if (estimate <= max && (estimate <= max * NEAR_LIMIT || countTokens(markdown) <= max))
    return [{ ...whole, tokens: estimate }];
  if (block.type !== 'table') return unitPieces(units, counts, '\n', max, place);
  const header = `${lines[0]}\n${lines[1]}`;
  const room = max - countTokens(header) - 1;
  return units.flatMap((row, i): Piece[] => {
    const joiner = i === 0 ? '\n\n' : '\n';
    // The first piece holds the header; a continuation row is written after it again when it opens a chunk.
    if (i === 0)
      return counts[0]! <= max
        ? [{ ...place, heading: false, markdown: row, joiner, tokens: counts[0]! }]
        : splitText(row, max, place, joiner);
    if (room <= 0 || counts[i]! > room) return splitText(row, max, place, joiner);
    return [{ ...place, heading: false, markdown: row, joiner, tokens: counts[i]!, tableHeader: header }];
  });
}

/** Above this share of the limit a block's summed line counts are checked against a count of the whole. */
const NEAR_LIMIT = 0.8;

/** A list's Markdown lines grouped into its top-level items (an item's nested lines stay with it). */
function listItems(lines: string[]): string[] {
  const items: string[] = [];
  for (const line of lines) {
    if (/^(?:\d+\.|-)(?: |$)/.test(line) || !items.length) items.push(line);
    else items[items.length - 1] += `\n${line}`;
  }
  return items;
}

/** Units joined by `joiner` in the Markdown; the first joins what is before the block by a blank line. */
function unitPieces(units: string[], counts: number[], joiner: string, max: number, place: Place): Piece[] {
  return units.flatMap((unit, i) => {
    const join = i === 0 ? '\n\n' : joiner;
    if (counts[i]! <= max) return [{ ...place, heading: false, markdown: unit, joiner: join, tokens: counts[i]! }];
    return splitText(unit, max, place, join);
  });
}

const SPLITTERS: Array<{ pattern: RegExp; joiner: string }> = [
  { pattern: /\n{2,}/, joiner: '\n\n' },
  { pattern: /\n/, joiner: '\n' },
  // A sentence ends at . ! ? (closing quotes or brackets after it) before white space.
  { pattern: /(?<=[.!?]["'”’)\]]*)\s+/, joiner: ' ' },
  { pattern: /\s+/, joiner: ' ' },
];

/** Text larger than the limit: cut at paragraphs, lines, sentences, words, and at last characters. */
function splitText(text: string, max: number, place: Place, firstJoiner: string, level = 0): Piece[] {
  const tokens = countTokens(text);
  if (tokens <= max) return [{ ...place, heading: false, markdown: text, joiner: firstJoiner, tokens }];
  for (let l = level; l < SPLITTERS.length; l++) {
    const { pattern, joiner } = SPLITTERS[l]!;
    const parts = text.split(pattern).filter((p) => p !== '');
    if (parts.length < 2) continue;
    return parts.flatMap((part, i) => splitText(part, max, place, i === 0 ? firstJoiner : joiner, l + 1));
  }
  return characterPieces(text, max).map((markdown, i) => ({
    ...place,
    heading: false,
    markdown,
    joiner: i === 0 ? firstJoiner : '',
    tokens: countTokens(markdown),
  }));
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
 * it is closed, and its last pieces move to the next chunk while it exceeds the limit.
 */
function pack(pieces: Piece[], max: number): Chunk[] {
  const chunks: Chunk[] = [];
  const headerTokens = new Map<string, number>();
  const textOf = (from: number, to: number): string => {
    const first = pieces[from]!;
    let out = first.tableHeader ? `${first.tableHeader}\n${first.markdown}` : first.markdown;
    for (let k = from + 1; k < to; k++) out += pieces[k]!.joiner + pieces[k]!.markdown;
    return out;
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
        const count = countTokens(textOf(start, end + 1));
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
    let text = textOf(start, stop);
    // The chunk as the packing loop last counted it whole is not counted again.
    let tokens = exact && stop === end ? estimate : countTokens(text);
    while (tokens > max && stop - start > 1) {
      stop--;
      text = textOf(start, stop);
      tokens = countTokens(text);
    }
    const pages = new Set<number>();
    for (let k = start; k < stop; k++) pages.add(pieces[k]!.page);
    chunks.push({
      index: chunks.length,
      markdown: text,
      tokens,
      pages: [...pages].sort((a, b) => a - b),
      headings: pieces[start]!.headings,
    });
    start = stop;
  }
  return chunks;
}
