import { closeCells, type Cell, type Line } from './layout';
import { letterPositions } from './glyph-widths';
import { joinWrapped } from './styled-runs';

/** Cell edges this close (points, at least, or text sizes) line up. */
const MIN_ALIGN_TOLERANCE = 4;
const ALIGN_TOLERANCE_RATIO = 0.8;
/** Consecutive lines further apart than this many text sizes are not rows of one table. */
const MAX_ROW_GAP = 3;
/** A table without drawn rules has at least this many rows... */
const MIN_ROWS = 3;
/** ...or is a header and one row, each split into at least this many matching cells. */
const MIN_PAIR_CELLS = 3;
/** Wrapped lines of one table sit this close (points) to the same distance below their row. */
const WRAP_GAP_TOLERANCE = 1;
/** Header lines of one cell each looked for above a table's first row. */
const MAX_HEADER_LINES = 3;
/** Whether every cell of a line after its first starts or ends where a cell of the other line does. */
function edgesLineUp(line: Line, other: Line): boolean {
  const tolerance = Math.max(MIN_ALIGN_TOLERANCE, other.size * ALIGN_TOLERANCE_RATIO);
  return line.cells
    .slice(1)
    .every((cell) =>
      other.cells.some((c) => Math.abs(c.x - cell.x) <= tolerance || Math.abs(c.right - cell.right) <= tolerance),
    );
}

/** A line this many times the size of the line under it is a heading over a table, not a row of it. */
const LARGER_THAN_ROWS = 1.2;
/** Lines of a row's cell a page break cut looked past at the top of the next page for the table's next row. */
const MAX_BROKEN_ROW_LINES = 12;
/** Lines of other cells' wrapped text looked past for the row after a first column's wrapped line. */
const MAX_WRAPPED_AHEAD = 4;
/** A cell of at least this many words reads as running text. */
const PROSE_CELL_WORDS = 5;
/** A column is running text when this share of its filled cells is. */
const PROSE_COLUMN_SHARE = 2 / 3;

/** A column of an aligned-text table: the span its cells cover, and how many rows have a cell in it. */
interface Column {
  x: number;
  right: number;
  rows: number;
}

/**
 * A run of lines split by wide gaps into cells that line up in columns, starting at `start`: a
 * table set without rules. Cells line up by their left edge, their right edge (figures set
 * flush right) or by sitting inside a column's span (centred); a row may open a column the
 * rows above left empty (a header over the data columns only) when another of its cells lines up.
 */
export function tableAt(lines: Line[], start: number): { rows: string[][]; end: number } | undefined {
  const found = tableFromTightHeader(lines, start) ?? tableFrom(lines, start);
  // Right-to-left lines part at the runs of the other direction they hold, not at columns.
  const close = lines[start]!.narrowGaps && !lines[start]!.rtl ? tableSetClose(lines, start) : undefined;
  if (close && (!found || readsBetter(close, found))) return close;
  return found ?? contentsTable(lines, start);
}

/**
 * The table read with every line of the page from `start` parted at its narrow gaps too: TeX sets columns
 * 12 pt apart (twice \tabcolsep), no wider than a wide word space at 10 pt, so a row's cells come joined
 * in pairs ("FS-1001 Battery bank") unless the gaps between them part them.
 */
function tableSetClose(lines: Line[], start: number): { rows: string[][]; end: number } | undefined {
  const page = lines[start]!.page;
  const close: Line[] = [];
  for (let k = start; k < lines.length && lines[k]!.page === page; k++) {
    const line = lines[k]!;
    close.push(line.narrowGaps && !line.rtl ? { ...line, cells: closeCells(line), narrowGaps: undefined } : line);
  }
  const table = tableFrom(close, 0);
  return table && { rows: table.rows, end: start + table.end };
}

/**
 * A reading reaching as far down reads the table better with more columns as full of text, or as many
 * columns fuller (cells no longer joined in pairs leave no column empty).
 */
function readsBetter(close: { rows: string[][]; end: number }, found: { rows: string[][]; end: number }): boolean {
  if (close.end < found.end) return false;
  const [columns, before] = [close.rows[0]!.length, found.rows[0]!.length];
  const [full, was] = [filled(close.rows), filled(found.rows)];
  return (columns > before && full >= was) || (columns === before && full > was + FULLER);
}

/** How much fuller a reading with as many columns must be. */
const FULLER = 0.05;

/** The share of a table's cells that hold text. */
function filled(rows: string[][]): number {
  let full = 0;
  let all = 0;
  for (const row of rows)
    for (const cell of row) {
      all++;
      if (cell.trim()) full++;
    }
  return all ? full / all : 0;
}

/** A contents entry: its title, a leader of 4+ dots (spaced or not), and a page number, arabic or roman. */
const CONTENTS_ENTRY = /^(.*?\S)\s*(?:\.\s?){4,}\s*(\d{1,4}|[ivxlcdm]{1,7})$/i;
/** Entries in a row that make a table of contents. */
const MIN_CONTENTS_ENTRIES = 3;

/**
 * A table of contents: 3+ lines on a page that end in a dot leader and a page number (Word's and LibreOffice's
 * tab leaders, TeX's spaced dots), read as a table of entry and page, as Docling reads one. An entry's title
 * wrapped onto a line without a leader is joined to it. The leader stays with the title, as it is printed.
 */
function contentsTable(lines: Line[], start: number): { rows: string[][]; end: number } | undefined {
  const first = lines[start]!;
  if (!hasLeader(first.text)) return undefined;
  const rows: string[][] = [];
  let end = start;
  let wrapped = '';
  while (end < lines.length && lines[end]!.page === first.page) {
    const text = lines[end]!.text.trim();
    const entry = hasLeader(text) ? CONTENTS_ENTRY.exec(text) : null;
    if (entry) {
      const page = entry[2]!;
      const title = text.slice(0, text.length - page.length).trimEnd();
      rows.push([wrapped ? `${wrapped} ${title}` : title, page]);
      wrapped = '';
    } else if (!wrapped && rows.length && CONTENTS_ENTRY.test(lines[end + 1]?.text.trim() ?? '')) wrapped = text;
    else break;
    end++;
  }
  if (wrapped) end--;
  return rows.length >= MIN_CONTENTS_ENTRIES ? { rows, end } : undefined;
}

/** A quick look for a dot leader before the expression is tried. */
function hasLeader(text: string): boolean {
  return text.includes('....') || text.includes('. . .');
}

function tableFrom(lines: Line[], start: number): { rows: string[][]; end: number } | undefined {
  if (lines[start]!.cells.length >= 2) {
    // A numbered heading ("2 Data", its number set apart) in larger type over a table is not its first row;
    // a header row in larger type is, its names standing at the columns' edges.
    const first = lines[start]!;
    const next = lines[start + 1];
    if (next && next.page === first.page && first.size > next.size * LARGER_THAN_ROWS && !edgesLineUp(first, next))
      return undefined;
    return finished(alignedTable(lines, start), []);
  }
  // Header lines of one cell each (centred over their columns, maybe wrapped) may stand above the first row;
  // at the top of a page, so may the rest of a row the page break cut, wrapped in its cell over more lines.
  const page = lines[start]!.page;
  const opensPage = start === 0 || lines[start - 1]!.page !== page;
  const reach = opensPage ? MAX_BROKEN_ROW_LINES : MAX_HEADER_LINES;
  for (let k = start + 1; k <= start + reach && k < lines.length && lines[k]!.page === page; k++) {
    if (lines[k]!.cells.length < 2) continue;
    const table = alignedTable(lines, k);
    if (!table || (table.rows.length < MIN_ROWS && !opensPage)) return undefined;
    const header = headerRows(lines.slice(start, k), lines[k]!, table.columns);
    return header ? finished(table, header) : undefined;
  }
  return undefined;
}

/**
 * A table whose header row is set tighter than its rows (bold column names 12 pt apart, which `cells`
 * does not part, over figures further apart), or whose names poppler joined into one run ("Aspect
 * Nodes"): the first line split at its narrow gaps, then at the starts of the next line's cells
 * (cutJoinedCells), when that gives it as many cells as the line under it has, opens the table.
 */
function tableFromTightHeader(lines: Line[], start: number): { rows: string[][]; end: number } | undefined {
  const first = lines[start]!;
  const next = lines[start + 1];
  if (!next || next.page !== first.page || next.cells.length < 2 || first.cells.length >= next.cells.length)
    return undefined;
  const tolerance = Math.max(MIN_ALIGN_TOLERANCE, first.size * ALIGN_TOLERANCE_RATIO);
  if (!first.narrowGaps && first.cells.length < 2 && !headerRunOverColumns(first, next, tolerance)) return undefined;
  const columns: Column[] = next.cells.map((c) => ({ x: c.x, right: c.right, rows: 1 }));
  let cells = closeCells(first);
  while (cells.length < next.cells.length) {
    const cut = cutJoinedCells(columns, cells, tolerance);
    if (cut === cells) break;
    cells = cut;
  }
  if (cells.length !== next.cells.length) return undefined;
  let end = start + 1;
  while (end < lines.length && lines[end]!.page === first.page) end++;
  const table = tableFrom([{ ...first, cells, narrowGaps: undefined }, ...lines.slice(start + 1, end)], 0);
  return table && { rows: table.rows, end: start + table.end };
}

/**
 * A line that poppler gave as one run over the next line's columns: a header set as close as TeX sets it (a
 * booktabs table's "Region Hardware Licences", columns 12 pt apart) comes as one run when the gaps are narrow
 * enough. In the rows' type, it starts at the first column and reaches the last one, has a word per column at
 * least, and does not end as a sentence (a caption or a paragraph's last line over a table does); a bold line
 * over plain rows, or over rows opened by list marks, is a heading (troff's ms sets headings at the body size).
 */
function headerRunOverColumns(first: Line, next: Line, tolerance: number): boolean {
  if (first.cells.length !== 1 || first.rtl) return false;
  const cell = first.cells[0]!;
  const columns = next.cells;
  const last = columns[columns.length - 1]!;
  return (
    Math.abs(cell.x - columns[0]!.x) <= tolerance &&
    cell.right > last.x &&
    Math.abs(first.size - next.size) <= 0.05 * next.size &&
    cell.text.split(' ').length >= columns.length &&
    !SENTENCE_END.test(cell.text) &&
    !(first.bold && !next.bold) &&
    !LIST_MARK.test(columns[0]!.text)
  );
}
/** A list's mark opening the row under the line: the line is a heading over a list, not a table's header. */
const LIST_MARK = /^(?:\d{1,3}[.)]|[a-z][.)]|\(\w{1,4}\)|[•·▪◦‣∙–—-])$/;
const SENTENCE_END = /[.:;,!?]$/;

/** The table with its header rows on top and stray columns merged, unless it reads as columns of prose. */
function finished(
  table: { rows: string[][]; columns: Column[]; end: number } | undefined,
  header: string[][],
): { rows: string[][]; end: number } | undefined {
  if (!table) return undefined;
  const rows = mergeStrayColumns([...header, ...table.rows], table.columns);
  return isColumnsOfProse(rows) ||
    isBulletColumn(rows) ||
    isNestedBullets(rows) ||
    isNumberColumn(rows) ||
    isClauseList(rows)
    ? undefined
    : { rows, end: table.end };
}

/** A list marker standing alone in a cell: "1.", "2)", "b.", "(3)", "(c)". */
const NUMBER_MARKER = /^(?:(\d{1,3})[.)]|([a-z])[.)]|\((\d{1,3})\)|\(([a-z])\))$/;

/**
 * Two columns, the first holding list numbers that count up by one ("1.", "2.", "3." or "a)", "b)"), the
 * second running text: a numbered list whose numbers are set apart from their text by a tab, not a table.
 * A row may leave the number out (an item's text wrapped past a page's running header).
 */
function isNumberColumn(rows: string[][]): boolean {
  if (rows.some((r) => r.length !== 2)) return false;
  const marked = rows.filter((r) => r[0]!.trim());
  if (marked.length < 2 || rows.some((r) => !r[1]!.trim())) return false;
  const values = marked.map((r) => {
    const m = NUMBER_MARKER.exec(r[0]!.trim());
    if (!m) return NaN;
    const digits = m[1] ?? m[3];
    return digits ? Number(digits) : m[2] ? m[2].charCodeAt(0) : m[4]!.charCodeAt(0);
  });
  return values.every((v, k) => Number.isFinite(v) && (k === 0 || v === values[k - 1]! + 1));
}

/** A clause's or list item's mark standing alone in a cell: "1.", "2.1", "3.1.4", "(a)", "b)", "(iv)", "(2)". */
const CLAUSE_MARKER = /^(?:\d{1,3}(?:\.\d{1,3})*[.)]?|\(?[a-z]\)|[a-z]\.|\(?[ivx]{1,5}\)|\(\d{1,3}\))$/i;

/**
 * Rows that each hold a mark and, in the cell right of it, a sentence, or only the wrapped rest of one: a
 * contract's clauses or a list set with hanging indents and tabs ("2.1 | The Buyer may place orders…",
 * " | (a) | the quantity of each item;"), not a table. Marks need not count up, but some must be more than a
 * plain number; half the texts must run to four words or more.
 */
function isClauseList(rows: string[][]): boolean {
  let marked = 0;
  let sentences = 0;
  // Plain numbers alone ("1.", "3.", "7.") are isNumberColumn's to judge: a table may number its rows so.
  let plainOnly = true;
  for (const row of rows) {
    const filled: number[] = [];
    row.forEach((cell, k) => {
      if (cell.trim()) filled.push(k);
    });
    const mark = filled[0];
    if (mark !== undefined && filled.length === 2 && filled[1] === mark + 1 && CLAUSE_MARKER.test(row[mark]!.trim())) {
      const text = row[mark + 1]!.trim();
      if (!/\p{L}/u.test(text)) return false;
      if (!PLAIN_NUMBER.test(row[mark]!.trim())) plainOnly = false;
      marked++;
      if (text.split(/\s+/).length >= 4) sentences++;
    } else if (filled.length !== 1) return false;
  }
  return marked >= 2 && !plainOnly && sentences * 2 >= marked;
}

/** A number of one level: "3.", "7)", "12". */
const PLAIN_NUMBER = /^\d{1,3}[.)]?$/;

/**
 * Two columns, the first holding one and the same glyph in every row it fills (a bullet set apart from its
 * text by a tab), make a list, not a table. A wider table keeps such a column (a check mark per row).
 */
function isBulletColumn(rows: string[][]): boolean {
  if (rows.some((r) => r.length !== 2)) return false;
  const firsts = rows.map((r) => r[0]!.trim()).filter(Boolean);
  const glyph = firsts[0];
  return (
    firsts.length >= 2 &&
    !!glyph &&
    /^(\S)\1?$/u.test(glyph) &&
    !/\p{N}/u.test(glyph) &&
    firsts.every((f) => f === glyph)
  );
}

/**
 * Every row a lone glyph and the text right after it, the pairs at more than one depth (a nested list whose
 * bullets, "•" then "–", are set apart from their text by tabs): a list, not a table.
 */
function isNestedBullets(rows: string[][]): boolean {
  if (rows.length < 2) return false;
  const depths = new Set<number>();
  for (const row of rows) {
    const filled: number[] = [];
    row.forEach((cell, k) => {
      if (cell.trim()) filled.push(k);
    });
    if (filled.length !== 2 || filled[1] !== filled[0]! + 1) return false;
    const glyph = row[filled[0]!]!.trim();
    if (!/^(\S)\1?$/u.test(glyph) || /[\p{L}\p{N}]/u.test(glyph)) return false;
    depths.add(filled[0]!);
  }
  return depths.size > 1;
}

/** The aligned rows from `start` (a line of 2+ cells) and their columns, before stray columns are merged. */
function alignedTable(lines: Line[], start: number): { rows: string[][]; columns: Column[]; end: number } | undefined {
  const first = lines[start]!;
  let { columns, members } = alignedRun(lines, start);
  // A column first seen below the top rows (the first row set its columns, two of them joined) is read
  // again from the top with every column known, so the rows above it are cut where it starts.
  if (columns.length > first.cells.length) {
    const again = alignedRun(lines, start, { columns, members });
    if (again.members.length === members.length && again.columns.length === columns.length)
      ({ columns, members } = again);
  }
  const rowCount = members.filter((m) => !m.continues).length;
  if (rowCount < 2 || (rowCount < MIN_ROWS && !isHeaderAndRow(first, lines[start + 1]!, columns))) return undefined;
  const rows: string[][] = [];
  let rowSize = first.size;
  for (const { line, placed, continues } of members) {
    // Wrapped text goes on in its row's type; a line in another size under a cell is a note of its own.
    const wraps = continues && line.size === rowSize;
    const row = wraps ? rows[rows.length - 1]! : columns.map(() => '');
    line.cells.forEach((c, i) => {
      const at = columns.indexOf(placed[i]!);
      row[at] = row[at] ? joinWrapped(row[at], c.text) : c.text;
    });
    if (!wraps) rows.push(row);
    if (!continues) rowSize = line.size;
  }
  return { rows, columns, end: start + members.length };
}

/**
 * Lines just above a table's first row, in no larger type, whose every cell spans exactly one of
 * its columns are its header: one row per baseline, a line under filled header cells only being
 * their wrapped text.
 */
function headerRows(header: Line[], firstRow: Line, columns: Column[]): string[][] | undefined {
  const reach = firstRow.size * MAX_ROW_GAP;
  const byHeight = [...header].sort((a, b) => b.y - a.y);
  const closeEnough = byHeight.every(
    (l, k) =>
      l.page === firstRow.page &&
      l.size <= firstRow.size &&
      l.y > firstRow.y &&
      l.y - (byHeight[k + 1]?.y ?? firstRow.y) < reach,
  );
  if (!closeEnough) return undefined;
  const rows: Array<{ y: number; cells: string[] }> = [];
  let last: { y: number; cells: string[] } | undefined;
  for (const line of byHeight) {
    const placed = line.cells.map((cell) => {
      const over = columns.filter((c) => cell.x <= c.right && cell.right >= c.x);
      return over.length === 1 ? columns.indexOf(over[0]!) : -1;
    });
    if (placed.includes(-1)) return undefined;
    const sameBaseline = last && Math.abs(last.y - line.y) <= line.size / 2;
    const wrapped = last && !sameBaseline && placed.every((at) => last!.cells[at]);
    const row = sameBaseline || wrapped ? last! : { y: line.y, cells: columns.map(() => '') };
    line.cells.forEach((cell, i) => {
      const at = placed[i]!;
      row.cells[at] = row.cells[at] ? `${row.cells[at]} ${cell.text}` : cell.text;
    });
    if (row !== last) rows.push(row);
    last = row;
    if (!sameBaseline) last.y = line.y;
  }
  // A line over the label column alone is a section label or a heading, not a header.
  if (rows.every((r) => r.cells.every((cell, c) => !cell || c === 0))) return undefined;
  return rows.map((r) => r.cells);
}

/** A line of the run: the column of each of its cells; `continues` when it holds the wrapped end of the row above's cell. */
interface Member {
  line: Line;
  placed: Column[];
  continues: boolean;
}

/** The longest run of lines from `start` whose cells all fall into shared columns. */
function alignedRun(
  lines: Line[],
  start: number,
  known?: { columns: Column[]; members: Member[] },
): { columns: Column[]; members: Member[] } {
  const first = lines[start]!;
  const tolerance = Math.max(MIN_ALIGN_TOLERANCE, first.size * ALIGN_TOLERANCE_RATIO);
  // Read again with what a first reading found (`known`): every line, the first too, is cut and placed, into
  // those columns, and a cut row takes the shape of a row of either reading.
  // A known column ends before the next one starts (a joined cell read first may have widened it past that).
  const columns: Column[] = known
    ? known.columns.map((c, k) => ({
        ...c,
        right: Math.max(c.x, Math.min(c.right, (known.columns[k + 1]?.x ?? Infinity) - 1)),
      }))
    : first.cells.map((c) => ({ x: c.x, right: c.right, rows: 1 }));
  const members: Member[] = known ? [] : [{ line: first, placed: [...columns], continues: false }];
  const shapes: Member[] = known
    ? known.members.map((m) => ({ ...m, placed: m.placed.map((c) => columns[known.columns.indexOf(c)]!) }))
    : [];
  for (let end = known ? start : start + 1; end < lines.length; end++) {
    const line = lines[end]!;
    const prev = lines[Math.max(end - 1, start)]!;
    // A drawn table standing next in the flow (a line of no cells that holds it) ends the run: taken as a
    // row, it was an empty one and its own rows were lost.
    if (line.table || line.page !== first.page || distanceBelow(prev, line) >= first.size * MAX_ROW_GAP) break;
    // A cell may have swallowed more than one column ("Solar panel North ridge 2026-03-14"), even every one of
    // its row ("Damselfly nymph Three leaf-like Caudal", the words of a tight row closer than poppler parts).
    let cut = line.cells;
    if (line.cells.length > 1 || joinsARow(line, members, columns, tolerance, lines[end + 1])) {
      for (let k = 0; k < columns.length; k++) {
        const again = cutJoinedCells(columns, cut, tolerance, line.depth ? line.size : undefined);
        if (again === cut) break;
        cut = again;
      }
    }
    // A cut row must fill the columns a row above fills: joined, it fills a shape none has.
    const cells =
      cut !== line.cells && shapedLikeARow(cut, shapes.length ? [...shapes, ...members] : members, columns, tolerance)
        ? cut
        : line.cells;
    if (cells.length === 1) {
      // One cell under a column right of the first is a cell's text wrapped onto a second line;
      // wrapped text never starts left of its column, and a line at the first column's edge is a label.
      const cell = line.cells[0]!;
      const column = alignedColumn(columns, cell, tolerance, 1);
      if (column && cell.x >= column.x - tolerance && Math.abs(cell.x - columns[0]!.x) > tolerance) {
        members.push({ line, placed: [column], continues: true });
        continue;
      }
      if (!wrapsFirstColumn(lines, end, members, columns, tolerance)) break;
      members.push({ line, placed: [columns[0]!], continues: true });
      continue;
    }
    const placed = placeRow(columns, cells, tolerance);
    if (!placed) break;
    members.push({ line: cells === line.cells ? line : { ...line, cells }, placed, continues: false });
  }
  // Read again, a column's rows are those of this reading alone.
  if (known) {
    for (const c of columns) c.rows = 0;
    for (const m of members) if (!m.continues) for (const c of m.placed) c.rows++;
  }
  // A run ends on a row, or on wrapped text spaced like the wrapped text inside it.
  const wrapGaps = members.flatMap((m, k) => (m.continues && k < members.length - 1 ? [gapAbove(members, k)] : []));
  // (A second reading whose first line found no place has no members: the first reading stands.)
  while (members.length && members[members.length - 1]!.continues) {
    const gap = gapAbove(members, members.length - 1);
    if (wrapGaps.some((g) => Math.abs(g - gap) <= WRAP_GAP_TOLERANCE)) break;
    members.pop();
  }
  return { columns, members };
}

/**
 * A line of one cell may be a whole row poppler joined: it starts at the first column, ends inside the
 * table's width, reaches past the second column's start and stands a row's distance under the row above.
 * Between two rows it may end past the table's width: its last cell is the table's longest (a label and
 * value table whose values are set flush left, "Statement period 1 September 2026 to 30 September 2026").
 */
function joinsARow(line: Line, members: Member[], columns: Column[], tolerance: number, next?: Line): boolean {
  const cell = line.cells[0]!;
  const above = members[members.length - 1];
  if (
    columns.length < 2 ||
    !above ||
    Math.abs(cell.x - columns[0]!.x) > tolerance ||
    cell.right <= columns[1]!.x + tolerance ||
    (cell.right > tableRight(members, columns) + tolerance && !rowFollows(line, next, columns, tolerance))
  )
    return false;
  const gap = distanceBelow(above.line, line);
  // Under a cell's wrapped text, a row stands further down than the wrapped lines stand from each other.
  if (above.continues) return gap > gapAbove(members, members.length - 1) + WRAP_GAP_TOLERANCE * 2;
  return Math.abs(gap - smallestRowPitch(members)) <= WRAP_GAP_TOLERANCE * 2;
}

/** Whether the next line is a row of cells starting where each of the columns starts, a line's pitch below. */
function rowFollows(line: Line, next: Line | undefined, columns: Column[], tolerance: number): boolean {
  if (!next || next.page !== line.page || next.cells.length !== columns.length) return false;
  if (distanceBelow(line, next) >= line.size * SAME_ROW_PITCH) return false;
  return next.cells.every((c, k) => Math.abs(c.x - columns[k]!.x) <= tolerance);
}

/** Rows of a table set without space between them stand at most this many text sizes apart. */
const SAME_ROW_PITCH = 2;

/** The right edge of the table so far: its last column's, or a wrapped line's reaching further. */
function tableRight(members: Member[], columns: Column[]): number {
  let right = columns[columns.length - 1]!.right;
  for (const m of members) right = Math.max(right, m.line.right);
  return right;
}

/** The least distance between two rows in a row of the run; Infinity before there are two. */
function smallestRowPitch(members: Member[]): number {
  let pitch = Infinity;
  for (let k = 1; k < members.length; k++) {
    if (!members[k]!.continues && !members[k - 1]!.continues) pitch = Math.min(pitch, gapAbove(members, k));
  }
  return pitch;
}

/**
 * A line of one cell at the first column's edge is that column's text wrapped (a description set in the
 * first column) rather than a label when it stays inside the column, continues a filled first cell in
 * the same type, and sits closer under it than rows sit under each other: the rows seen so far, or else
 * as close as wrapped lines seen in the table, or closer than the next row below.
 */
function wrapsFirstColumn(lines: Line[], at: number, members: Member[], columns: Column[], tolerance: number): boolean {
  const line = lines[at]!;
  const cell = line.cells[0]!;
  const above = members[members.length - 1]!;
  if (columns.length < 2 || Math.abs(cell.x - columns[0]!.x) > tolerance || cell.right > columns[1]!.x - tolerance / 2)
    return false;
  if (line.size !== above.line.size || above.placed[0] !== columns[0]) return false;
  const gap = above.line.y - line.y;
  let rowPitch = smallestRowPitch(members);
  if (rowPitch === Infinity) {
    // No two rows in a row yet: wrapped lines seen in the table tell the pitch of wrapped text,
    if (members.some((m, k) => m.continues && Math.abs(gapAbove(members, k) - gap) <= WRAP_GAP_TOLERANCE)) return true;
    // or else the next row below, past the other cells' wrapped lines.
    let next = at + 1;
    while (next < lines.length && next <= at + MAX_WRAPPED_AHEAD && lines[next]!.cells.length < 2) next++;
    const row = lines[next];
    if (!row || row.page !== line.page || row.cells.length < 2) return false;
    rowPitch = line.y - row.y;
  }
  return gap > 0 && gap < rowPitch - WRAP_GAP_TOLERANCE;
}

/** The distance from the line above to member `k`. */
function gapAbove(members: Member[], k: number): number {
  return distanceBelow(members[k - 1]!.line, members[k]!.line);
}

/** How far a line stands under the one above: from that one's lowest baseline (a row of wrapped cells reaches below its `y`). */
function distanceBelow(above: Line, line: Line): number {
  return Math.abs(above.y - line.y) - above.depth;
}

/**
 * The first column from `from` the cell lines up with: by its left or right edge or its middle, else by sitting inside its
 * span; or, for a column one line alone has set, by lying across it and no other column (a name centred over
 * it, narrower than its cells), or by standing between its start and the next one's (a spreadsheet prints a
 * figure flush right under a name set flush left; the last column reaches as far right as the one before it
 * is wide).
 */
function alignedColumn(columns: Column[], cell: Cell, tolerance: number, from = 0): Column | undefined {
  for (let k = from; k < columns.length; k++) {
    const c = columns[k]!;
    if (Math.abs(c.x - cell.x) <= tolerance || Math.abs(c.right - cell.right) <= tolerance) return c;
    // Centred in the column: a wider cell than the column's so far, set in its middle.
    if (Math.abs(c.x + c.right - cell.x - cell.right) <= tolerance && cell.x < c.right && cell.right > c.x) return c;
  }
  for (let k = from; k < columns.length; k++) {
    const c = columns[k]!;
    if (cell.x >= c.x - tolerance && cell.right <= c.right + tolerance) return c;
  }
  for (let k = from; k < columns.length; k++) {
    const c = columns[k]!;
    if (c.rows > 1) continue;
    if (overlaps(cell, c) && (k === from || !overlaps(cell, columns[k - 1])) && !overlaps(cell, columns[k + 1]))
      return c;
  }
  for (let k = from; k < columns.length; k++) {
    const c = columns[k]!;
    if (c.rows > 1 || cell.x < c.x) continue;
    const next = columns[k + 1];
    const prev = columns[k - 1];
    if (cell.right < (next ? next.x : prev ? 2 * c.x - prev.x : c.right)) return c;
  }
  return undefined;
}

/** Whether a cell and a column share some width. */
function overlaps(cell: Cell, column: Column | undefined): boolean {
  return !!column && cell.x < column.right && cell.right > column.x;
}

/** A figure: digits with their separators, maybe signed, in brackets, with a currency or a percent sign. */
const FIGURE = /^[-+\u2212(]?[$\u20ac\u00a3\u00a5]?\d[\d.,]*%?\)?$/u;

/**
 * The row's cells with a cell cut in two where poppler joined it to the next column's: poppler joins words
 * closer than about a letter's width into one run, so a label set close to the next column's text ("Green
 * woodpecker 187", "Afternoon packing Monday to Friday") comes as one cell. Letters placed by their widths
 * (glyph-widths.ts), the cut is at a space: before a last word that is a figure falling in a column right of
 * the rest of the cell, or before any word that starts where a column seen in the rows above starts. The
 * column must be the one right after the cell's own, and one the row's next cell does not fill. The same array when nothing is cut (most rows).
 */
function cutJoinedCells(columns: Column[], cells: Cell[], tolerance: number, stackedAt?: number): Cell[] {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (!cell.text.includes(' ')) continue;
    // In a row joined from cells wrapped onto several lines (text in size `stackedAt`), a cell too narrow for its
    // text on one line stands on several: its letters' places can't be told from its width.
    if (stackedAt && cell.right - cell.x < cell.text.length * stackedAt * MIN_LETTER_WIDTH) continue;
    const at = letterPositions(cell.text, cell.x, cell.right - cell.x);
    const next = cells[i + 1];
    // Only into the column right after the one the cell starts in, which the row's next cell does not fill.
    // The column after the cell's own: the one its first word lies under (a column headed by a centred name
    // starts right of its cells), else the first one starting right of the cell.
    // The next cell stands right of it: past its right edge, or at the column after it (a joined cell read
    // earlier may have widened it).
    const firstWordEnd = at[cell.text.indexOf(' ')]!;
    const own = columns.findIndex((c) => c.x < firstWordEnd && c.right > cell.x && c.x > cell.x - tolerance);
    const after = own >= 0 ? columns[own + 1] : columns.find((c) => c.x > cell.x + tolerance);
    const beyond = after && columns[columns.indexOf(after) + 1];
    const free = (c: Column): boolean =>
      c === after && (!next || next.x > c.right - tolerance || (!!beyond && next.x > beyond.x - tolerance));
    const place = { cell, at, columns, tolerance, free, ownRight: own >= 0 ? columns[own]!.right : undefined };
    const space = figureCut(place) ?? wordCut(place);
    if (space === undefined) continue;
    return [
      ...cells.slice(0, i),
      { x: cell.x, right: at[space]!, text: cell.text.slice(0, space) },
      { x: at[space + 1]!, right: cell.right, text: cell.text.slice(space + 1) },
      ...cells.slice(i + 1),
    ];
  }
  return cells;
}

/** Whether the cells fall, left to right, in exactly the columns one of the rows read so far fills. */
function shapedLikeARow(cells: Cell[], members: Member[], columns: Column[], tolerance: number): boolean {
  const shape: number[] = [];
  for (const cell of cells) {
    const from = shape.length ? shape[shape.length - 1]! + 1 : 0;
    const column = alignedColumn(columns, cell, tolerance, from);
    if (!column) return false;
    shape.push(columns.indexOf(column));
  }
  const key = shape.join();
  return members.some((m) => !m.continues && m.placed.map((c) => columns.indexOf(c)).join() === key);
}

/** Where a joined cell may be cut: the cell, its letters' places, the columns and the ones free to cut into. */
interface CutPlace {
  cell: Cell;
  at: number[];
  columns: Column[];
  tolerance: number;
  free: (c: Column) => boolean;
  /** The right edge of the column the cell starts in, when one is known. */
  ownRight: number | undefined;
}

/** The space before the cell's last word when that word is a figure falling in a free column right of the rest. */
function figureCut({ cell, at, columns, tolerance, free }: CutPlace): number | undefined {
  const space = cell.text.lastIndexOf(' ');
  if (space <= 0 || !FIGURE.test(cell.text.slice(space + 1))) return undefined;
  const fits = columns.some(
    (c) => free(c) && c.x > at[space]! && at[space + 1]! >= c.x - tolerance && cell.right <= c.right + tolerance,
  );
  return fits ? space : undefined;
}

/**
 * The space before a word that starts where a free column, filled in a row above, starts, or in the gap before
 * that column: the space nearest it. Letters placed by another face's widths stray further the further they are from the cell's start, so
 * the reach grows with that distance.
 */
function wordCut({ cell, at, columns, tolerance, free, ownRight }: CutPlace): number | undefined {
  for (const c of columns) {
    if (c.rows < 1 || !free(c) || c.x >= cell.right - tolerance) continue;
    const reach = tolerance + (c.x - cell.x) * WIDTH_STRAY;
    let best: number | undefined;
    let nearest = Infinity;
    for (let s = cell.text.indexOf(' '); s > 0; s = cell.text.indexOf(' ', s + 1)) {
      const off = Math.abs(at[s + 1]! - c.x);
      // Near the column's start, or in the gap between the cell's own column and it (a column whose
      // name, centred over it, starts right of its cells).
      const inGap = ownRight !== undefined && at[s]! >= ownRight - tolerance && at[s + 1]! <= c.x + tolerance;
      if ((inGap || (off <= reach && at[s]! < c.x + reach - tolerance)) && off < nearest) {
        best = s;
        nearest = off;
      }
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

/** The narrowest a letter of a line's text is, in text sizes (an "i" in Helvetica is 0.22, the mean ~0.5). */
const MIN_LETTER_WIDTH = 0.3;

/** How far (of the distance from a cell's start) a letter placed by Helvetica's widths may stand from its place. */
const WIDTH_STRAY = 0.06;

/**
 * The column of each cell, left to right, each in a column right of the previous cell's; the
 * columns the row opens are added and the ones it fills widened. Undefined (columns untouched)
 * when fewer than half its cells line up with a column or a cell overlaps a column it is not in.
 */
function placeRow(columns: Column[], cells: Cell[], tolerance: number): Column[] | undefined {
  const plan: Array<{ cell: Cell; column: Column; before?: Column; opened: boolean }> = [];
  let from = 0;
  for (const cell of cells) {
    const candidates = columns.slice(from);
    const column = alignedColumn(columns, cell, tolerance, from);
    if (column) {
      plan.push({ cell, column, opened: false });
      from = columns.indexOf(column) + 1;
      continue;
    }
    // The cell stands where no column is: it opens one, unless it runs into the next column.
    const next = candidates.find((c) => c.x > cell.x);
    if (next && cell.right > next.x - tolerance) return undefined;
    plan.push({ cell, column: { x: cell.x, right: cell.right, rows: 0 }, before: next, opened: true });
    from = next ? columns.indexOf(next) : columns.length;
  }
  if (plan.filter((p) => !p.opened).length * 2 < cells.length) return undefined;
  for (const { cell, column, before, opened } of plan) {
    if (opened) columns.splice(before ? columns.indexOf(before) : columns.length, 0, column);
    column.x = Math.min(column.x, cell.x);
    column.right = Math.max(column.right, cell.right);
    column.rows++;
  }
  return plan.map((p) => p.column);
}

/**
 * A column one row alone fills, lying inside its neighbour's span and never beside a filled cell of
 * it, is that neighbour's cell set off-centre (a short figure under a wide column): the two are one.
 */
function mergeStrayColumns(rows: string[][], columns: Column[]): string[][] {
  let table = rows;
  let cols = [...columns];
  for (let c = 0; c < cols.length; c++) {
    const column = cols[c]!;
    if (column.rows !== 1) continue;
    const into = [c - 1, c + 1].find((n) => {
      const other = cols[n];
      return (
        other !== undefined &&
        column.x >= other.x &&
        column.right <= other.right &&
        table.every((row) => !(row[c] && row[n]))
      );
    });
    if (into === undefined) continue;
    table = table.map((row) => {
      const merged = [...row];
      merged[into] = row[into] || row[c]!;
      merged.splice(c, 1);
      return merged;
    });
    cols = cols.filter((_, k) => k !== c);
    c--;
  }
  return table;
}

/** Two lines make a table when both split into the same 3+ columns at the same places. */
function isHeaderAndRow(header: Line, row: Line, columns: Column[]): boolean {
  return (
    header.cells.length >= MIN_PAIR_CELLS &&
    row.cells.length === header.cells.length &&
    columns.length === header.cells.length
  );
}

/**
 * Aligned lines whose every column is running text are a page set in columns, not a table:
 * tables hold at least one column of short entries (names, numbers, dates).
 */
function isColumnsOfProse(rows: string[][]): boolean {
  const width = rows[0]?.length ?? 0;
  for (let c = 0; c < width; c++) {
    const filled = rows.map((r) => r[c] ?? '').filter(Boolean);
    const prose = filled.filter((cell) => cell.split(' ').length >= PROSE_CELL_WORDS).length;
    if (!filled.length || prose < filled.length * PROSE_COLUMN_SHARE) return false;
  }
  return true;
}
