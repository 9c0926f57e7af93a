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

/** A block as pieces: whole when it fits, else cut at the boundaries E3 allows. */
function blockPieces(block: Block, markdown: string, max: number, place: Place): Piece[] {
  const tokens = countTokens(markdown);
  const whole = { ...place, heading: block.type === 'heading' };
  if (tokens <= max) return [{ ...whole, markdown, joiner: '\n\n', tokens }];
  const lines = markdown.split('\n');
  if (block.type === 'table' && lines.length > 2) {
    const header = `${lines[0]}\n${lines[1]}`;
    const headerTokens = countTokens(header);
    return lines.slice(2).flatMap((row, i): Piece[] => {
      // A row larger than the limit with its header is cut in words like any text (E3's last resort).
      const first = i === 0;
      const text = first ? `${header}\n${row}` : row;
      const rowTokens = countTokens(text);
      const room = first ? max : max - headerTokens - 1;
      if (room <= 0) return splitText(row, max, place, first ? '\n\n' : '\n');
      if (rowTokens <= room) {
        return [
          {
            ...place,
            heading: false,
            markdown: text,
            joiner: first ? '\n\n' : '\n',
            tokens: rowTokens,
            tableHeader: first ? undefined : header,
          },
        ];
      }
      return splitText(text, max, place, first ? '\n\n' : '\n');
    });
  }
  if (block.type === 'list') return unitPieces(listItems(lines), '\n', max, place);
  if (block.type === 'code') return unitPieces(lines, '\n', max, place);
  return splitText(markdown, max, place, '\n\n');
}

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
function unitPieces(units: string[], joiner: string, max: number, place: Place): Piece[] {
  return units.flatMap((unit, i) => {
    const tokens = countTokens(unit);
    const join = i === 0 ? '\n\n' : joiner;
    if (tokens <= max) return [{ ...place, heading: false, markdown: unit, joiner: join, tokens }];
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

/** A word larger than the limit, in the longest runs of characters that fit (code points kept whole). */
function characterPieces(text: string, max: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  let start = 0;
  while (start < chars.length) {
    // The longest prefix that fits, by bisection: token counts grow with the text.
    let lo = start + 1;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (countTokens(chars.slice(start, mid).join('')) <= max) lo = mid;
      else hi = mid - 1;
    }
    out.push(chars.slice(start, lo).join(''));
    start = lo;
  }
  return out;
}

/**
 * Pieces packed greedily into chunks. A piece that does not fit ends the chunk, before the last
 * heading in it when there is one after its start (the heading and what follows it move to the
 * next chunk). Token counts of joined text are not additive, so a chunk is counted again when it
 * is closed and its last pieces are carried over while it exceeds the limit.
 */
function pack(pieces: Piece[], max: number): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Piece[] = [];
  let estimate = 0;
  const textOf = (list: Piece[]): string => {
    let out = list[0]!.tableHeader ? `${list[0]!.tableHeader}\n` : '';
    list.forEach((p, i) => (out += (i === 0 ? '' : p.joiner) + p.markdown));
    return out;
  };
  const close = (list: Piece[]): Piece[] => {
    // Returns the pieces that did not fit after counting exactly.
    let keep = list;
    let text = textOf(keep);
    let tokens = countTokens(text);
    const carried: Piece[] = [];
    while (tokens > max && keep.length > 1) {
      carried.unshift(keep[keep.length - 1]!);
      keep = keep.slice(0, -1);
      text = textOf(keep);
      tokens = countTokens(text);
    }
    chunks.push({
      index: chunks.length,
      markdown: text,
      tokens,
      pages: [...new Set(keep.map((p) => p.page))].sort((a, b) => a - b),
      headings: keep[0]!.headings,
    });
    return carried;
  };
  const costOf = (p: Piece, first: boolean): number =>
    first ? p.tokens + (p.tableHeader ? countTokens(p.tableHeader) + 1 : 0) : p.tokens + 1;
  const queue = [...pieces];
  while (queue.length) {
    const piece = queue.shift()!;
    const cost = costOf(piece, current.length === 0);
    // Counted pieces are an estimate of the joined text (BPE merges across a join): checked exactly before closing.
    if (current.length && estimate + cost > max && countTokens(textOf([...current, piece])) > max) {
      let cut = current.length;
      for (let i = current.length - 1; i > 0; i--) {
        if (current[i]!.heading) {
          cut = i;
          break;
        }
      }
      const carried = [...close(current.slice(0, cut)), ...current.slice(cut)];
      queue.unshift(...carried, piece);
      current = [];
      estimate = 0;
      continue;
    }
    current.push(piece);
    estimate += cost;
  }
  if (current.length) {
    let rest = close(current);
    while (rest.length) rest = close(rest);
  }
  return chunks;
}
