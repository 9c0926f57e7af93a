import CFB from 'cfb';
import iconv from 'iconv-lite';
import { NFC_BULLET, SPRM } from '../src/readers/legacy/word97';

/**
 * A small writer of Word 97-2003 binary documents ([MS-DOC]) for tests and benches: nothing on
 * npm writes them. It lays out what a reader needs: the FIB, the text as one UTF-16 piece, the
 * style sheet (built-in style ids), paragraph and character property pages, list tables, tables
 * as cell-marked paragraphs, HYPERLINK fields, footnotes and the summary information.
 */
export interface DocRun {
  text: string;
  bold?: boolean;
  italic?: boolean;
  /** Raised or lowered (sprmCIss). */
  position?: 'super' | 'sub';
  /** A character style of `DocSpec.styles`, by name (sprmCIstd). */
  style?: string;
  /** Wraps the run in a HYPERLINK field. */
  link?: string;
  /** A footnote at the end of the run. */
  footnote?: string;
  /** A reviewer's comment anchored at the end of the run. */
  comment?: { author: string; text: string };
  /** A floating text box anchored at the end of the run, with this text. */
  textBox?: string;
  /** Deleted with tracked changes on (sprmCFRMarkDel). */
  deleted?: boolean;
  /** An inline picture (a special \x01 character) at the end of the run. */
  picture?: boolean;
  /**
   * An embedded OLE object at the end of the run: its storage (a compound file of its own) copied
   * to `ObjectPool/_<n>`, shown by an EMBED field whose separator names it and whose result is its picture.
   */
  object?: Buffer;
  /** The run's text typed in this font (sprmCRgFtc0), by name: "Symbol", "Wingdings". */
  font?: string;
  /** A symbol inserted at the end of the run (Insert > Symbol): its font and code (sprmCSymbol on a special "("). */
  symbol?: { font: string; char: number };
}

export interface DocParagraph {
  runs: DocRun[];
  /** A built-in style, or a paragraph style of `DocSpec.styles` by name. */
  style?: string;
  /**
   * `start`: the number the list definition's levels start at (1 unless set); `restartAt`: the list
   * (LFO) restarts level 0 of that definition at this number, a list "restarted" in Word.
   */
  list?: { ordered: boolean; level: number; start?: number; restartAt?: number };
  /** The paragraph mark is deleted with tracked changes on: the paragraph joins the next. */
  markDeleted?: boolean;
}

export interface DocSpec {
  body: Array<DocParagraph | DocTable>;
  title?: string;
  author?: string;
  /** Style names as a German Word writes them; the built-in style ids stay the same. */
  localisedStyleNames?: boolean;
  /** Sets the FIB's fEncrypted flag (the content is not actually encrypted). */
  encryptedFlag?: boolean;
  /** Styles after the built-in ones, with the character properties they set. */
  styles?: DocStyle[];
}

/** Rows of cell texts; `spans` (grid columns per cell) and `flags` (TC80 merge flags per cell) by row. */
export interface DocTable {
  rows: string[][];
  /** A table nested in the cell at `row`, `col`, after that cell's own text. */
  nested?: { row: number; col: number; rows: string[][] };
  spans?: number[][];
  flags?: number[][];
}

export interface DocStyle {
  name: string;
  kind: 'paragraph' | 'character';
  /** Name of the style it is based on. */
  basedOn?: string;
  bold?: boolean;
  italic?: boolean;
  position?: 'super' | 'sub';
}

/** Style sprms are stored after the fixed styles and Title. */
const FIRST_CUSTOM_ISTD = 16;
const STI_USER = 0x0ffe;

/** A paragraph of plain text. */
export const para = (text: string, style?: DocParagraph['style']): DocParagraph => ({ runs: [{ text }], style });

const STYLES = [
  { name: 'Normal', sti: 0, german: 'Standard' },
  { name: 'heading 1', sti: 1, german: 'Überschrift 1' },
  { name: 'heading 2', sti: 2, german: 'Überschrift 2' },
  { name: 'heading 3', sti: 3, german: 'Überschrift 3' },
] as const;
/** Title is not one of the fixed styles (0-14): it goes after them. */
const ISTD_TITLE = 15;
const STI_TITLE = 62;

const NFC_DECIMAL = 0;
const TEXT_FC = 0x800;
const FLT_HYPERLINK = 88;
const FLT_EMBED = 58;
/** The first embedded object's storage number (`ObjectPool/_1001`). */
const FIRST_OBJECT = 1001;

interface Para {
  /** The CP just after the paragraph's mark. */
  cpEnd: number;
  grpprl: Buffer;
  istd: number;
}
interface CharRun {
  cpEnd: number;
  grpprl: Buffer;
}

export function buildDoc(spec: DocSpec): Buffer {
  const paras: Para[] = [];
  const chars: CharRun[] = [];
  const notes: string[] = [];
  const noteRefs: number[] = [];
  const comments: Array<{ author: string; text: string }> = [];
  const commentRefs: number[] = [];
  const boxes: string[] = [];
  const boxRefs: number[] = [];
  let text = '';
  const definitions: Array<{ ordered: boolean; start: number }> = []; // lsid - 1
  const lists: Array<{ lsid: number; restartAt?: number }> = []; // ilfo - 1
  const fields: Array<[cp: number, ch: number, flt: number]> = []; // the PlcFld of the main text
  const objects: Buffer[] = [];
  const listFor = ({ ordered, start = 1, restartAt }: NonNullable<DocParagraph['list']>): number => {
    let d = definitions.findIndex((x) => x.ordered === ordered && x.start === start);
    if (d < 0) d = definitions.push({ ordered, start }) - 1;
    let i = lists.findIndex((x) => x.lsid === d + 1 && x.restartAt === restartAt);
    if (i < 0) i = lists.push({ lsid: d + 1, restartAt }) - 1;
    return i + 1;
  };
  const emit = (s: string, grpprl: Buffer = Buffer.alloc(0)): void => {
    text += s;
    chars.push({ cpEnd: text.length, grpprl });
  };
  const endParagraph = (mark: string, istd: number, sprms: Buffer, markFormat?: Buffer): void => {
    emit(mark, markFormat);
    paras.push({ cpEnd: text.length, grpprl: sprms, istd });
  };
  // The font table: Times New Roman first (ftc 0), then each font a run names.
  const fonts = ['Times New Roman'];
  const ftc = (name: string): number => (fonts.includes(name) ? fonts.indexOf(name) : fonts.push(name) - 1);
  for (const block of spec.body) {
    if ('rows' in block) {
      const widest = Math.max(...block.rows.map((r) => r.length));
      for (const [r, row] of block.rows.entries()) {
        const cells = block.spans ? row.length : widest;
        for (let c = 0; c < cells; c++) {
          emit(row[c] ?? '');
          const inner = block.nested?.row === r && block.nested.col === c ? block.nested.rows : undefined;
          if (inner) {
            // Inner cells end with a paragraph mark flagged as a cell (pFInnerTableCell) at depth 2.
            endParagraph('\r', 0, sprms([SPRM.pFInTable, 1], [SPRM.pItap, 1]));
            const innerMark = [
              [SPRM.pFInTable, 1],
              [SPRM.pItap, 2],
              [SPRM.pFInnerTableCell, 1],
            ] as const;
            for (const innerRow of inner) {
              for (const text of innerRow) {
                emit(text);
                endParagraph('\r', 0, sprms(...innerMark));
              }
              endParagraph('\r', 0, sprms(...innerMark, [SPRM.pFInnerTtp, 1]));
            }
          }
          endParagraph('\u0007', 0, sprms([SPRM.pFInTable, 1], [SPRM.pItap, 1]));
        }
        endParagraph(
          '\u0007',
          0,
          Buffer.concat([
            sprms([SPRM.pFInTable, 1], [SPRM.pFTtp, 1], [SPRM.pItap, 1]),
            defTable(cells, block.spans?.[r], block.flags?.[r]),
          ]),
        );
      }
      continue;
    }
    for (const run of block.runs) {
      const toggles = charSprms(run);
      if (run.style) toggles.push([SPRM.cIstd, istdOf(spec, run.style)]);
      if (run.deleted) toggles.push([SPRM.cFRMarkDel, 1]);
      const plainFormat = sprms(...toggles);
      if (run.font) toggles.push([SPRM.cRgFtc0, ftc(run.font)]);
      const format = sprms(...toggles);
      const special = Buffer.concat([sprms([SPRM.cFSpec, 1]), format]);
      if (run.link) {
        fields.push([text.length, 0x13, FLT_HYPERLINK]);
        emit('\u0013', special);
        emit(` HYPERLINK "${run.link}" `);
        fields.push([text.length, 0x14, 0xff]);
        emit('\u0014', special);
        emit(run.text, format);
        fields.push([text.length, 0x15, 0x80]);
        emit('\u0015', special);
      } else emit(run.text, format);
      if (run.footnote !== undefined) {
        noteRefs.push(text.length);
        notes.push(run.footnote);
        emit('\u0002', special);
      }
      if (run.picture) emit('\u0001', special);
      if (run.symbol) {
        const symbol = (ftc(run.symbol.font) | (run.symbol.char << 16)) >>> 0;
        emit('(', Buffer.concat([sprms([SPRM.cFSpec, 1], [SPRM.cSymbol, symbol]), plainFormat]));
      }
      if (run.object) {
        const storage = FIRST_OBJECT + objects.length;
        objects.push(run.object);
        fields.push([text.length, 0x13, FLT_EMBED]);
        emit('\u0013', special);
        emit(' EMBED MSGraph.Chart.8 ');
        fields.push([text.length, 0x14, 0xff]);
        emit('\u0014', Buffer.concat([special, sprms([SPRM.cFOle2, 1], [SPRM.cPicLocation, storage])]));
        emit('\u0001', special);
        fields.push([text.length, 0x15, 0x80]);
        emit('\u0015', special);
      }
      if (run.textBox !== undefined) {
        boxRefs.push(text.length);
        boxes.push(run.textBox);
        emit('\u0008', special);
      }
      if (run.comment) {
        commentRefs.push(text.length);
        comments.push(run.comment);
        emit('\u0005', special);
      }
    }
    const istd = block.style ? istdOf(spec, block.style) : 0;
    const listSprms = block.list
      ? sprms([SPRM.pIlvl, block.list.level], [SPRM.pIlfo, listFor(block.list)]) // LibreOffice wants the level first
      : Buffer.alloc(0);
    endParagraph('\r', istd, listSprms, block.markDeleted ? sprms([SPRM.cFRMarkDel, 1]) : undefined);
  }
  const ccpText = text.length;
  const noteStarts: number[] = [];
  for (const note of notes) {
    noteStarts.push(text.length - ccpText);
    emit('\u0002', sprms([SPRM.cFSpec, 1]));
    emit(` ${note}`);
    endParagraph('\r', 0, Buffer.alloc(0));
  }
  const ccpFtn = text.length - ccpText;
  // The comments' sub-document (headers and macros, empty here, come between).
  const commentStarts: number[] = [];
  for (const comment of comments) {
    commentStarts.push(text.length - ccpText - ccpFtn);
    emit('\u0005', sprms([SPRM.cFSpec, 1]));
    emit(` ${comment.text}`);
    endParagraph('\r', 0, Buffer.alloc(0));
  }
  const ccpAtn = text.length - ccpText - ccpFtn;
  // The text boxes' sub-document (endnotes, none here, come before it).
  const boxStarts: number[] = [];
  for (const box of boxes) {
    boxStarts.push(text.length - ccpText - ccpFtn - ccpAtn);
    emit(box);
    endParagraph('\r', 0, Buffer.alloc(0));
  }
  const ccpTxbx = text.length - ccpText - ccpFtn - ccpAtn;
  if (ccpFtn || ccpAtn || ccpTxbx) endParagraph('\r', 0, Buffer.alloc(0)); // the final mark after the sub-documents

  // WordDocument: FIB, text at TEXT_FC, then the property pages.
  const textBytes = Buffer.from(text, 'utf16le');
  const fcOf = (cp: number): number => TEXT_FC + cp * 2;
  let pages = Math.ceil((TEXT_FC + textBytes.length) / 512);
  const papxPages = fkpPages(
    paras.map((p) => ({
      fcEnd: fcOf(p.cpEnd),
      data: Buffer.concat([u16(p.istd), p.grpprl]),
    })),
    fcOf(0),
    'papx',
  );
  const chpxPages = fkpPages(
    chars.map((c) => ({ fcEnd: fcOf(c.cpEnd), data: c.grpprl })),
    fcOf(0),
    'chpx',
  );
  const papxPn = papxPages.map((p) => ({ ...p, pn: pages++ }));
  const chpxPn = chpxPages.map((p) => ({ ...p, pn: pages++ }));
  const word = Buffer.alloc(pages * 512);
  textBytes.copy(word, TEXT_FC);
  for (const p of [...papxPn, ...chpxPn]) p.page.copy(word, p.pn * 512);

  // Table stream.
  const table: Buffer[] = [];
  let tableLength = 0;
  const put = (b: Buffer): [number, number] => {
    table.push(b);
    tableLength += b.length;
    return [tableLength - b.length, b.length];
  };
  const fc: Record<number, [number, number]> = {};
  fc[1] = put(styleSheet(spec.localisedStyleNames ?? false, spec.styles ?? []));
  fc[15] = put(fontTable(fonts));
  fc[13] = put(binTable(papxPn));
  fc[12] = put(binTable(chpxPn));
  if (notes.length) {
    fc[2] = put(Buffer.concat([...noteRefs, ccpText + 1].map(u32).concat(noteRefs.map(() => u16(1)))));
    fc[3] = put(Buffer.concat([...noteStarts, ccpFtn, ccpFtn + 1].map(u32)));
  }
  if (comments.length) {
    const authors = [...new Set(comments.map((c) => c.author))];
    // ATRDPre10: initials (XST, 20 bytes), ibst (the author), then 8 bytes not used here.
    const atrd = (author: string): Buffer => {
      const b = Buffer.alloc(30);
      b.writeInt16LE(authors.indexOf(author), 20);
      return b;
    };
    fc[4] = put(Buffer.concat([...[...commentRefs, ccpText + 1].map(u32), ...comments.map((c) => atrd(c.author))]));
    fc[5] = put(Buffer.concat([...commentStarts, ccpAtn, ccpAtn + 1].map(u32)));
    fc[36] = put(Buffer.concat(authors.map((a) => Buffer.concat([u16(a.length), Buffer.from(a, 'utf16le')]))));
  }
  if (boxes.length) {
    // Shape ids from 1025, as Word numbers them; FSPA and FTXBXS carry them at bytes 0 and 14.
    const fspa = (i: number): Buffer => Buffer.concat([u32(1025 + i), Buffer.alloc(22)]);
    const ftxbxs = (lid: number): Buffer => Buffer.concat([Buffer.alloc(14), u32(lid), Buffer.alloc(4)]);
    fc[40] = put(Buffer.concat([...[...boxRefs, ccpText + 1].map(u32), ...boxes.map((_, i) => fspa(i))]));
    // Each story, then the dummy story that closes the list.
    fc[56] = put(
      Buffer.concat([
        ...[...boxStarts, ccpTxbx, ccpTxbx + 1].map(u32),
        ...boxes.map((_, i) => ftxbxs(1025 + i)),
        ftxbxs(0),
      ]),
    );
  }
  if (fields.length) {
    const cps = [...fields.map(([cp]) => cp), ccpText + 1].map(u32);
    fc[16] = put(Buffer.concat([...cps, ...fields.map(([, ch, flt]) => Buffer.from([ch, flt]))]));
  }
  const piece = Buffer.concat([u32(0), u32(text.length), u16(0), u32(TEXT_FC), u16(0)]);
  fc[33] = put(Buffer.concat([Buffer.from([0x02]), u32(piece.length), piece]));
  if (lists.length) {
    const [lstFc, lstLcb] = put(Buffer.concat([u16(definitions.length), ...definitions.map((_, i) => lstf(i + 1))]));
    fc[73] = [lstFc, lstLcb];
    put(Buffer.concat(definitions.map((d) => levels(d.ordered, d.start)))); // LVLs follow the PlfLst, outside its count
    fc[74] = put(
      Buffer.concat([u32(lists.length), ...lists.map((l) => lfo(l.lsid, l.restartAt)), ...lists.map(lfoData)]),
    );
  }

  // FIB: FibBase, FibRgW97 (14 words), FibRgLw97 (22 longs), FibRgFcLcb97 (93 pairs).
  word.writeUInt16LE(0xa5ec, 0);
  word.writeUInt16LE(0x00c1, 2);
  word.writeUInt16LE(0x0409, 6);
  word.writeUInt16LE(0x0200 | 0x1000 | (spec.encryptedFlag ? 0x0100 : 0), 0x0a); // fWhichTblStm (1Table), fExtChar
  word.writeUInt16LE(0x00bf, 0x0c);
  word.writeUInt16LE(14, 32);
  word.writeUInt16LE(22, 62);
  word.writeInt32LE(word.length, 64);
  word.writeInt32LE(ccpText, 64 + 12);
  word.writeInt32LE(ccpFtn, 64 + 16);
  word.writeInt32LE(ccpAtn, 64 + 28);
  word.writeInt32LE(ccpTxbx, 64 + 36);
  word.writeUInt16LE(93, 152);
  for (const [index, [offset, length]] of Object.entries(fc)) {
    word.writeUInt32LE(offset, 154 + Number(index) * 8);
    word.writeUInt32LE(length, 158 + Number(index) * 8);
  }

  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, '/WordDocument', word);
  CFB.utils.cfb_add(cfb, '/1Table', Buffer.concat(table));
  CFB.utils.cfb_add(cfb, '/\u0005SummaryInformation', summaryInformation(spec.title ?? '', spec.author ?? ''));
  objects.forEach((object, i) => {
    const inner = CFB.read(object, { type: 'buffer' });
    inner.FullPaths.forEach((full, k) => {
      const entry = inner.FileIndex[k]!;
      if (entry.type !== 2 || !entry.content) return;
      const name = full.slice(full.indexOf('/') + 1);
      CFB.utils.cfb_add(cfb, `/ObjectPool/_${FIRST_OBJECT + i}/${name}`, Buffer.from(entry.content as Uint8Array));
    });
  });
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** Sprms with operands sized by their spra bits (1, 2 or 4 bytes here). */
function sprms(...list: Array<readonly [number, number]>): Buffer {
  return Buffer.concat(
    list.map(([sprm, value]) => {
      const size = [1, 1, 2, 4, 2, 2, 0, 3][sprm >> 13]!;
      const op = Buffer.alloc(size);
      if (size === 1) op.writeUInt8(value);
      else if (size === 2) op.writeUInt16LE(value);
      else op.writeUInt32LE(value);
      return Buffer.concat([u16(sprm), op]);
    }),
  );
}

/** sprmTDefTable: the row's cell boundaries (1.5 inches per grid column), and each cell's TC80 flags. */
function defTable(cells: number, spans: number[] = [], flags: number[] = []): Buffer {
  let edge = 0;
  const edges = [u16(0)];
  for (let i = 0; i < cells; i++) edges.push(u16((edge += (spans[i] ?? 1) * 2160)));
  const tcs = Buffer.alloc(cells * 20);
  flags.forEach((f, i) => tcs.writeUInt16LE(f, i * 20));
  const body = Buffer.concat([Buffer.from([cells]), ...edges, tcs]);
  return Buffer.concat([u16(SPRM.tDefTable), u16(body.length + 1), body]);
}

/** Formatted disk pages of property runs: rgfc, then offsets, then the properties from the page's end. */
function fkpPages(
  runs: Array<{ fcEnd: number; data: Buffer }>,
  firstFc: number,
  kind: 'papx' | 'chpx',
): Array<{ page: Buffer; fcFirst: number; fcLast: number }> {
  const out: Array<{ page: Buffer; fcFirst: number; fcLast: number }> = [];
  const entry = kind === 'papx' ? 13 : 1;
  let start = firstFc;
  let i = 0;
  while (i < runs.length) {
    const page = Buffer.alloc(512);
    const fcs = [start];
    const offsets: number[] = [];
    let top = 511;
    while (i < runs.length) {
      const run = runs[i]!;
      const body =
        kind === 'chpx'
          ? Buffer.concat([Buffer.from([run.data.length]), run.data])
          : run.data.length % 2
            ? Buffer.concat([Buffer.from([(run.data.length + 1) / 2]), run.data])
            : Buffer.concat([Buffer.from([0, run.data.length / 2]), run.data]);
      const at = (top - body.length) & ~1;
      const crun = offsets.length + 1;
      if (at < (crun + 1) * 4 + crun * entry) break;
      body.copy(page, at);
      top = at;
      fcs.push(run.fcEnd);
      offsets.push(at / 2);
      i++;
    }
    fcs.forEach((f, k) => page.writeUInt32LE(f, k * 4));
    offsets.forEach((o, k) => (page[fcs.length * 4 + k * entry] = o));
    page[511] = offsets.length;
    out.push({ page, fcFirst: fcs[0]!, fcLast: fcs[fcs.length - 1]! });
    start = fcs[fcs.length - 1]!;
  }
  return out;
}

function binTable(pages: Array<{ fcFirst: number; fcLast: number; pn: number }>): Buffer {
  return Buffer.concat([
    ...pages.map((p) => u32(p.fcFirst)),
    u32(pages[pages.length - 1]?.fcLast ?? 0),
    ...pages.map((p) => u32(p.pn)),
  ]);
}

/** Sprms for bold, italic (set on or off) and raise, as a run or a style sets them. */
function charSprms(f: { bold?: boolean; italic?: boolean; position?: 'super' | 'sub' }): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (f.bold !== undefined) out.push([SPRM.cFBold, f.bold ? 1 : 0]);
  if (f.italic !== undefined) out.push([SPRM.cFItalic, f.italic ? 1 : 0]);
  if (f.position) out.push([SPRM.cIss, f.position === 'super' ? 1 : 2]);
  return out;
}

/**
 * SttbfFfn: the count, no extra data, then an FFN per font: its size less one, 39 bytes of
 * family, weight, charset, PANOSE and signature (zero here), then its name, NUL-terminated UTF-16.
 */
function fontTable(names: string[]): Buffer {
  const ffn = (name: string): Buffer => {
    const body = Buffer.concat([Buffer.alloc(39), Buffer.from(`${name}\0`, 'utf16le')]);
    return Buffer.concat([Buffer.from([body.length]), body]);
  };
  return Buffer.concat([u16(names.length), u16(0), ...names.map(ffn)]);
}

/** A built-in style's istd, or a custom style's by its place in `spec.styles`. */
function istdOf(spec: DocSpec, name: string): number {
  if (name === 'Title') return ISTD_TITLE;
  const custom = (spec.styles ?? []).findIndex((s) => s.name === name);
  if (custom >= 0) return FIRST_CUSTOM_ISTD + custom;
  return Math.max(
    0,
    STYLES.findIndex((s) => s.name === name),
  );
}

/** A UPX: its length, its bytes, padded to an even length. */
function upx(bytes: Buffer): Buffer {
  return Buffer.concat([u16(bytes.length), bytes, Buffer.alloc(bytes.length & 1)]);
}

function styleSheet(german: boolean, custom: DocStyle[]): Buffer {
  const std = (sti: number, name: string, style?: DocStyle, baseIstd = 0x0fff): Buffer => {
    const character = style?.kind === 'character';
    const base = Buffer.alloc(10);
    base.writeUInt16LE(sti, 0);
    base.writeUInt16LE((character ? 2 : 1) | (baseIstd << 4), 2);
    base.writeUInt16LE((character ? 1 : 2) | (0 << 4), 4); // UPX count, next style Normal
    const xstz = Buffer.concat([u16(name.length), Buffer.from(name, 'utf16le'), u16(0)]);
    const chpx = upx(sprms(...(style ? charSprms(style) : [])));
    const upxs = character ? [chpx] : [upx(u16(0)), chpx];
    const body = Buffer.concat([base, xstz, ...upxs]);
    return Buffer.concat([u16(body.length), body]);
  };
  const stds: Buffer[] = [];
  for (let istd = 0; istd <= ISTD_TITLE; istd++) {
    const style = STYLES[istd];
    if (style) stds.push(std(style.sti, german ? style.german : style.name));
    else if (istd === ISTD_TITLE) stds.push(std(STI_TITLE, german ? 'Titel' : 'Title'));
    else stds.push(u16(0));
  }
  for (const style of custom) {
    const base = style.basedOn ? custom.findIndex((s) => s.name === style.basedOn) : -1;
    stds.push(std(STI_USER, style.name, style, base >= 0 ? FIRST_CUSTOM_ISTD + base : 0x0fff));
  }
  const stshi = Buffer.alloc(18);
  stshi.writeUInt16LE(stds.length, 0);
  stshi.writeUInt16LE(10, 2);
  stshi.writeUInt16LE(1, 4);
  stshi.writeUInt16LE(0x5b, 6);
  stshi.writeUInt16LE(15, 8);
  return Buffer.concat([u16(stshi.length), stshi, ...stds]);
}

function lstf(lsid: number): Buffer {
  const b = Buffer.alloc(28);
  b.writeInt32LE(lsid, 0);
  for (let i = 0; i < 9; i++) b.writeUInt16LE(0x0fff, 8 + i * 2);
  return b;
}

/** Nine levels: "1.", "1.1." style numbers (starting at `start`) or bullets. */
function levels(ordered: boolean, start = 1): Buffer {
  const out: Buffer[] = [];
  for (let level = 0; level < 9; level++) {
    const lvlf = Buffer.alloc(28);
    lvlf.writeInt32LE(start, 0);
    lvlf[4] = ordered ? NFC_DECIMAL : NFC_BULLET;
    if (ordered) lvlf[6] = 1; // the level's number is at xst index 0
    lvlf.writeInt32LE(360 * (level + 1), 16);
    // Numbers as a multi-level list draws them: "1.2." at the second level.
    const xst = ordered ? Array.from({ length: level + 1 }, (_, k) => `${String.fromCharCode(k)}.`).join('') : '\uf0b7';
    out.push(lvlf, u16(xst.length), Buffer.from(xst, 'utf16le'));
  }
  return Buffer.concat(out);
}

function lfo(lsid: number, restartAt?: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32LE(lsid, 0);
  b[12] = restartAt === undefined ? 0 : 1; // clfolvl
  return b;
}

/** An LFO's LFOData: no CP, and an LFOLVL restarting level 0 (fStartAt) when the list restarts. */
function lfoData(list: { restartAt?: number }): Buffer {
  if (list.restartAt === undefined) return u32(0xffffffff);
  const lfolvl = Buffer.alloc(8);
  lfolvl.writeInt32LE(list.restartAt, 0);
  lfolvl[4] = 0x10; // iLvl 0, fStartAt
  return Buffer.concat([u32(0xffffffff), lfolvl]);
}

/** A SummaryInformation property set with the code page, title and author (Windows-1252 strings). */
function summaryInformation(title: string, author: string): Buffer {
  const str = (s: string): Buffer => {
    const bytes = Buffer.concat([iconv.encode(s, 'cp1252'), Buffer.from([0])]);
    const padded = Buffer.alloc(Math.ceil(bytes.length / 4) * 4);
    bytes.copy(padded);
    return Buffer.concat([u32(0x1e), u32(bytes.length), padded]);
  };
  const props: Array<[number, Buffer]> = [
    [1, Buffer.concat([u32(2), u16(1252), u16(0)])],
    [2, str(title)],
    [4, str(author)],
  ];
  let offset = 8 + props.length * 8;
  const index: Buffer[] = [];
  for (const [id, value] of props) {
    index.push(u32(id), u32(offset));
    offset += value.length;
  }
  const section = Buffer.concat([u32(offset), u32(props.length), ...index, ...props.map(([, v]) => v)]);
  const header = Buffer.concat([
    u16(0xfffe),
    u16(0),
    u32(0x00020006),
    Buffer.alloc(16),
    u32(1),
    Buffer.from('e0859ff2f94f6810ab9108002b27b3d9', 'hex'),
    u32(48),
  ]);
  return Buffer.concat([header, section]);
}
