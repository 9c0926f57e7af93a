/** How a list level numbers its items (\levelnfcN, or a legacy \pn group). */
export type NumberFormat = 'decimal' | 'roman' | 'letter' | 'bullet' | 'none';

export interface LevelKind {
  format: NumberFormat;
  start: number;
}

/** \levelnfc values: 1/2 roman, 3/4 letters, 23 bullet, 255 no number; the others count in digits. */
function formatOf(nfc: number): NumberFormat {
  if (nfc === 23) return 'bullet';
  if (nfc === 255) return 'none';
  if (nfc === 1 || nfc === 2) return 'roman';
  if (nfc === 3 || nfc === 4) return 'letter';
  return 'decimal';
}

/** The \pnXXX words that choose a legacy paragraph-numbering format. */
const PN_FORMATS: Record<string, NumberFormat> = {
  pndec: 'decimal',
  pnucrm: 'roman',
  pnlcrm: 'roman',
  pnucltr: 'letter',
  pnlcltr: 'letter',
  pnlvlblt: 'bullet',
};

interface ListDef {
  levels: LevelKind[];
}

interface OverrideDef {
  listId?: number;
  ls?: number;
  /** Start values an override sets per level (\lfolevel\listoverridestartat\levelstartatN). */
  starts: Map<number, number>;
  level: number;
}

/**
 * Word's list tables: \listtable defines lists by \listid with a format and start per level,
 * \listoverridetable maps the \lsN paragraphs cite to a list. Read word by word as the groups pass.
 */
export class ListTables {
  private readonly lists = new Map<number, ListDef>();
  private readonly overrides = new Map<number, OverrideDef>();
  private list: ListDef | undefined;
  private listId: number | undefined;
  private override: OverrideDef | undefined;

  /** A control word inside \listtable. */
  listWord(word: string, param: number | undefined): void {
    if (word === 'list') {
      this.finishList();
      this.list = { levels: [] };
      return;
    }
    const list = this.list;
    if (!list) return;
    const level = list.levels[list.levels.length - 1];
    if (word === 'listlevel') list.levels.push({ format: 'decimal', start: 1 });
    else if (word === 'levelnfc' && level && param !== undefined) level.format = formatOf(param);
    else if (word === 'levelstartat' && level && param !== undefined) level.start = param;
    else if (word === 'listid' && param !== undefined) this.listId = param;
  }

  /** A control word inside \listoverridetable. */
  overrideWord(word: string, param: number | undefined): void {
    if (word === 'listoverride') {
      this.finishOverride();
      this.override = { starts: new Map(), level: -1 };
      return;
    }
    const o = this.override;
    if (!o || param === undefined) {
      if (o && word === 'lfolevel') o.level++;
      return;
    }
    if (word === 'listid') o.listId = param;
    else if (word === 'ls') o.ls = param;
    else if (word === 'levelstartat' && o.level >= 0) o.starts.set(o.level, param);
  }

  finish(): void {
    this.finishList();
    this.finishOverride();
  }

  /** The format and start of level `level` of the list paragraphs cite as \ls`ls`. */
  kind(ls: number, level: number): LevelKind | undefined {
    const o = this.overrides.get(ls);
    const def = o?.listId !== undefined ? this.lists.get(o.listId) : undefined;
    const kind = def?.levels[level];
    if (!kind) return undefined;
    const start = o?.starts.get(level);
    return start !== undefined ? { ...kind, start } : kind;
  }

  private finishList(): void {
    if (this.list && this.listId !== undefined) this.lists.set(this.listId, this.list);
    this.list = undefined;
    this.listId = undefined;
  }

  private finishOverride(): void {
    if (this.override?.ls !== undefined) this.overrides.set(this.override.ls, this.override);
    this.override = undefined;
  }
}

/** A legacy \pn group's numbering, read word by word; undefined words are left alone. */
export function pnWord(kind: LevelKind, word: string, param: number | undefined): void {
  const format = PN_FORMATS[word];
  if (format) kind.format = format;
  else if (word === 'pnstart' && param !== undefined) kind.start = param;
}

/** A marker that numbers one level ("3.", "b)", "(iv)"), with its parts. */
const ONE_LEVEL = /^\(?(\d{1,6}|[a-zA-Z]{1,3}|[ivxlcdmIVXLCDM]{1,8})[.):]?\)?$/;

/** The value a one-level marker shows ("3." is 3, "c)" 3, "iv." 4), or none for other markers. */
export function markerValue(marker: string, format: NumberFormat | undefined): number | undefined {
  const part = ONE_LEVEL.exec(marker)?.[1];
  if (part === undefined) return undefined;
  if (/^\d+$/.test(part)) return Number(part);
  const roman = romanValue(part);
  const asRoman = format === 'roman' || (format !== 'letter' && (part.length > 1 || /^i$/i.test(part)));
  if (asRoman && roman !== undefined) return roman;
  // Letters count a..z, then aa..zz (Word's way past 26).
  return part.toUpperCase().charCodeAt(0) - 64 + 26 * (part.length - 1);
}

/** A marker that is only its own level's number ("3.", "b)"), so Markdown's numbering can show it. */
export function isOneLevelNumber(marker: string): boolean {
  return ONE_LEVEL.test(marker) && /[\d.):]/.test(marker);
}

/** A marker that says something in words or numbers ("2.1.", "A.3"), not a bullet glyph ("o", "§", "·"). */
export function isLabel(marker: string): boolean {
  return /\p{N}/u.test(marker) || /\p{L}[.):]/u.test(marker);
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };

function romanValue(text: string): number | undefined {
  let total = 0;
  const s = text.toLowerCase();
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN[s[i]!];
    if (v === undefined) return undefined;
    const next = ROMAN[s[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}
