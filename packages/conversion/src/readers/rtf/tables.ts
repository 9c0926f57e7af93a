import type { Block, Inline } from '../../document/model';
import { blocksAsInline, joinedByBreaks } from '../../document/builders';
import { isBlankInline } from '../../document/predicates';
import { gridRows, type CellDef, type GridRow } from '../shared/table-grid';

/** The deepest table nesting kept apart (\itapN); deeper paragraphs join the table at this level. */
export const MAX_TABLE_DEPTH = 16;

type Row = GridRow<Inline[][]>;

/** One table being read: finished rows, the row's finished cells, the paragraphs of the current cell. */
class OpenTable {
  rows: Row[] = [];
  cells: Inline[][][] = [];
  paragraphs: Inline[][] = [];
  defs: CellDef[] = [];
  pending: CellDef = {};

  hasContent(): boolean {
    return this.rows.length > 0 || this.cells.length > 0 || this.paragraphs.length > 0;
  }
}

/**
 * RTF tables as they are written: paragraphs marked \intbl (and \itapN for nested tables) fill the
 * current cell of their level, \cell/\nestcell end a cell, \row/\nestrow a row. A nested table
 * becomes part of its parent cell's text, as in the DOCX reader; merged cells are repeated over
 * the columns and rows they span.
 */
export class RtfTables {
  /** Open tables by nesting level (index 0 is level 1); a malformed file may leave gaps. */
  private readonly levels: Array<OpenTable | undefined> = [];

  get open(): boolean {
    return this.levels.some((t) => t !== undefined);
  }

  /** A paragraph of a cell at `level`: tables nested deeper are finished first, into this cell. */
  paragraph(level: number, text: Inline[]): void {
    const table = this.at(level);
    this.closeAbove(level);
    if (text.length) table.paragraphs.push(text);
  }

  endCell(level: number): void {
    const table = this.at(level);
    this.closeAbove(level);
    table.cells.push(table.paragraphs);
    table.paragraphs = [];
  }

  endRow(level: number): void {
    const table = this.at(level);
    this.closeAbove(level);
    if (table.paragraphs.length) this.endCell(level);
    // The row keeps its own copy: a writer may add cell definitions for the next row without \\trowd.
    if (table.cells.length) table.rows.push({ cells: table.cells, defs: [...table.defs] });
    table.cells = [];
  }

  /** \trowd: a new row definition for the table at `level`. */
  defineRow(level: number): void {
    const table = this.at(level);
    table.defs = [];
    table.pending = {};
  }

  /** A cell property of the row being defined at `level`; \cellx closes the cell's definition. */
  cellProperty(level: number, word: string, param: number | undefined): void {
    const table = this.at(level);
    if (word === 'clmrg') table.pending.mergedLeft = true;
    else if (word === 'clvmrg') table.pending.mergedUp = true;
    else if (word === 'cellx') {
      table.defs.push({ ...table.pending, right: param });
      table.pending = {};
    }
  }

  /** Finishes every open table: the top-level blocks they make. */
  closeAll(): Block[] {
    const out: Block[] = [];
    for (let level = this.levels.length; level >= 1; level--) {
      const table = this.levels[level - 1];
      if (!table) continue;
      this.levels.length = level - 1;
      const blocks = finishTable(table);
      const parent = this.nearestBelow(level);
      if (parent) parent.paragraphs.push(blocksAsInline(blocks));
      else out.unshift(...blocks);
    }
    return out;
  }

  private at(level: number): OpenTable {
    const index = Math.max(1, Math.min(MAX_TABLE_DEPTH, level)) - 1;
    let table = this.levels[index];
    if (!table) {
      table = new OpenTable();
      this.levels[index] = table;
    }
    return table;
  }

  /** Ends the tables nested deeper than `level`; each becomes text of the cell it sits in. */
  private closeAbove(level: number): void {
    const keep = Math.max(1, Math.min(MAX_TABLE_DEPTH, level));
    for (let l = this.levels.length; l > keep; l--) {
      const table = this.levels[l - 1];
      this.levels.length = l - 1;
      if (!table) continue;
      const text = blocksAsInline(finishTable(table));
      const parent = this.nearestBelow(l) ?? this.at(keep);
      if (text.length) parent.paragraphs.push(text);
    }
  }

  private nearestBelow(level: number): OpenTable | undefined {
    for (let l = level - 1; l >= 1; l--) if (this.levels[l - 1]) return this.levels[l - 1];
    return undefined;
  }
}

/** A finished table's block, none when no cell has text; a one-cell table stays a table (docs/decisions.md). */
function finishTable(table: OpenTable): Block[] {
  if (table.paragraphs.length) table.cells.push(table.paragraphs);
  if (table.cells.length) table.rows.push({ cells: table.cells, defs: table.defs });
  table.paragraphs = [];
  table.cells = [];
  const rows = table.rows;
  if (rows.every((r) => r.cells.every((c) => c.every(isBlankInline)))) return [];
  // A cell's paragraphs on one line, a break between them.
  return [{ type: 'table', rows: gridRows(rows, joinedByBreaks) }];
}
