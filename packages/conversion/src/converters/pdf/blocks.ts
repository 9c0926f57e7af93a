import type { Block, Inline, InlineContent } from '../../markdown/model';
import { nestListItems, type FlatListItem } from '../../markdown/lists';
import { dropLeading, joinRunLines, runsToInlines, type StyledRun } from './styled-runs';
import { bodyFont, bodySize, boilerplateKey, type Line } from './layout';
import { tableAt } from './text-tables';

// Bullets, checkboxes, and symbol-font glyphs (Wingdings, Symbol) that map to C1 controls or the BMP's private use
// area; other fonts' glyphs that map to a private use area or to no assigned character (IBM's BookMaster bullet
// comes out as U+900B0) count when a space follows them.
const BULLET = /^(?:[•◦▪▫●○■□‣⁃∙·*\-–—\p{Co}\p{Cn}]\s+|[☐☑☒❑❒✓✔➢➤►▶◆◇\u0080-\u009f\uf000-\uf0ff]\s*(?=\S))/u;
const NUMBERED = /^((?:\d{1,3}|[a-z]|[ivx]{1,5})[.)])\s+/i;
const HEADING_RATIO = 1.15;
const MAX_HEADING_CHARS = 150;

/** Drops lines repeated at the same place on most pages (running headers, footers, page numbers). */
export function removeRunningLines(pages: Line[][]): Line[][] {
  if (pages.length < 3) return pages.map((p) => p.filter((l) => !/^(page\s*)?\d+(\s*(of|\/)\s*\d+)?$/i.test(l.text)));
  const counts = new Map<string, number>();
  for (const page of pages) {
    const edge = page.filter(inEdgeBand);
    for (const key of new Set(edge.map((l) => `${Math.round(l.y / 4)}|${boilerplateKey(l.text)}`))) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const threshold = Math.max(3, Math.ceil(pages.length * 0.5));
  return pages.map((page) =>
    page.filter((l) => {
      if (l.table || !inEdgeBand(l)) return true;
      if (/^(page\s*)?\d+(\s*(of|\/)\s*\d+)?$/i.test(l.text)) return false;
      return (counts.get(`${Math.round(l.y / 4)}|${boilerplateKey(l.text)}`) ?? 0) < threshold;
    }),
  );
}

/** Running headers and footers live in the top or bottom 10 % of the page. */
function inEdgeBand(line: Line): boolean {
  const band = line.pageHeight * 0.1;
  return line.y > line.pageHeight - band || line.y < band;
}

/** Lines of the whole document to blocks: headings by size rank, lists, tables, re-joined paragraphs. */
export function linesToBlocks(lines: Line[]): Block[] {
  const body = bodySize(lines);
  const font = bodyFont(lines, body);
  // A body set in bold or italic throughout is the document's plain text, not emphasis.
  const plain = { bold: / bold\b/.test(font), italic: / italic\b/.test(font) };
  const heading = lines.map((l, i) => isHeadingLine(l, body) || isStyledHeading(lines, i, body, font));
  const headingSizes = [...new Set(lines.filter((_, i) => heading[i]).map((l) => l.size))].sort((a, b) => b - a);
  const levelOf = (l: Line): number => {
    if (l.size >= body * HEADING_RATIO) return Math.min(headingSizes.indexOf(l.size) + 1, 4);
    const base = headingSizes.filter((s) => s >= body * HEADING_RATIO).length + 1;
    // Numbered sections nest by their number's depth: 2 is above 2.1, which is above 2.1.3.
    const depth = SECTION_NUMBER.exec(l.text)?.[1]?.split('.').filter(Boolean).length ?? 1;
    return Math.min(base + depth - 1, 6);
  };
  const blocks: Block[] = [];
  let paragraph: Line[] = [];
  let list: ListRun | undefined;
  const flushParagraph = (): void => {
    if (paragraph.length) {
      blocks.push({ type: 'paragraph', text: runsToInlines(joinRunLines(paragraph.map((l) => l.runs)), plain) });
    }
    paragraph = [];
  };
  const flushList = (): void => {
    if (list) {
      const items = list.items.map((item) => ({ ...item, text: runsToInlines(joinRunLines(item.lines), plain) }));
      blocks.push(...nestListItems(items));
    }
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const prev = lines[i - 1];
    if (line.table) {
      flushParagraph();
      flushList();
      blocks.push({ type: 'table', rows: line.table.map((r) => r.map(plainText)) });
      continue;
    }
    const table = tableAt(lines, i);
    if (table) {
      flushParagraph();
      flushList();
      blocks.push({ type: 'table', rows: table.rows.map((r) => r.map(plainText)) });
      i = table.end - 1;
      continue;
    }
    if (heading[i]) {
      flushParagraph();
      flushList();
      const last = blocks[blocks.length - 1];
      const continues =
        last?.type === 'heading' &&
        prev &&
        heading[i - 1] &&
        prev.size === line.size &&
        prev.page === line.page &&
        gapBetween(prev, line) < line.size * 1.8;
      // A heading's style is what makes it one: its text is plain.
      if (continues && last.type === 'heading') last.text = plainText(`${inlineText(last.text)} ${line.text}`);
      else blocks.push({ type: 'heading', level: levelOf(line), text: plainText(line.text) });
      continue;
    }
    const bullet = BULLET.exec(line.text);
    const numbered = bullet ? null : NUMBERED.exec(line.text);
    if (bullet || numbered) {
      flushParagraph();
      list ??= { items: [], markers: [] };
      const first = numbered ? Number.parseInt(numbered[1]!, 10) : NaN;
      list.items.push({
        level: markerLevel(list.markers, line),
        ordered: !!numbered,
        value: Number.isFinite(first) ? first : undefined,
        lines: [dropLeading(line.runs, (bullet ?? numbered)![0].length)],
        x: line.x,
      });
      continue;
    }
    const item = list?.items[list.items.length - 1];
    if (item && prev && line.x > item.x + 2 && gapBetween(prev, line) < line.size * 1.6 && line.page === prev.page) {
      item.lines.push(line.runs);
      continue;
    }
    flushList();
    if (paragraph.length && prev && startsNewParagraph(prev, line)) flushParagraph();
    paragraph.push(line);
  }
  flushParagraph();
  flushList();
  return blocks;
}

/** Consecutive list lines: each item's marker position and its wrapped lines, nested by indent when flushed. */
interface ListRun {
  items: Array<Omit<FlatListItem, 'text'> & { lines: StyledRun[][]; x: number }>;
  /** Marker x positions of the open levels, outermost first. */
  markers: number[];
}

/**
 * The nesting level of a list item from its marker's indent: deeper than the item before it when
 * its marker stands clearly to the right, back out to the level whose marker it lines up with.
 */
function markerLevel(markers: number[], line: Line): number {
  const tolerance = Math.max(3, line.size * NESTED_INDENT_RATIO);
  while (markers.length && line.x < markers[markers.length - 1]! - tolerance) markers.pop();
  const top = markers[markers.length - 1];
  if (top === undefined || line.x > top + tolerance) markers.push(line.x);
  return markers.length - 1;
}

/** A sub-item's marker stands at least this many text sizes right of its parent's. */
const NESTED_INDENT_RATIO = 0.6;

function plainText(value: string): Inline[] {
  return [{ type: 'text', text: value }];
}

/** The text of nodes this reader made (headings hold plain text). */
function inlineText(content: InlineContent): string {
  return content.map((n) => (n.type === 'text' ? n.text : 'children' in n ? inlineText(n.children) : '')).join('');
}

function isHeadingLine(line: Line, body: number): boolean {
  if (line.text.length > MAX_HEADING_CHARS || !/\p{L}/u.test(line.text) || /[.,;:]$/.test(line.text)) return false;
  if (line.size >= body * HEADING_RATIO) return true;
  return line.bold && line.size >= body * 0.98 && line.text.length <= 80 && !BULLET.test(line.text);
}

/** "2", "2.1", "2.1.3", "(1)", "IV." or "A." before a heading's words. */
const SECTION_NUMBER = /^(?:(\d{1,2}(?:\.\d{1,2}){0,4})\.?|\(\d{1,2}\)|[IVX]{1,5}\.|[A-Z]\.)\s+\S/;
const MAX_STYLED_HEADING_CHARS = 90;

/**
 * A heading at the body's size: a short line on its own, set in another font or style than the
 * body (bold, italic, another family or weight), with body text after it; or a numbered section title.
 */
function isStyledHeading(lines: Line[], i: number, body: number, font: string): boolean {
  const line = lines[i]!;
  const next = lines[i + 1];
  const prev = lines[i - 1];
  if (line.table || line.text.length > MAX_STYLED_HEADING_CHARS || line.size < body * 0.95) return false;
  if (!/\p{L}/u.test(line.text) || /[.,;:]$/.test(line.text) || BULLET.test(line.text)) return false;
  const apart = line.font !== font && line.font !== '';
  if (!apart || !next || next.table || next.page !== line.page) return false;
  // Followed by body text, and not the tail of a paragraph in the same style.
  const followedByBody = next.font !== line.font || next.size !== line.size;
  const standsAlone = !prev || prev.page !== line.page || prev.font !== line.font || /[.!?:]$/.test(prev.text);
  return followedByBody && standsAlone && /^[\p{Lu}\p{Lo}\d(]/u.test(line.text);
}

function gapBetween(a: Line, b: Line): number {
  return a.page === b.page ? Math.abs(a.y - b.y) : 0;
}

function startsNewParagraph(prev: Line, line: Line): boolean {
  if (prev.page !== line.page) return /[.!?:"”)]$/.test(prev.text);
  const gap = gapBetween(prev, line);
  if (gap > line.size * 1.75) return true;
  if (Math.abs(prev.size - line.size) > 0.5) return true;
  if (line.x > prev.x + line.size * 1.5 && /[.!?:]$/.test(prev.text)) return true;
  return false;
}
