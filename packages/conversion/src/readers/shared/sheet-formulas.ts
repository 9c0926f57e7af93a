import * as XLSX from '@e965/xlsx';

/**
 * The value of a formula whose cell holds none: a workbook written by a library (openpyxl, exceljs)
 * and never opened in a spreadsheet program keeps the formula alone, and every program computes it
 * on opening. Only what needs no engine is computed: numbers, text, cells and ranges of the same
 * sheet, + - * / ^ & and unary minus, percent, and SUM, AVERAGE, MIN, MAX, COUNT, COUNTA, PRODUCT,
 * ROUND, ABS. Anything else (another sheet, a name, IF, a lookup) gives undefined (docs/decisions.md).
 */
export function formulaValue(sheet: XLSX.WorkSheet, formula: string, at: string): Value | undefined {
  const state = stateOf(sheet);
  if (state.values.has(at)) return state.values.get(at) ?? undefined;
  let value: Value | undefined;
  try {
    const result = new FormulaParser(sheet, formula, new Set([at]), state).parse();
    value = Array.isArray(result) ? undefined : result;
  } catch {
    value = undefined;
  }
  state.values.set(at, value ?? null);
  return value;
}

/** Per sheet: formula values already computed (null: not computable), and cell reads left. */
interface SheetState {
  values: Map<string, Value | null>;
  budget: number;
}

const states = new WeakMap<XLSX.WorkSheet, SheetState>();

function stateOf(sheet: XLSX.WorkSheet): SheetState {
  let state = states.get(sheet);
  if (!state) states.set(sheet, (state = { values: new Map(), budget: MAX_CELL_READS }));
  return state;
}

export type Value = number | string | boolean;

/**
 * A formula cell whose cached result is empty text: what xlwt and other BIFF writers store in place of
 * a value they never computed (Excel computes it on opening), so it is computed as an uncached one.
 */
export function holdsEmptyTextResult(cell: XLSX.CellObject): boolean {
  return typeof cell.f === 'string' && cell.t === 's' && cell.v === '';
}
type Operand = Value | undefined | Array<Value | undefined>;

/** Cells a range may span before the formula is left alone (a whole-column SUM over a huge sheet). */
const MAX_RANGE_CELLS = 100_000;
/**
 * Cell reads per sheet for all its formulas: a running total over a long column (`SUM(A$1:A5000)` on
 * every row) is quadratic; past this the remaining formulas are shown as formulas.
 */
const MAX_CELL_READS = 2_000_000;
/** Formula cells followed through references before giving up (a long chain or a cycle). */
const MAX_DEPTH = 64;

class Unsupported extends Error {}

const TOKEN =
  /\s*(?:(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![A-Z0-9_(!])|([A-Z][A-Z0-9.]*)\s*\(|(\d+(?:\.\d+)?(?:E[+-]?\d+)?)|("(?:[^"]|"")*")|(<>|<=|>=|[-+*/^&%(),:<>=]))/iy;

class FormulaParser {
  private readonly tokens: string[] = [];
  private readonly kinds: Array<'ref' | 'func' | 'num' | 'str' | 'op'> = [];
  private pos = 0;

  constructor(
    private readonly sheet: XLSX.WorkSheet,
    formula: string,
    private readonly seen: Set<string>,
    private readonly state: SheetState,
  ) {
    const src = formula.replace(/^=/, '');
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < src.length) {
      if (!src.slice(TOKEN.lastIndex).trim()) break;
      const start = TOKEN.lastIndex;
      const m = TOKEN.exec(src);
      if (!m || TOKEN.lastIndex === start) throw new Unsupported();
      const kind = m[1] ? 'ref' : m[2] ? 'func' : m[3] ? 'num' : m[4] ? 'str' : 'op';
      this.tokens.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5])!);
      this.kinds.push(kind);
    }
  }

  parse(): Operand {
    const value = this.concat();
    if (this.pos !== this.tokens.length) throw new Unsupported();
    // A formula that is only an empty cell shows 0, as in Excel.
    return value === undefined ? 0 : value;
  }

  private peek(): string | undefined {
    return this.kinds[this.pos] === 'op' ? this.tokens[this.pos] : undefined;
  }

  private expect(op: string): void {
    if (this.peek() !== op) throw new Unsupported();
    this.pos++;
  }

  private concat(): Operand {
    let left = this.additive();
    while (this.peek() === '&') {
      this.pos++;
      left = text(left) + text(this.additive());
    }
    return left;
  }

  private additive(): Operand {
    let left = this.term();
    for (let op = this.peek(); op === '+' || op === '-'; op = this.peek()) {
      this.pos++;
      const right = number(this.term());
      left = op === '+' ? number(left) + right : number(left) - right;
    }
    return left;
  }

  private term(): Operand {
    let left = this.power();
    for (let op = this.peek(); op === '*' || op === '/'; op = this.peek()) {
      this.pos++;
      const right = number(this.power());
      if (op === '/' && right === 0) throw new Unsupported();
      left = op === '*' ? number(left) * right : number(left) / right;
    }
    return left;
  }

  private power(): Operand {
    let left = this.unary();
    while (this.peek() === '^') {
      this.pos++;
      left = number(left) ** number(this.unary());
    }
    return left;
  }

  private unary(): Operand {
    const op = this.peek();
    if (op === '-' || op === '+') {
      this.pos++;
      const value = number(this.unary());
      return op === '-' ? -value : value;
    }
    let value = this.primary();
    while (this.peek() === '%') {
      this.pos++;
      value = number(value) / 100;
    }
    return value;
  }

  private primary(): Operand {
    const token = this.tokens[this.pos];
    const kind = this.kinds[this.pos];
    this.pos++;
    if (token === undefined) throw new Unsupported();
    if (kind === 'num') return Number(token);
    if (kind === 'str') return token.slice(1, -1).replace(/""/g, '"');
    if (kind === 'ref') return this.reference(token);
    if (kind === 'func') return this.call(token.toUpperCase());
    if (token === '(') {
      const value = this.concat();
      this.expect(')');
      return value;
    }
    throw new Unsupported();
  }

  private call(name: string): Operand {
    const args: Operand[] = [];
    if (this.peek() !== ')') {
      args.push(this.concat());
      while (this.peek() === ',') {
        this.pos++;
        args.push(this.concat());
      }
    }
    this.expect(')');
    // Cells in ranges count only when they hold numbers; numbers typed as arguments always do.
    const numbers = (): number[] =>
      args.flatMap((a) => (Array.isArray(a) ? a.filter((v): v is number => typeof v === 'number') : [number(a)]));
    switch (name) {
      case 'SUM':
        return numbers().reduce((s, v) => s + v, 0);
      case 'PRODUCT':
        return numbers().reduce((s, v) => s * v, 1);
      case 'AVERAGE': {
        const values = numbers();
        if (!values.length) throw new Unsupported();
        return values.reduce((s, v) => s + v, 0) / values.length;
      }
      case 'MIN':
      case 'MAX': {
        const values = numbers();
        if (!values.length) return 0;
        return name === 'MIN' ? Math.min(...values) : Math.max(...values);
      }
      case 'COUNT':
        return numbers().length;
      case 'COUNTA':
        return args.flatMap((a) => (Array.isArray(a) ? a : [a])).filter((v) => v !== undefined && v !== '').length;
      case 'ABS':
        return Math.abs(number(single(args, 1)[0]));
      case 'ROUND': {
        const [value, digits] = single(args, 2);
        const scale = 10 ** number(digits);
        return (Math.sign(number(value)) * Math.round(Math.abs(number(value)) * scale)) / scale;
      }
      default:
        throw new Unsupported();
    }
  }

  /** A cell's value, or a range's values (row by row). */
  private reference(ref: string): Operand {
    const clean = ref.replace(/\$/g, '').toUpperCase();
    if (!clean.includes(':')) return this.cellValue(XLSX.utils.decode_cell(clean));
    const range = XLSX.utils.decode_range(clean);
    const cells = (range.e.r - range.s.r + 1) * (range.e.c - range.s.c + 1);
    if (cells > MAX_RANGE_CELLS || cells <= 0) throw new Unsupported();
    this.state.budget -= cells;
    if (this.state.budget < 0) throw new Unsupported();
    const values: Array<Value | undefined> = [];
    for (let r = range.s.r; r <= range.e.r; r++)
      for (let c = range.s.c; c <= range.e.c; c++) values.push(this.cellValue({ r, c }));
    return values;
  }

  private cellValue(at: { r: number; c: number }): Value | undefined {
    const dense = this.sheet['!data'];
    const cell = (dense ? dense[at.r]?.[at.c] : this.sheet[XLSX.utils.encode_cell(at)]) as XLSX.CellObject | undefined;
    if (!cell) return undefined;
    if (cell.t === 'e') throw new Unsupported();
    if (cell.t === 'z' || cell.v === undefined || holdsEmptyTextResult(cell)) {
      if (typeof cell.f !== 'string') return undefined;
      const address = XLSX.utils.encode_cell(at);
      const known = this.state.values.get(address);
      if (known === null) throw new Unsupported();
      if (known !== undefined) return known;
      if (this.seen.has(address) || this.seen.size >= MAX_DEPTH) throw new Unsupported();
      this.seen.add(address);
      let value: Operand;
      try {
        value = new FormulaParser(this.sheet, cell.f, this.seen, this.state).parse();
        if (Array.isArray(value)) throw new Unsupported();
      } catch (err) {
        // Not computable from here either: every formula citing it is left alone at once.
        this.state.values.set(address, null);
        throw err;
      }
      this.seen.delete(address);
      this.state.values.set(address, value ?? null);
      return value;
    }
    if (cell.v instanceof Date) throw new Unsupported();
    return cell.v as Value;
  }
}

function single(args: Operand[], count: number): Array<Value | undefined> {
  if (args.length !== count || args.some(Array.isArray)) throw new Unsupported();
  return args as Array<Value | undefined>;
}

function number(value: Operand): number {
  if (Array.isArray(value)) throw new Unsupported();
  if (value === undefined || value === '') return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n)) throw new Unsupported();
  return n;
}

function text(value: Operand): string {
  if (Array.isArray(value)) throw new Unsupported();
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return typeof value === 'number' ? XLSX.SSF.format('General', value) : value;
}
