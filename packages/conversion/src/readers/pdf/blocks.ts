import type { Block, Inline } from '../../document/model';
import { inlineText } from '../../document/predicates';
import { nestListItems, type FlatListItem } from '../../document/lists';
import {
  dropLeading,
  joinRunLines,
  keepLeading,
  runsText,
  runsToInlines,
  type StyledRun,
  joinWrapped,
  wrapsWithoutSpace,
} from './styled-runs';
import { bodyFont, bodySize, boilerplateKey, type Line } from './layout';
import { tableAt } from './text-tables';
import { isAuthorLine, isAuthorNamesLine } from './title-block';
import { isMonospacedFont } from './glyph-widths';
import { RTL_LETTER } from './poppler';

// Bullets, checkboxes, and symbol-font glyphs (Wingdings, Symbol) that map to C1 controls or the BMP's private use
// area; other fonts' glyphs that map to a private use area or to no assigned character (IBM's BookMaster bullet
// comes out as U+900B0) count when a space follows them.
const BULLET = /^(?:[•◦▪▫●○■□‣⁃∙·*\-–—\p{Co}\p{Cn}]\s+|[☐☑☒❑❒✓✔➢➤►▶◆◇\u0080-\u009f\uf000-\uf0ff]\s*(?=\S))/u;
const NUMBERED = /^((?:\d{1,3}|[a-z]|[ivx]{1,5})[.)])\s+/i;
/** A number marker in a right-to-left line: "1." as drawn (".1", the stop on its left), or in Arabic-Indic digits. */
/**
 * A bullet set right against a right-to-left item's first word: the space after it, drawn on its left, is where the
 * line's text ends in visual order (LibreOffice's Arabic and Hebrew lists).
 */
const RTL_BULLET = /^[•◦▪●○■□‣⁃∙](?=[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff])/u;
const RTL_NUMBERED = /^(?:[.)]([0-9\u0660-\u0669\u06f0-\u06f9]{1,3})|([\u0660-\u0669\u06f0-\u06f9]{1,3})[.)])\s+/u;
const HEADING_RATIO = 1.15;
/** Consecutive heading lines this close in size are one heading set over two lines (a title with a smaller second line). */
const HEADING_CONTINUATION_SIZE_RATIO = 0.9;
const MAX_HEADING_CHARS = 150;

/**
 * Math faces (TeX's Computer and Latin Modern math fonts, AMS symbols, Cambria and STIX Math): a line set
 * mostly in one is a displayed formula, whose large operators ("∑" drawn as cmex's "X") are no heading.
 */
const MATH_FONT =
  /^(?:CM(?:MI|SY|EX|BSY|MIB)\d|LMMath|Latin ?Modern ?Math|MSBM|MSAM|EUF[MB]|EUSM|Cambria ?Math|STIX\w*Math|XITS ?Math|TeXGyre\w*Math)/i;

/** A printed page number: "12", "Page 3", "3 of 9", "3/9", or between dashes as troff's ms macros print it ("- 2 -"). */
const PAGE_NUMBER = /^(page\s*)?\d+(\s*(of|\/)\s*\d+)?$|^[-\u2010-\u2014\u2212]\s?\d{1,4}\s?[-\u2010-\u2014\u2212]$/i;

/**
 * What a browser prints in a page's margins (Chrome's and Firefox's defaults): the date and time the page
 * was printed, before its title, at the top; its address, with "1/3" or "Page 1 of 3", at the foot. Known by
 * its form, so on a document of one page too.
 */
const BROWSER_STAMP =
  /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?\b|^(?:https?|file):\/\/\S+\s+(?:page\s+)?\d+\s*(?:\/|of)\s*\d+$/i;

/** Drops lines repeated at the same place on most pages (running headers, footers, page numbers). */
export function removeRunningLines(pages: Line[][]): Line[][] {
  if (pages.length < 3) {
    // A number in large type is a chapter number, not the page's. Of two pages, what both carry at the same
    // place in their edge bands runs too (a browser's printed date, and its address with "1/2" and "2/2").
    const large = bodySize(pages.flat()) * CHAPTER_NUMBER_RATIO;
    const both = pages.length === 2 ? edgeKeysOnBoth(pages[0]!, pages[1]!) : undefined;
    return pages.map((p) =>
      p.filter(
        (l) =>
          !(l.size < large && PAGE_NUMBER.test(l.text)) &&
          !(!l.table && inEdgeBand(l) && (BROWSER_STAMP.test(l.text) || (both && both.has(runningKey(l))))),
      ),
    );
  }
  // Counted over all pages and over every other page: a book's left and right pages carry different
  // running heads (a regulation's "21 CFR Ch. II" and "Drug Enforcement Administration, Justice").
  // Plain functions and loops, no closure per call: V8 compiles a hot closure again for every new instance of it.
  const counts = new Map<string, number>();
  const sideCounts = new Map<string, number>();
  const heads: PageHead[] = [];
  for (const page of pages) heads.push(pageHead(page));
  const numbered = pageNumberedLines(pages, heads);
  for (let p = 0; p < pages.length; p++) {
    const keys = new Set<string>();
    for (const l of pages[p]!) if (atEdge(l, heads[p]!)) keys.add(runningKey(l));
    for (const key of keys) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      sideCounts.set(`${p % 2}|${key}`, (sideCounts.get(`${p % 2}|${key}`) ?? 0) + 1);
    }
  }
  const threshold = Math.max(3, Math.ceil(pages.length * 0.5));
  const kept: Line[][] = [];
  for (let p = 0; p < pages.length; p++) {
    // Most pages of one side, at least 3, and not on most of the other side's (that is the all-pages count).
    const sideThreshold = Math.max(3, Math.ceil(Math.ceil((pages.length - (p % 2)) / 2) * 0.75));
    const page: Line[] = [];
    const lines = pages[p]!;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (!l.table && atEdge(l, heads[p]!) && !headsTable(l, lines[i + 1])) {
        if ((PAGE_NUMBER.test(l.text) || BROWSER_STAMP.test(l.text)) && inEdgeBand(l)) continue;
        if (numbered.has(l)) continue;
        const key = runningKey(l);
        if ((counts.get(key) ?? 0) >= threshold || (sideCounts.get(`${p % 2}|${key}`) ?? 0) >= sideThreshold) continue;
      }
      page.push(l);
    }
    kept.push(page);
  }
  return kept;
}

/** A page's printed number opening or closing a running head ("2 CHAPTER 1. GETTING STARTED", "1.1. SPRING 3"), or alone. */
const HEAD_NUMBER = /^(\d{1,4})(?:\s*(?=\p{Lu})|$)|\s(\d{1,4})$/u;

/** Pages whose printed numbers must run in step with the file's pages for their heads and feet to count as running. */
const NUMBERED_PAGES = 3;

/**
 * Top and bottom lines that carry the page's printed number, known because the number goes up with the page:
 * a book's running heads name the chapter on one side and the section on the other, so no head's text repeats
 * on most pages, but each carries its page's number. Heads and feet of the body size or smaller (a chapter's first
 * page has its number at the foot) on at least NUMBERED_PAGES pages whose numbers stand the same distance from
 * the file's page numbers.
 */
function pageNumberedLines(pages: Line[][], heads: PageHead[]): Set<Line> {
  const found = new Set<Line>();
  if (pages.length < NUMBERED_PAGES) return found;
  const candidates = new Map<number, Line[]>();
  for (let p = 0; p < pages.length; p++) {
    const head = heads[p]!;
    for (const l of pages[p]!) {
      if (l.table || (l.y !== head.top && l.y !== head.bottom) || !atEdge(l, head)) continue;
      const match = HEAD_NUMBER.exec(l.text);
      if (!match) continue;
      const key = Number(match[1] ?? match[2]) - l.page;
      candidates.set(key, [...(candidates.get(key) ?? []), l]);
    }
  }
  // The body size is counted only when some number runs in step with the pages (most files have none).
  let body: number | undefined;
  for (const lines of candidates.values()) {
    if (lines.length < NUMBERED_PAGES) continue;
    body ??= bodySize(pages.flat());
    const small = lines.filter((l) => l.size <= body! + 0.5);
    if (small.length >= NUMBERED_PAGES) for (const l of small) found.add(l);
  }
  return found;
}

/**
 * The running keys of lines in the edge bands of both pages that stand apart from their page's text
 * (a page's only text, or its first line a paragraph's distance from the next, is no running line).
 */
function edgeKeysOnBoth(first: Line[], second: Line[]): Set<string> {
  const firstKeys = new Set<string>();
  for (const l of first) if (runsApart(l, first)) firstKeys.add(runningKey(l));
  const both = new Set<string>();
  for (const l of second) if (firstKeys.has(runningKey(l)) && runsApart(l, second)) both.add(runningKey(l));
  return both;
}

/** Whether a line in the page's edge band stands further from the page's text outside the band than RUNNING_HEAD_GAP sizes. */
function runsApart(line: Line, page: Line[]): boolean {
  if (line.table || !inEdgeBand(line)) return false;
  let nearest = Infinity;
  for (const l of page) if (!inEdgeBand(l)) nearest = Math.min(nearest, Math.abs(l.y - line.y));
  return Number.isFinite(nearest) && nearest > line.size * RUNNING_HEAD_GAP;
}

/**
 * A table's header repeated at the top of each page it runs over (Word's "repeat as header row", a browser's
 * `<thead>`) is no running head: a line of 3+ cells over a line of cells, a row's distance below.
 */
function headsTable(line: Line, next: Line | undefined): boolean {
  if (!next || next.page !== line.page || line.cells.length < 3 || next.cells.length * 2 < line.cells.length)
    return false;
  const gap = line.y - next.y;
  return gap > 0 && gap < line.size * TABLE_ROW_GAP;
}

/** Rows of a table stand less than this many of their sizes apart. */
const TABLE_ROW_GAP = 3;

/** A page's top and bottom lines and how far each stands from the next one in. */
interface PageHead {
  top: number;
  apart: number;
  bottom: number;
  apartBelow: number;
}

/**
 * A page's top line counts wherever it sits when it stands apart from the text under it: a reduced page
 * (a regulation printed small on letter paper) has its running head a fifth of the way down. So does its
 * bottom line standing apart from the text above it: TeX's page number sits more than a tenth of a letter
 * page up from its foot.
 */
function pageHead(page: Line[]): PageHead {
  const ys: number[] = [];
  for (const l of page) if (!l.table) ys.push(l.y);
  const top = Math.max(...ys);
  const bottom = Math.min(...ys);
  let below = -Infinity;
  let above = Infinity;
  for (const y of ys) {
    if (y < top && y > below) below = y;
    if (y > bottom && y < above) above = y;
  }
  return { top, apart: top - below, bottom, apartBelow: above - bottom };
}

/** Whether the line stands where running heads and footers do: in the page's edge bands, or as its apart top or bottom line. */
function atEdge(l: Line, head: PageHead): boolean {
  return (
    inEdgeBand(l) ||
    (l.y === head.top && head.apart > l.size * RUNNING_HEAD_GAP) ||
    (l.y === head.bottom && head.apartBelow > l.size * RUNNING_HEAD_GAP)
  );
}

/** What a running line is recognised by across pages: its height on the page and its text, numbers folded. */
function runningKey(l: Line): string {
  return `${Math.round(l.y / 4)}|${boilerplateKey(l.text)}`;
}

/** A running head stands at least this many of its sizes above the page's next line. */
const RUNNING_HEAD_GAP = 1.6;

/**
 * `lines[i]`, or undefined before the first line and after the last, read within bounds: V8 compiles a function
 * again when one of its reads first falls outside an array.
 */
function lineAt(lines: Line[], i: number): Line | undefined {
  return i >= 0 && i < lines.length ? lines[i] : undefined;
}

/** Running headers and footers live in the top or bottom 10 % of the page. */
function inEdgeBand(line: Line): boolean {
  const band = line.pageHeight * 0.1;
  return line.y > line.pageHeight - band || line.y < band;
}

/** Lines of the whole document to blocks: headings by size rank, lists, tables, re-joined paragraphs. */
export function linesToBlocks(read: Line[]): Block[] {
  const runIn = new Set<Line>();
  const lines = splitRunInFirstMarks(read, runIn);
  const body = bodySize(lines);
  const font = bodyFont(lines, body);
  // A body set in bold or italic throughout is the document's plain text, not emphasis.
  const plain = { bold: / bold\b/.test(font), italic: / italic\b/.test(font) };
  const symbolBullets = symbolBulletLines(lines);
  const unmarked = unmarkedItemLines(lines);
  const hanging = hangingNumberedLines(lines);
  // A line led by a symbol-font bullet is a list item set in bold, not a heading (as for a "•").
  // The tests are pure: the author-line ones (a Unicode name expression tried at every position of the line) run on
  // the few lines that look like headings, not on every line.
  // Loops, not callbacks: a callback is a new closure per page, which V8 compiles again for each one that gets hot.
  const heading: boolean[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    heading.push(
      (isHeadingLine(l, body) ||
        isStyledHeading(lines, i, body, font) ||
        isSectionNumber(l, body) ||
        isLocalHeading(lines, i, font) ||
        isCapitalsTitle(lines, i, body)) &&
        !symbolBullets.has(l) &&
        !runIn.has(l) &&
        !hanging.items.has(l) &&
        !hanging.subItems.has(l) &&
        !isAuthorLine(l) &&
        !isAuthorNamesLine(lines, i) &&
        !MATH_FONT.test(l.font),
    );
  }
  for (let i = 0; i < lines.length; i++) if (heading[i]) i = pullQuoteEnd(lines, i, heading);
  let romanSections = false;
  const sizes = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (!heading[i]) continue;
    if (!romanSections && ROMAN_SECTION.test(lines[i]!.text)) romanSections = true;
    sizes.add(lines[i]!.size);
  }
  const headingSizes = [...sizes].sort(largestFirst);
  const levelOf = (l: Line): number => {
    if (l.size >= body * HEADING_RATIO) return Math.min(headingSizes.indexOf(l.size) + 1, 4);
    const base = headingSizes.filter((s) => s >= body * HEADING_RATIO).length + 1;
    // Numbered sections nest by their number's depth: 2 is above 2.1, which is above 2.1.3.
    const depth = SECTION_NUMBER.exec(l.text)?.[1]?.split('.').filter(Boolean).length ?? 1;
    // Lettered sections ("A. String control") sit under roman ones ("II. METHOD"), as IEEE numbers them.
    const lettered = romanSections && LETTERED_SECTION.test(l.text) && !ROMAN_SECTION.test(l.text) ? 1 : 0;
    return Math.min(base + depth - 1 + lettered, 6);
  };
  const blocks: Block[] = [];
  let paragraph: Line[] = [];
  let list: ListRun | undefined;
  // The mark of the last "(n)" item read, which a "(n+1)" after a page break, a figure or a heading goes on from.
  let lastEnclosed: string | undefined;
  const flushParagraph = (): void => {
    if (paragraph.length) {
      blocks.push({
        type: 'paragraph',
        text: runsToInlines(joinRunLines(runsOf(paragraph)), plain),
        page: paragraph[0]!.page,
        ...boxOf(paragraph),
      });
    }
    paragraph = [];
  };
  const flushList = (): void => {
    if (list) {
      nestByMarkKind(list.items);
      const items = list.items.map((item) => ({ ...item, text: runsToInlines(joinRunLines(item.lines), plain) }));
      const box = boxOf(list.items.flatMap((item) => item.all));
      for (const block of nestListItems(items)) blocks.push({ ...block, page: list.page, ...box });
    }
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const prev = lineAt(lines, i - 1);
    if (line.table) {
      flushParagraph();
      flushList();
      blocks.push({
        type: 'table',
        rows: inReadingOrder(line.table).map((r) => r.map(plainText)),
        page: line.page,
        ...(line.tableBox ? { bbox: line.tableBox } : {}),
      });
      continue;
    }
    const table = tableAt(lines, i);
    if (table) {
      flushParagraph();
      flushList();
      blocks.push({
        type: 'table',
        rows: inReadingOrder(table.rows).map((r) => r.map(plainText)),
        page: line.page,
        ...boxOf(lines.slice(i, table.end)),
      });
      i = table.end - 1;
      continue;
    }
    const code = codeLinesAt(lines, i, font, body);
    if (code) {
      flushParagraph();
      flushList();
      const run = lines.slice(i, code);
      blocks.push({ type: 'code', text: codeText(run), page: line.page, ...boxOf(run) });
      i = code - 1;
      continue;
    }
    const item = list?.items[list.items.length - 1];
    const bullet =
      BULLET.exec(line.text) ??
      (line.rtl ? RTL_BULLET.exec(line.text) : null) ??
      (symbolBullets.has(line) ? leadingMarker(line) : null) ??
      (unmarked.has(line) || hanging.subItems.has(line) ? NO_MARKER : null);
    const numbered = bullet
      ? null
      : ((initialNotMarker(lines, i, item) ? null : NUMBERED.exec(line.text)) ??
        (line.rtl ? RTL_NUMBERED.exec(line.text) : null) ??
        enclosedNumber(lines, i, item, standsApart(lines, i, heading) ? lastEnclosed : undefined));
    // A list item's wrapped line (a bold question's second line, an italic note after it) is not a heading unless larger.
    if (heading[i] && item && !bullet && !numbered && continuesItem(item, prev, line) && line.size <= item.last.size) {
      item.lines.push(line.runs);
      item.last = line;
      item.all.push(line);
      continue;
    }
    if (heading[i]) {
      // A heading wrapped after a colon ("Module Two: Planning and Step 1:" over "Concept Development"): its
      // first line, left as a paragraph for the colon, joins it.
      const opening = paragraph.length === 1 && paragraph[0] === prev ? prev : undefined;
      if (opening && !list && wrapsAfterColon(opening, line)) {
        paragraph = [];
        blocks.push({
          type: 'heading',
          level: levelOf(line),
          text: plainText(`${opening.text} ${line.text}`),
          page: line.page,
        });
        continue;
      }
      flushParagraph();
      flushList();
      const last = lastHeading(blocks);
      const continues =
        last &&
        prev &&
        heading[i - 1] &&
        prev.page === line.page &&
        !SECTION_NUMBER.test(line.text) &&
        (prev.size === line.size || wrapsSmaller(prev, line)) &&
        gapBetween(prev, line) < Math.max(prev.size, line.size) * 1.8;
      // A heading's style is what makes it one: its text is plain.
      if (continues && last) last.text = plainText(joinWrapped(inlineText(last.text, ''), line.text));
      else
        blocks.push({
          type: 'heading',
          level: levelOf(line),
          text: plainText(line.text),
          page: line.page,
          ...boxOf([line]),
        });
      if (continues && last && last.bbox) last.bbox = unionBox(last.bbox, boxOf([line]).bbox);
      continue;
    }
    if (bullet || numbered) {
      flushParagraph();
      list ??= { items: [], markers: [], page: line.page };
      const first = numbered ? markerNumber(numbered[1] ?? numbered[2]!) : NaN;
      lastEnclosed = numbered?.[0].startsWith('(') ? numbered[1] : undefined;
      list.items.push({
        level: markerLevel(list.markers, line),
        ordered: !!numbered,
        value: Number.isFinite(first) ? first : undefined,
        enclosed: !!numbered && numbered[0].startsWith('('),
        mark: numbered?.[0].startsWith('(') ? numbered[1] : undefined,
        checked: bullet ? boxState(bullet[0]) : undefined,
        lines: [dropLeading(line.runs, (bullet ?? numbered)![0].length)],
        x: indent(line),
        last: line,
        all: [line],
      });
      continue;
    }
    if (
      item &&
      (continuesItem(item, prev, line) ||
        wrapsUnindented(lines, i, item) ||
        (prev === item.last && runsOnElsewhere(lines, i)))
    ) {
      // Gone on in the next column or page: its wrapped lines are at that column's edge now.
      if (line.page !== item.last.page || line.y > item.last.y) item.x = indent(line);
      item.lines.push(line.runs);
      item.last = line;
      item.all.push(line);
      continue;
    }
    // A heading's last line that ends with a period ("§ 1308.21 Application for exclusion of a" over
    // "nonnarcotic substance."): in the heading's type, at its line pitch, under a line that was wrapped.
    const last = lastHeading(blocks);
    if (!list && !paragraph.length && last && prev && heading[i - 1] && endsHeading(lines, i)) {
      last.text = plainText(joinWrapped(inlineText(last.text, ''), line.text));
      // A line ending with a comma goes on ("PART 1309—REGISTRATION OF" / "MANUFACTURERS, DISTRIBUTORS," /
      // "IMPORTERS AND EXPORTERS"): the heading's next line continues it.
      if (line.text.endsWith(',')) heading[i] = true;
      if (last.bbox) last.bbox = unionBox(last.bbox, boxOf([line]).bbox);
      continue;
    }
    flushList();
    if (paragraph.length && prev && startsNewParagraph(lines, i) && !runsOnElsewhere(lines, i)) flushParagraph();
    paragraph.push(line);
  }
  flushParagraph();
  flushList();
  return blocks;
}

/**
 * The last block when it is a heading. One function for both places that ask: the place a page reaches late
 * (a line after a heading) then shares what the other has seen, and V8 does not compile linesToBlocks again for it.
 */
function lastHeading(blocks: Block[]): Extract<Block, { type: 'heading' }> | undefined {
  const last = blocks.length ? blocks[blocks.length - 1]! : undefined;
  return last?.type === 'heading' ? last : undefined;
}

/** The lines' runs, in an array made by push (map makes arrays of another kind when V8 has compiled it inline). */
function runsOf(lines: Line[]): StyledRun[][] {
  const runs: StyledRun[][] = [];
  for (const l of lines) runs.push(l.runs);
  return runs;
}

function largestFirst(a: number, b: number): number {
  return b - a;
}

/**
 * A heading's wrapped last line, kept out of the heading rules by its final period (regulations end their
 * section titles with one): in the line above's type, at its line pitch and indent, short, and the line
 * above was wrapped before it (a date set flush right over a time is not).
 */
function endsHeading(lines: Line[], i: number): boolean {
  const line = lines[i]!;
  const prev = lines[i - 1]!;
  // At the heading's indent, or hung under it (a regulation's section titles indent their second line).
  const hung = line.x - prev.x;
  return (
    /[.,]$/.test(line.text) &&
    !/[.,;:]$/.test(prev.text) &&
    line.text.length <= MAX_STYLED_HEADING_CHARS &&
    sameStyle(prev, line) &&
    prev.page === line.page &&
    hung > -line.size &&
    hung < line.size * HEADING_HANG &&
    gapBetween(prev, line) <= line.size * HEADING_TAIL_PITCH &&
    wrappedBefore(lines, i - 1, line)
  );
}

/** A heading's wrapped line hangs at most this many sizes right of its first line. */
const HEADING_HANG = 2.5;

/** "IV. " and "A. " before a section's title. */
const ROMAN_SECTION = /^[IVX]{1,5}\.\s/;
const LETTERED_SECTION = /^[A-Z]\.\s/;

/** A heading's last line stands at most this many sizes under it (fonts with a tall line gap: Noto Serif 1.37). */
const HEADING_TAIL_PITCH = 1.45;

/** The number a list marker starts with, in ASCII or Arabic-Indic digits (NaN for letters and roman numerals). */
function markerNumber(marker: string): number {
  // Both Arabic-Indic digit ranges start at a code point ending in 0, so the low four bits are the digit.
  const digits = marker.replace(/[\u0660-\u0669\u06f0-\u06f9]/gu, (d) => String(d.charCodeAt(0) & 0xf));
  return Number.parseInt(digits, 10);
}

/** Consecutive list lines: each item's marker position and its wrapped lines, nested by indent when flushed. */
interface ListRun {
  items: ListItemLines[];
  /** Marker x positions of the open levels, outermost first. */
  markers: number[];
  /** The page its first item is on. */
  page: number;
}

/** A list item being read: its lines' runs, its marker's indent and its last line. */
type ListItemLines = Omit<FlatListItem, 'text'> & {
  lines: StyledRun[][];
  x: number;
  last: Line;
  all: Line[];
  enclosed?: boolean;
  /** The letter or number inside an enclosed mark ("a" of "(a)"). */
  mark?: string;
};

type Box = [number, number, number, number];

/**
 * The box of a block's lines on the page it starts on (E4's bbox): PDF points, origin top-left
 * (poppler's y grows upwards from the page's bottom, a line's y is its box's bottom).
 */
function boxOf(lines: Line[]): { bbox?: Box } {
  const page = lines[0]?.page;
  const on = lines.filter((l) => l.page === page && !l.table);
  if (!on.length) return {};
  let box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const l of on) {
    box = unionBox(box, [
      Math.min(l.x, l.right),
      l.pageHeight - l.y - l.size,
      Math.max(l.x, l.right),
      l.pageHeight - l.y + l.depth,
    ]);
  }
  return { bbox: box };
}

function unionBox(a: Box, b: Box | undefined): Box {
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** "(1)", "(a)", "(iv)" before an item's words. */
const ENCLOSED_NUMBER = /^\((\d{1,2}|[a-z]|[ivx]{2,4})\)\s+(?=\S)/;

/** How many lines after a "(1)" its "(2)" may start, for the "(1)" to open a list. */
const ENCLOSED_NEXT_WITHIN = 12;
/**
 * ...or this many, when the "(1)" opens a paragraph and its "(2)" opens one at the same indent: a
 * regulation's "(a)" paragraph may fill a column and more, or stand over a form, before its "(b)".
 */
const ENCLOSED_NEXT_PARAGRAPH_WITHIN = 120;

/** A first mark that opens a sentence inside a line, after the sentence or title before it ("... permits. (a) The"). */
const RUN_IN_FIRST_MARK = /^(.*?\S[.:])\s+(\((?:1|a|i)\)\s+)(?=[\p{Lu}\d])/u;

/**
 * Lines whose "(a)" (or "(1)", "(i)") opens a sentence after the words before it on the same line (a
 * regulation's section title ending "... preparations. (a) The chemical ..."), cut before the mark, when
 * its "(b)" opens a sentence at the start of a later line (the first mark's list goes on as one).
 * The mark's part starts at the line's left edge, as a paragraph set flush with its mark does, and
 * is added to `marks`: an item, never a heading, whatever the title's style before it.
 */
function splitRunInFirstMarks(lines: Line[], marks: Set<Line>): Line[] {
  let out: Line[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const match = line.table || line.rtl || !line.text.includes('(') ? null : RUN_IN_FIRST_MARK.exec(line.text);
    if (match && !ENCLOSED_NUMBER.test(line.text) && runInMarkGoesOn(lines, i, match[2]!.trim())) {
      out ??= lines.slice(0, i);
      const cut = match[1]!.length;
      const head = keepLeading(line.runs, cut);
      const tail = dropLeading(line.runs, cut);
      const share = cut / Math.max(line.text.length, 1);
      const headRight = line.x + (line.right - line.x) * share;
      const item: Line = {
        ...line,
        text: runsText(tail),
        runs: tail,
        cells: [{ x: line.x, right: line.right, text: runsText(tail) }],
        narrowGaps: undefined,
        bold: tail.every((r) => r.bold),
        marker: undefined,
      };
      marks.add(item);
      out.push(
        {
          ...line,
          text: runsText(head),
          runs: head,
          right: headRight,
          cells: [{ x: line.x, right: headRight, text: runsText(head) }],
          narrowGaps: undefined,
          bold: head.every((r) => r.bold),
        },
        item,
      );
      continue;
    }
    out?.push(line);
  }
  return out ?? lines;
}

/** Whether the mark after `mark` ("(b)" after "(a)") opens a sentence at the start of one of the next lines. */
function runInMarkGoesOn(lines: Line[], i: number, mark: string): boolean {
  const letter = mark.slice(1, -1);
  const next = `(${/^\d+$/.test(letter) ? Number(letter) + 1 : letter === 'i' ? 'ii' : String.fromCharCode(letter.charCodeAt(0) + 1)})`;
  const line = lines[i]!;
  if (line.text.includes(next)) return false;
  const opens = new RegExp(`^${next.replace(/[()]/g, '\\$&')}\\s+[\\p{Lu}\\d]`, 'u');
  for (let j = i + 1; j < Math.min(lines.length, i + 1 + ENCLOSED_NEXT_PARAGRAPH_WITHIN); j++) {
    const text = lines[j]!.text;
    if (text.startsWith(next)) return opens.test(text) && /[.:;!?]["”')]?$/.test(lines[j - 1]!.text);
    if (text.includes(next) && !onlyCited(text, next)) return false;
  }
  return false;
}

/**
 * A number or letter in parentheses leading a line (regulations, legal text, papers): an item when it
 * follows an item marked the same way, or starts a sequence ("(1)", "(a)", "(i)") whose next mark
 * starts a line soon after, since "(3)" or "(e)" also wrap to the start of a line inside running
 * text, and so does an inline enumeration's "(1)" whose "(2)" then sits inside a line.
 */
function enclosedNumber(
  lines: Line[],
  i: number,
  item: ListItemLines | undefined,
  previous: string | undefined,
): RegExpExecArray | null {
  const line = lines[i]!;
  const match = ENCLOSED_NUMBER.exec(line.text);
  if (!match) return null;
  // "(a) Cube (b) Pyramid": sub-figure labels in a row, not an item.
  const mark = match[1]!;
  const next = /^\d+$/.test(mark)
    ? String(Number(mark) + 1)
    : mark.length === 1
      ? String.fromCharCode(mark.charCodeAt(0) + 1)
      : '';
  // A mark whose successor is only cited in its line ("(b) Registration under paragraphs (c) and (d)") stays a
  // mark when it opens a sentence; a wrapped citation ("(c) and (d) of this section") does not.
  const opensSentence = /^\(\w+\)\s+[\p{Lu}\d]/u.test(line.text);
  if (next && line.text.includes(`(${next})`) && !(opensSentence && onlyCited(line.text, `(${next})`))) return null;
  if (item?.enclosed) return match;
  // "(4)" on the page after "(3)", past a running header or a figure, goes on with its list when it
  // opens a sentence on a line of its own ("... of this AD." wrapped to "(4) of this AD" does not).
  if (previous !== undefined && successor(previous) === mark && /^\(\w+\)\s+[\p{Lu}\d]/u.test(line.text)) return match;
  if (!/^(?:1|a|i)$/i.test(mark)) return null;
  // "(i)" opens letters ("(j)") or roman numerals ("(ii)").
  const nexts = mark.toLowerCase() === 'i' ? [`(${next})`, `(${mark}${mark})`] : [`(${next})`];
  return nexts.some((m) => nextMarkStartsALine(lines, i, m)) ? match : null;
}

/** The mark after a number or a single letter ("3" → "4", "c" → "d"); roman numerals have none here. */
function successor(mark: string): string {
  if (/^\d+$/.test(mark)) return String(Number(mark) + 1);
  return /^[a-hj-uw-z]$/.test(mark) ? String.fromCharCode(mark.charCodeAt(0) + 1) : '';
}

/**
 * Enclosed marks of different kinds set at one indent nest by kind (regulations set "(a)", "(1)" and "(i)"
 * flush at the same indent): a "(1)" or "(i)" after an item of another kind opens a level under it, and a
 * mark that follows an open level's last mark ("(d)" after "(c)", past "(1)" ... "(10)") goes back to it.
 */
function nestByMarkKind(items: ListItemLines[]): void {
  let open: Array<{ level: number; kind: MarkKind; mark: string }> = [];
  for (const item of items) {
    const mark = item.mark;
    if (mark === undefined) {
      open = [];
      continue;
    }
    if (open.length && open[0]!.level !== item.level) open = [];
    let k = open.length - 1;
    while (k >= 0 && nextOfKind(open[k]!.kind, open[k]!.mark) !== mark) k--;
    const kind = markKind(mark);
    if (k >= 0) {
      open.length = k + 1;
      open[k]!.mark = mark;
    } else if (open.length && FIRST_MARK.has(mark) && kind !== open[open.length - 1]!.kind) {
      open.push({ level: item.level, kind, mark });
    } else open = [{ level: item.level, kind, mark }];
    item.level += open.length - 1;
  }
}

type MarkKind = 'number' | 'letter' | 'roman';

/** The marks a sequence of each kind starts with. */
const FIRST_MARK = new Set(['1', 'a', 'i']);

/** A mark's kind when it does not go on from an open level: "(i)", "(ii)", "(iv)" are roman numerals. */
function markKind(mark: string): MarkKind {
  if (/^\d+$/.test(mark)) return 'number';
  return /^(?:i|[ivx]{2,4})$/.test(mark) ? 'roman' : 'letter';
}

/** The mark after `mark` in a sequence of `kind`. */
function nextOfKind(kind: MarkKind, mark: string): string {
  if (kind === 'number') return String(Number(mark) + 1);
  if (kind === 'letter') return mark.length === 1 ? String.fromCharCode(mark.charCodeAt(0) + 1) : '';
  const index = ROMAN.indexOf(mark);
  return index >= 0 ? (ROMAN[index + 1] ?? '') : '';
}

const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv'];

/** A line that does not go on from the line before it: first of its page, after a heading or a closed sentence. */
function standsApart(lines: Line[], i: number, heading: boolean[]): boolean {
  const prev = lineAt(lines, i - 1);
  return !prev || prev.page !== lines[i]!.page || heading[i - 1]! || /[.:;!?]["”')]?$/.test(prev.text);
}

/**
 * Whether `mark` starts one of the next lines before it appears inside one. Further than
 * ENCLOSED_NEXT_WITHIN lines (a regulation's long "(a)" paragraph), only a mark that opens a sentence
 * at the first mark's indent, after a line that ended one, counts, and the first mark must itself
 * open a paragraph.
 */
function nextMarkStartsALine(lines: Line[], i: number, mark: string): boolean {
  const line = lines[i]!;
  const prev = lineAt(lines, i - 1);
  const opensParagraph = !prev || prev.page !== line.page || /[.:;!?]["”')]?$/.test(prev.text);
  const reach = opensParagraph ? ENCLOSED_NEXT_PARAGRAPH_WITHIN : ENCLOSED_NEXT_WITHIN;
  for (let j = i + 1; j < Math.min(lines.length, i + 1 + reach); j++) {
    const next = lines[j]!;
    const text = next.text;
    if (text.startsWith(mark)) {
      if (j <= i + ENCLOSED_NEXT_WITHIN) return true;
      return (
        (Math.abs(indent(next) - indent(line)) < 2 || sameFirstLineIndent(lines, i, j)) &&
        /[.:;!?]["”')]?$/.test(lines[j - 1]!.text) &&
        new RegExp(`^${mark.replace(/[()]/g, '\\$&')}\\s+[\\p{Lu}\\d]`, 'u').test(text)
      );
    }
    if (text.includes(mark) && !onlyCited(text, mark)) return false;
  }
  return false;
}

/** A mark cited by its paragraph's name or beside other marks: "paragraphs (b) to (h)", "(a), (b) and (d)", "(b)(6)". */
const CITED_AFTER = /(?:\b(?:paragraphs?|subparagraphs?|sections?|clauses?)|§|\)\s*(?:,|and|or|to|through)?)\s*$/i;

/** Whether every time `mark` appears inside the line it is cited, not set as a mark. */
function onlyCited(text: string, mark: string): boolean {
  for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + mark.length)) {
    if (at === 0) return false;
    if (!CITED_AFTER.test(text.slice(Math.max(0, at - 16), at)) && text[at + mark.length] !== '(') return false;
  }
  return true;
}

/**
 * Two paragraphs' first lines indented alike from the lines that wrap under them, wherever they sit: the
 * second mark of a lettered paragraph in the next column, whose edge is elsewhere.
 */
function sameFirstLineIndent(lines: Line[], i: number, j: number): boolean {
  const offset = (k: number): number | undefined => {
    const under = lines[k + 1];
    return under && under.page === lines[k]!.page && !under.rtl ? lines[k]!.x - under.x : undefined;
  };
  const a = offset(i);
  const b = offset(j);
  return a !== undefined && b !== undefined && a > 1 && Math.abs(a - b) < 2;
}

/** How far in from its side a line starts: right-to-left lines start at their right edge. */
function indent(line: Line): number {
  return line.rtl ? -line.right : line.x;
}

/** A line right under a list item, indented past its marker, wraps the item's text. */
function continuesItem(item: ListItemLines, prev: Line | undefined, line: Line): boolean {
  return !!prev && line.page === prev.page && indent(line) > item.x + 2 && gapBetween(prev, line) < line.size * 1.6;
}

/**
 * An item's text wrapped to a line that `continuesItem` does not take: back at the column's edge (left of the
 * item's text, even of its marker), or further below than a paragraph's lines (a list set with wide spacing).
 * The item's last line runs to the column's right edge (or the next line opens in lower case) without
 * ending its sentence, and the next line follows in the item's size.
 */
function wrapsUnindented(lines: Line[], i: number, item: ListItemLines): boolean {
  const line = lines[i]!;
  const prev = item.last;
  if (lines[i - 1] !== prev || line.page !== prev.page || line.rtl || prev.rtl) return false;
  if (Math.abs(line.size - prev.size) > 0.5 || gapBetween(prev, line) >= line.size * 2.6 || line.y >= prev.y)
    return false;
  if (line.cells.length > 1 || runsInNextNumber(item, prev)) return false;
  // The wrapped line starts at most a few sizes left of the marker (a column's edge, not the next column's).
  if (line.x < item.x - line.size * 4 || line.x > item.x + line.size * 4) return false;
  // A numbered paragraph set flush with its number ("(a) Schedule II shall consist of ... in this section."
  // over "Unless specifically excepted ..."): a sentence that ends at the column's edge goes on at the line
  // pitch of the paragraph, under the line above; a line that ends a sentence short of the edge, stands
  // further off or is indented (a new paragraph's first line) ends it.
  if (/[.!?:;]["”')]?$/.test(prev.text))
    return (
      item.ordered &&
      line.x <= prev.x + line.size * 0.5 &&
      gapBetween(prev, line) <= line.size * SAME_PARAGRAPH_PITCH &&
      wrappedBefore(lines, i - 1, line)
    );
  // A line that opens in lower case (after a reference such as "(h)(6)") goes on with the sentence above it,
  // however short that line stopped (a narrow column whose running header is wider than the column).
  return wrappedBefore(lines, i - 1, line) || /^(?:\(\w{1,4}\))*\s*\p{Ll}/u.test(line.text);
}

/** Lines of one paragraph stand at most this many text sizes apart (single spacing with some leading). */
const SAME_PARAGRAPH_PITCH = 1.4;

/**
 * A numbered item whose line carries the next number after a sentence ("1. Review the handling. 2. Add a
 * check for"): points run into one paragraph, which is left as its lines show it rather than made one item.
 */
function runsInNextNumber(item: ListItemLines, line: Line): boolean {
  if (!item.ordered || item.value === undefined) return false;
  return new RegExp(`[.;]\\s+${item.value + 1}[.)]\\s`).test(line.text);
}

/**
 * A line that ends where the next line's first word would not have fitted before the right edge of the text
 * around it: it was wrapped, not ended.
 */
function wrappedBefore(lines: Line[], i: number, next: Line): boolean {
  const { room, word } = roomForNextWord(lines, i, next);
  return word >= room - lines[i]!.size * 0.5;
}

/**
 * How far line `i` stops short of the right edge of the text around it (lines near it on its page, starting
 * near its left edge), and the width of the next line's first word with its space, told from that line's mean letter.
 */
function roomForNextWord(lines: Line[], i: number, next: Line): { room: number; word: number } {
  const line = lines[i]!;
  let right = line.right;
  for (let k = Math.max(0, i - 6); k <= i + 6 && k < lines.length; k++) {
    const l = lines[k]!;
    if (l.page === line.page && !l.table && Math.abs(l.x - line.x) < line.size * 6) right = Math.max(right, l.right);
  }
  const perChar = (next.right - next.x) / Math.max(1, next.text.length);
  // In Chinese, Japanese or Thai text a line may break after any character: the next word is one character.
  const firstWord = wrapsWithoutSpace(line.text, next.text) ? 1 : (/^\S+/u.exec(next.text)?.[0].length ?? 0) + 1;
  return { room: right - line.right, word: perChar * firstWord };
}

/** A heading's first line that ends with a colon, right above its second line in the same type. */
function wrapsAfterColon(first: Line, second: Line): boolean {
  return (
    /:$/.test(first.text) &&
    sameStyle(first, second) &&
    first.page === second.page &&
    gapBetween(first, second) <= second.size * WRAPPED_HEADING_PITCH &&
    first.text.length + second.text.length < MAX_HEADING_CHARS
  );
}

function sameStyle(a: Line, b: Line): boolean {
  return a.size === b.size && a.bold === b.bold && a.font === b.font;
}

/**
 * The nesting level of a list item from its marker's indent: deeper than the item before it when
 * its marker stands clearly to the right, back out to the level whose marker it lines up with.
 */
function markerLevel(markers: number[], line: Line): number {
  const x = indent(line);
  const tolerance = Math.max(3, line.size * NESTED_INDENT_RATIO);
  // A marker much further in starts the list again in another column, not a sub-list.
  if (markers.length && x > markers[markers.length - 1]! + line.size * MAX_NESTED_INDENT_RATIO) markers.length = 0;
  while (markers.length && x < markers[markers.length - 1]! - tolerance) markers.pop();
  const top = markers[markers.length - 1];
  if (top === undefined || x > top + tolerance) markers.push(x);
  return markers.length - 1;
}

/** A sub-item's marker stands at least this many text sizes right of its parent's. */
const NESTED_INDENT_RATIO = 0.6;
/** ...and at most this many: further in, it is a list in the next column. */
const MAX_NESTED_INDENT_RATIO = 5;

function plainText(value: string): Inline[] {
  return [{ type: 'text', text: value }];
}

/** A quotation's opening mark, and a sentence's end inside its closing one. */
const OPENS_QUOTE = /^["“„«‘]/;
const ENDS_QUOTED_SENTENCE = /[.!?…]["”»’]$/;

/** Lines a pull quote may wrap onto. */
const PULL_QUOTE_LINES = 4;

/**
 * A magazine's pull quote, set large between the columns' paragraphs ("“It feels like the village has been
 * stitched back" / "together.”"), is a quoted sentence, not a heading: from a heading line that opens a
 * quotation, the lines in its style up to the one that closes it after a sentence's end lose their heading
 * flag. Returns the last line looked at.
 */
function pullQuoteEnd(lines: Line[], i: number, heading: boolean[]): number {
  const first = lines[i]!;
  if (!OPENS_QUOTE.test(first.text)) return i;
  for (let j = i; j < lines.length && j < i + PULL_QUOTE_LINES; j++) {
    const line = lines[j]!;
    if (j > i && (!sameStyle(first, line) || line.page !== first.page)) return i;
    if (ENDS_QUOTED_SENTENCE.test(line.text)) {
      for (let k = i; k <= j; k++) heading[k] = false;
      return j;
    }
  }
  return i;
}

function isHeadingLine(line: Line, body: number): boolean {
  if (line.text.length > MAX_HEADING_CHARS || !/\p{L}/u.test(line.text) || /[.,;:]$/.test(line.text)) return false;
  // A line led by a bullet is a list item set large, not a heading.
  if (line.size >= body * HEADING_RATIO) return !BULLET.test(line.text);
  return (
    line.bold &&
    line.size >= body * 0.98 &&
    line.text.length <= 80 &&
    !BULLET.test(line.text) &&
    !runsIntoPlainText(line)
  );
}

/**
 * A line whose bold or italic opening runs on in plain text ("(c) *Opium derivatives.* Unless specifi-",
 * "**Note.** Keep the"): a run-in heading, which opens its paragraph and is no heading of its own.
 */
function runsIntoPlainText(line: Line): boolean {
  let styled = false;
  let last: StyledRun | undefined;
  for (const run of line.runs) {
    if (!/\p{L}/u.test(run.text)) continue;
    styled ||= run.bold || run.italic;
    last = run;
  }
  return styled && !!last && !last.bold && !last.italic;
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
  const next = lineAt(lines, i + 1);
  const prev = lineAt(lines, i - 1);
  if (line.table || line.text.length > MAX_STYLED_HEADING_CHARS || line.size < body * 0.95) return false;
  if (!/\p{L}/u.test(line.text) || /[.,;:]$/.test(line.text) || BULLET.test(line.text)) return false;
  if (runsIntoPlainText(line)) return false;
  const apart = line.font !== font && line.font !== '';
  if (!apart || !next || next.table || next.page !== line.page) return false;
  // Followed by body text, and not the tail of a paragraph in the same style.
  const followedByBody = next.font !== line.font || next.size !== line.size;
  const standsAlone = !prev || prev.page !== line.page || prev.font !== line.font || /[.!?:]$/.test(prev.text);
  return followedByBody && standsAlone && /^[\p{Lu}\p{Lo}\d(]/u.test(line.text);
}

/**
 * A section title in capitals at the body's size (IEEE papers' centred "I. INTRODUCTION", often small
 * capitals): a short line without a lower-case letter, numbered or centred in its column, standing apart from
 * the text above it (or first in its column), with text in lower case under it.
 */
function isCapitalsTitle(lines: Line[], i: number, body: number): boolean {
  const line = lines[i]!;
  if (line.table || line.rtl || line.cells.length > 1 || line.text.length > MAX_CAPITALS_TITLE_CHARS) return false;
  // Small capitals: most letters set at 0.7-0.8 of the body's size.
  if (line.size < body * 0.7 || /\p{Ll}/u.test(line.text) || !/\p{Lu}{3}/u.test(line.text)) return false;
  if (/[.,;:]$/.test(line.text) || BULLET.test(line.text)) return false;
  const next = lineAt(lines, i + 1);
  if (!next || next.page !== line.page || next.table || !/\p{Ll}/u.test(next.text) || next.y >= line.y) return false;
  const prev = lineAt(lines, i - 1);
  const apart = !prev || prev.page !== line.page || prev.y < line.y || prev.y - line.y > line.size * CAPITALS_TITLE_GAP;
  if (!apart) return false;
  if (/^(?:[IVX]{1,5}|\d{1,2})\.\s/.test(line.text)) return true;
  // Centred: as far in from the column's left edge as from its right, the column being the lines around it.
  const around = lines
    .slice(Math.max(0, i - 8), i + 9)
    .filter((l) => l !== line && l.page === line.page && !l.table && l.x < line.right && l.right > line.x);
  if (around.length < 3) return false;
  const left = Math.min(...around.map((l) => l.x));
  const right = Math.max(...around.map((l) => l.right));
  return line.x - left > line.size * 2 && Math.abs(line.x - left - (right - line.right)) < line.size * 1.5;
}

/** A title in capitals is short... */
const MAX_CAPITALS_TITLE_CHARS = 60;
/** ...and stands at least this many of its sizes under the line above it (a paragraph's space before it). */
const CAPITALS_TITLE_GAP = 1.5;

/** A heading's second line set a little smaller, at the heading's own line spacing (a subheading stands further off). */
function wrapsSmaller(first: Line, second: Line): boolean {
  const larger = Math.max(first.size, second.size);
  return (
    Math.min(first.size, second.size) >= larger * HEADING_CONTINUATION_SIZE_RATIO &&
    gapBetween(first, second) <= larger * WRAPPED_HEADING_PITCH
  );
}

/** A wrapped heading's lines are at most this many of its sizes apart. */
const WRAPPED_HEADING_PITCH = 1.35;

/** A chapter or section number set on its own line in heading type: "1", "12.", or a number in a box beside its title. */
const LONE_SECTION_NUMBER = /^\d{1,2}\.?$/;
/** A lone number this many times the body size is a chapter number even when not bold. */
const CHAPTER_NUMBER_RATIO = 2;

function isSectionNumber(line: Line, body: number): boolean {
  if (line.table || !LONE_SECTION_NUMBER.test(line.text)) return false;
  return line.size >= body * CHAPTER_NUMBER_RATIO || (line.bold && line.size >= body * HEADING_RATIO);
}

/**
 * A heading measured against the text under it rather than the document's body: a short line on its own,
 * bold or in another family than the next line, and clearly larger than it. Pages set in their own small
 * type (a brochure page, a sidebar) have headings below the document's body size.
 */
function isLocalHeading(lines: Line[], i: number, font: string): boolean {
  const line = lines[i]!;
  const next = lineAt(lines, i + 1);
  const prev = lineAt(lines, i - 1);
  if (line.table || line.cells.length > 1 || line.text.length > MAX_STYLED_HEADING_CHARS) return false;
  if (!/\p{L}/u.test(line.text) || /[.,;:]$/.test(line.text) || BULLET.test(line.text)) return false;
  if (!next || next.table || next.page !== line.page || line.size < next.size * HEADING_RATIO) return false;
  // The text it heads follows right under it (a caption's next line is often a label inside its figure).
  const below = line.y - next.y;
  if (below <= 0 || below > line.size * LOCAL_HEADING_MAX_GAP) return false;
  if (line.font === font || !(line.bold || family(line.font) !== family(next.font))) return false;
  const standsAlone = !prev || prev.page !== line.page || !sameStyle(prev, line) || /[.!?:]$/.test(prev.text);
  return standsAlone && /^[\p{Lu}\p{Lo}\d(]/u.test(line.text);
}

/** A local heading's text starts within this many of the heading's sizes below it. */
const LOCAL_HEADING_MAX_GAP = 3;

/** A font's family without the style words poppler's reader appends. */
function family(font: string): string {
  return font.replace(/ (bold|italic)\b/g, '');
}

/**
 * Lines led by a symbol-font bullet that reads as a letter or a symbol (Wingdings' "q" box, "l" dot, a box read
 * as "¢"): the same glyph leads at least two lines at one indent on a page, which a word's first letter in
 * another font does not. A symbol in the text's own font followed by a space (a bullet whose code reads as "¥"
 * in the font's encoding) counts when it leads at least three.
 */
function symbolBulletLines(lines: Line[]): Set<Line> {
  const key = (l: Line): string => `${l.page}|${Math.round(indent(l))}|${lineMarker(l)}`;
  const counts = new Map<string, number>();
  // Loops, not callbacks per call (V8 compiles each new instance of a hot closure again).
  const led: Line[] = [];
  for (const l of lines) if (lineMarker(l) !== undefined) led.push(l);
  for (const l of led) counts.set(key(l), (counts.get(key(l)) ?? 0) + 1);
  const found = new Set<Line>();
  for (const l of led) if (counts.get(key(l))! >= (l.marker ? 2 : 3)) found.add(l);
  // A lone glyph set apart in its own font that leads a single line nested right under a bulleted line
  // (Word's second-level "o" in Courier New, once under one item) is that item's sub-item.
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const above = lineAt(lines, i - 1);
    if (!l.marker || found.has(l) || lineMarker(l) === undefined || !above || above.page !== l.page) continue;
    const bulleted = BULLET.test(above.text) || found.has(above);
    if (bulleted && indent(l) > indent(above) + l.size * NESTED_INDENT_RATIO) found.add(l);
  }
  return found;
}

/** "2.1 " before a sub-item's words. */
const SUB_NUMBER = /^\d{1,3}\.\d{1,3}\.?\s+\S/;

/**
 * Numbered items with their text hung under it (an agenda, a list of exceptions): "1.", "2.", "3." at one
 * indent on a page, counting up by one, every line between two of them indented past the numbers, and at
 * least one item with such lines. They are list items even when set in bold or larger than the body, which
 * would make each a heading: a numbered section's text comes back to the number's edge. Lines numbered
 * "2.1", "2.2" hung under an item are its sub-items (whatever number they carry: agendas renumber loosely).
 */
function hangingNumberedLines(lines: Line[]): { items: Set<Line>; subItems: Set<Line> } {
  const items = new Set<Line>();
  const subItems = new Set<Line>();
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!;
    const value = numberedValue(first);
    if (value === undefined || items.has(first)) continue;
    const chain = [first];
    const subs: Line[] = [];
    let hung = false;
    let current = first;
    let expected = value + 1;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.page !== first.page || line.table) break;
      if (!/[\p{L}\p{N}]/u.test(line.text)) continue;
      if (Math.abs(indent(line) - indent(current)) < 2 && numberedValue(line) === expected) {
        chain.push(line);
        current = line;
        expected++;
        continue;
      }
      if (indent(line) <= indent(current) + line.size * NESTED_INDENT_RATIO) break;
      hung = true;
      if (SUB_NUMBER.test(line.text)) subs.push(line);
    }
    if (chain.length < 2 || !hung || numberedHeadingBefore(lines, i)) continue;
    for (const l of chain) items.add(l);
    for (const l of subs) subItems.add(l);
  }
  return { items, subItems };
}

/** A capital and a period before a capitalised word: "R. Tanaka reported", or item "B. Methods" of a lettered list. */
const INITIAL = /^([A-HJ-UWYZ])\.\s+\p{Lu}/u;
/** Lines looked through for the next letter of a lettered list. */
const NEXT_LETTER_REACH = 60;

/**
 * A line opening with a capital and a period is a name's initial, not a list marker, unless a lettered
 * list runs through it: the list item before it has the letter before, or a later line at its indent
 * has the next letter. (I, V and X may number a list in Roman numerals: they stay markers.)
 */
function initialNotMarker(lines: Line[], i: number, item: ListItemLines | undefined): boolean {
  const line = lines[i]!;
  const m = INITIAL.exec(line.text);
  if (!m) return false;
  const value = m[1]!.charCodeAt(0) - 64;
  if (item && item.ordered && numberedValue(item.all[0]!) === value - 1) return false;
  const end = Math.min(lines.length, i + NEXT_LETTER_REACH);
  for (let j = i + 1; j < end; j++) {
    const next = lines[j]!;
    if (Math.abs(indent(next) - indent(line)) < 2 && numberedValue(next) === value + 1) return false;
  }
  return true;
}

/**
 * Whether numbered line `i` goes on from an earlier one in its type: the number before it at its indent, in
 * its size and font, with other lines between (a section "2." and its text before section "3."). Such lines
 * number sections, which hung items under one of them do not make a list.
 */
function numberedHeadingBefore(lines: Line[], i: number): boolean {
  const line = lines[i]!;
  const value = numberedValue(line);
  if (value === undefined || value < 2) return false;
  for (let j = i - 2; j >= 0; j--) {
    const earlier = lines[j]!;
    if (numberedValue(earlier) !== value - 1 || Math.abs(indent(earlier) - indent(line)) >= 2) continue;
    return earlier.size === line.size && earlier.font === line.font && earlier.bold === line.bold;
  }
  return false;
}

/** The value of a line's "3." or "c)" marker (letters count from 1); undefined for other lines. */
function numberedValue(line: Line): number | undefined {
  if (line.rtl) return undefined;
  const marker = NUMBERED.exec(line.text)?.[1]?.slice(0, -1);
  if (!marker) return undefined;
  if (/^\d+$/.test(marker)) return Number(marker);
  return /^[a-z]$/i.test(marker) ? marker.toLowerCase().charCodeAt(0) - 96 : undefined;
}

/** The marker of an item whose bullet is drawn rather than written: nothing to drop from its text. */
const NO_MARKER: [string] = [''];

/** How far (text sizes) the first drawn-bullet item may stand below the line ending with a colon. */
const UNMARKED_FIRST_GAP = 2.6;

/** How an item in lower case ends when another follows: "…;", "…," or "…; and" (a list that goes on its sentence). */
const LOWER_ITEM_GOES_ON = /(?:[;,]|;\s+(?:and|or))$/u;

/**
 * Whether a line may open an unmarked item: a capital or a digit, or, in a list that goes on the sentence
 * introducing it, lower case ending as such an item does ("…;"), or with a full stop after one that did.
 */
function opensItem(line: Line, previous: Line | undefined): boolean {
  if (/^[\p{Lu}\d]/u.test(line.text)) return true;
  if (!/^\p{Ll}/u.test(line.text)) return false;
  return (
    LOWER_ITEM_GOES_ON.test(line.text) ||
    (!!previous && LOWER_ITEM_GOES_ON.test(previous.text) && /\.$/.test(line.text))
  );
}

/** A monospaced letter's width, in text sizes (Courier's, DejaVu Sans Mono's): what an indent of code is counted in. */
const MONOSPACED_ADVANCE = 0.6;

/**
 * The end of a run of code from line `i`: lines set wholly in monospaced type in a document whose text is
 * not, one under the other on one page, none further below the last than a blank line would leave
 * (a command a manual shows, a listing); undefined when line `i` is no such line.
 */
function codeLinesAt(lines: Line[], i: number, bodyFont: string, body: number): number | undefined {
  if (isMonospacedFont(bodyFont) || !isCodeLine(lines[i]!, body)) return undefined;
  let end = i + 1;
  while (end < lines.length) {
    const line = lines[end]!;
    const above = lines[end - 1]!;
    if (!isCodeLine(line, body) || line.page !== above.page || gapBetween(above, line) > line.size * 2.6) break;
    end++;
  }
  return end;
}

/** A line of code: in a monospaced face, in no larger type than the body's (a heading set in one is no code). */
function isCodeLine(line: Line, body: number): boolean {
  return !line.table && !line.rtl && isMonospacedFont(line.font) && line.size <= body * 1.05;
}

/**
 * The code's lines as they stand: each indented by its distance from the run's left edge, in letters.
 */
function codeText(run: Line[]): string {
  const left = Math.min(...run.map((l) => l.x));
  return run
    .map((l) => ' '.repeat(Math.max(0, Math.round((l.x - left) / (l.size * MONOSPACED_ADVANCE)))) + l.text)
    .join('\n');
}

/**
 * Items whose bullets are drawn (a filled circle, a picture) and so are not in the text: after a line that
 * ends with a colon, two or more lines indented past it, one under the other at one indent in one style,
 * each opening with a capital or a digit (`opensItem`) and each stopping well short of the column's edge (none wraps into
 * the next, which would make them a paragraph), in lower case too when they go on the introducing sentence
 * ("…;" items). Written markers are read as such elsewhere; lines in monospaced type are code.
 */
function unmarkedItemLines(lines: Line[]): Set<Line> {
  const found = new Set<Line>();
  for (let i = 0; i < lines.length - 2; i++) {
    const intro = lines[i]!;
    if (intro.table || intro.rtl || !/:$/.test(intro.text)) continue;
    const run: Line[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      const first = run[0];
      const prev = lines[j - 1]!;
      const fits = opensItem(line, run[run.length - 1]) && indentedUnder(intro, line, prev, first);
      if (!fits) break;
      run.push(line);
    }
    const wrapped = wrappedItemStarts(lines, i);
    if (wrapped) {
      for (const line of wrapped.starts) found.add(line);
      i = wrapped.end - 1;
      continue;
    }
    // A last line followed at its indent by a line in lower case is a paragraph's first line (a quotation).
    if (run.length < 2) continue;
    const after = lines[lines.indexOf(run[run.length - 1]!) + 1];
    if (after && after.page === intro.page && Math.abs(after.x - run[0]!.x) < 1 && /^\p{Ll}/u.test(after.text))
      run.pop();
    if (run.length < 2) continue;
    // None of them wraps into the next: each stopped where the next line's first word would still have
    // fitted before the right edge of the page's text at that indent.
    const idx = lines.indexOf(run[0]!);
    const column = lines.filter((l) => l.page === intro.page && !l.table && Math.abs(l.x - intro.x) < intro.size * 6);
    const right = Math.max(...column.map((l) => l.right));
    // A line that reaches the edge is a paragraph's first line, whatever follows.
    const short = (line: Line): boolean => line.right < right - line.size * 2;
    if (!run.every((line, k) => short(line) && (k === run.length - 1 || !wrapsInto(line, run[k + 1]!, right))))
      continue;
    for (const line of run) found.add(line);
    i = idx + run.length - 1;
  }
  return found;
}

/**
 * Whether `line` may be a drawn-bullet item's line under `intro` (a line ending with a colon): on its page,
 * plain text in one cell, no written marker, not monospaced (code), indented past it, close under the line
 * before (the first item may stand a paragraph's spacing below the intro: Word's space after), and at the
 * indent and in the style of the run's `first` line.
 */
function indentedUnder(intro: Line, line: Line, prev: Line, first: Line | undefined): boolean {
  return (
    line.page === intro.page &&
    !line.table &&
    !line.rtl &&
    line.cells.length <= 1 &&
    !isMonospacedFont(line.font) &&
    !BULLET.test(line.text) &&
    !NUMBERED.test(line.text) &&
    line.x >= intro.x + line.size * 0.8 &&
    gapBetween(prev, line) < line.size * (first ? 2 : UNMARKED_FIRST_GAP) &&
    (!first || (Math.abs(line.x - first.x) < 1 && sameStyle(line, first)))
  );
}

/** Lines either side of a line that tell the right edge of its column (columnRight). */
const COLUMN_WINDOW = 12;

/**
 * The right edge of the text in line `i`'s column: of the lines near it on its page that start near it (a
 * page's full-width title or abstract over two columns is further off).
 */
function columnRight(lines: Line[], i: number): number {
  const at = lines[i]!;
  let right = at.right;
  for (let k = Math.max(0, i - COLUMN_WINDOW); k < Math.min(lines.length, i + COLUMN_WINDOW); k++) {
    const l = lines[k]!;
    if (l.page === at.page && !l.table && Math.abs(l.x - at.x) < at.size * 6) right = Math.max(right, l.right);
  }
  return right;
}

/** How an item's last line ends: a full stop, semicolon or comma, or "; and" (a list going on its sentence). */
const ITEM_END = /(?:[.;,!?]|;\s+(?:and|or))["\u201d')]?$/u;

/**
 * Drawn-bullet items that wrap (a narrow column): after a line ending with a colon, lines at one indent past
 * it, in one style, at one line pitch throughout (a quotation's paragraphs stand further apart), each item's
 * lines wrapping into the next (its next word would not have fitted) until its last, which stops short and
 * ends as an item does; at least two items, one of them wrapped. Items in lower case go on the introducing
 * sentence ("…;"). The first line of each item and the line after the list, or undefined.
 */
function wrappedItemStarts(lines: Line[], i: number): { starts: Line[]; end: number } | undefined {
  const intro = lines[i]!;
  const right = columnRight(lines, i);
  const run: Line[] = [];
  for (let j = i + 1; j < lines.length; j++) {
    const line = lines[j]!;
    const first = run[0];
    if (!indentedUnder(intro, line, lines[j - 1]!, first)) break;
    run.push(line);
  }
  const starts: Line[] = [];
  let items = 0;
  let wrapped = false;
  let open = false;
  let last = -1;
  for (let k = 0; k < run.length; k++) {
    const line = run[k]!;
    const next = run[k + 1];
    if (!open) {
      if (!/^[\p{L}\d]/u.test(line.text)) break;
      starts.push(line);
    }
    open = !!next && wrapsInto(line, next, right);
    if (!open && !ITEM_END.test(line.text)) break;
    if (open) wrapped = true;
    else {
      items++;
      last = k;
    }
  }
  if (items < 2 || !wrapped) return undefined;
  starts.length = items;
  const kept = run.slice(0, last + 1);
  const pitches = kept.slice(1).map((line, k) => gapBetween(kept[k]!, line));
  if (Math.max(...pitches) - Math.min(...pitches) > intro.size * 0.3) return undefined;
  const ends = kept.filter((_, k) => k === kept.length - 1 || starts.includes(kept[k + 1]!));
  if (starts.some((l) => /^\p{Ll}/u.test(l.text)) && !ends.slice(0, -1).every((l) => LOWER_ITEM_GOES_ON.test(l.text)))
    return undefined;
  return { starts, end: lines.indexOf(kept[kept.length - 1]!, i) + 1 };
}

/** Whether a line's text wraps into the next: the next line's first word would not have fitted after it. */
function wrapsInto(line: Line, next: Line, right: number): boolean {
  const perChar = (next.right - next.x) / Math.max(1, next.text.length);
  const firstWord = (/^\S+/u.exec(next.text)?.[0].length ?? 0) + 1;
  return line.right + perChar * firstWord >= right - line.size * 0.5;
}

/** A symbol before a space and a word: currency or other symbols, not math (a chain of "⇒" steps is no list). */
const SYMBOL_BEFORE_WORD = /^([\p{Sc}\p{So}])\s+(?=\p{L})/u;

/** The glyph that may be the line's bullet: a lone glyph set apart in another font, or a symbol before a word. */
function lineMarker(line: Line): string | undefined {
  // Letters (Wingdings' "l"), symbols and private-use glyphs; not numbers, punctuation or math (a "⇒" in its own font),
  // except "!": a symbol font's first code (0x21), which is WordPerfect's typographic-symbols bullet.
  if (line.marker) return /[\p{L}\p{Sc}\p{So}\p{Co}]|^!+$/u.test(line.marker) ? line.marker : undefined;
  return SYMBOL_BEFORE_WORD.exec(line.text)?.[1];
}

/** A line's bullet glyph (one glyph, or one drawn twice) and the space after it. */
function leadingMarker(line: Line): [string] | null {
  const marker = lineMarker(line);
  if (!marker || !line.text.startsWith(marker)) return null;
  return [marker + /^\s*/u.exec(line.text.slice(marker.length))![0]];
}

function gapBetween(a: Line, b: Line): number {
  return a.page === b.page ? Math.abs(a.y - b.y) : 0;
}

/**
 * A sentence cut at a column's or a page's end that goes on at the top of the next column or page: the line
 * before stops without ending its sentence, where the next word would not have fitted (or on another page),
 * and this line, in its size, opens in lower case higher up and to the right (the next column) or on the
 * next page.
 */
function runsOnElsewhere(lines: Line[], i: number): boolean {
  const line = lines[i]!;
  const prev = lineAt(lines, i - 1);
  if (!prev || prev.table || line.table || line.rtl || prev.rtl || Math.abs(line.size - prev.size) > 0.5) return false;
  if (!/^\p{Ll}/u.test(line.text) || /[.!?:;]["”')]?$/.test(prev.text)) return false;
  if (line.page === prev.page + 1) return true;
  return (
    line.page === prev.page &&
    line.y > prev.y + line.size &&
    line.x > prev.right - line.size &&
    wrappedBefore(lines, i - 1, line)
  );
}

/** A paragraph's first line is indented at least this many text sizes past the line before (LaTeX: 1 em in two columns, 1.5 em in one). */
const PARAGRAPH_INDENT = 0.8;

function startsNewParagraph(lines: Line[], i: number): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  if (prev.page !== line.page) return /[.!?:"”)。！？」]$/.test(textBeforeMark(prev));
  const gap = gapBetween(prev, line);
  if (gap > line.size * 1.75) return true;
  if (Math.abs(prev.size - line.size) > 0.5) return true;
  if (!/[.!?:。！？]$/.test(textBeforeMark(prev))) return false;
  // A first line indented under a sentence's end (LaTeX's 1-1.5 em paragraph indent, no space between).
  if (indent(line) >= indent(prev) + line.size * PARAGRAPH_INDENT) return true;
  // A sentence's end where the next line's first word would have fitted: the line was ended, not wrapped
  // (a one-line paragraph before an indented one, paragraphs set with neither indent nor space).
  return !prev.table && !line.table && indent(line) >= indent(prev) - 1 && endedShort(lines, i - 1, line);
}

/** A check box leading an item (a form's field, a printed checklist): ticked or not; undefined for other bullets. */
function boxState(marker: string): boolean | undefined {
  const box = marker.trimStart()[0];
  return box === '☐' ? false : box === '☒' || box === '☑' ? true : undefined;
}

/** A line's text without the footnote mark raised after its last word: "years.¹" ends a sentence as "years." does. */
function textBeforeMark(line: Line): string {
  return line.endMark ? line.text.replace(TRAILING_MARK, '') : line.text;
}

const TRAILING_MARK = /\s*(?:[∗*†‡§¶]{1,3}|\d{1,3})$/;

/**
 * A line that stops short of the right edge of the text around it by clearly more than the next line's first
 * word (its width told from the next line's mean letter, with room for that guess to be wrong): it was ended.
 */
function endedShort(lines: Line[], i: number, next: Line): boolean {
  const { room, word } = roomForNextWord(lines, i, next);
  return word * SHORT_MARGIN + lines[i]!.size < room;
}

/** How much wider than its guessed width the next line's first word must have room for. */
const SHORT_MARGIN = 1.5;

const RTL_LETTERS = new RegExp(RTL_LETTER.source, 'g');
const LETTERS = /\p{L}/gu;

/**
 * A table's rows in reading order: a table in a right-to-left script (most of its letters Arabic or Hebrew) is read
 * from its right edge, so its first column is the rightmost one, as the document that was printed has it.
 */
function inReadingOrder(rows: string[][]): string[][] {
  if (!rows.some((row) => row.some((cell) => RTL_LETTER.test(cell)))) return rows;
  let rtl = 0;
  let all = 0;
  for (const row of rows) {
    for (const cell of row) {
      rtl += cell.match(RTL_LETTERS)?.length ?? 0;
      all += cell.match(LETTERS)?.length ?? 0;
    }
  }
  return rtl * 2 > all ? rows.map((row) => [...row].reverse()) : rows;
}
