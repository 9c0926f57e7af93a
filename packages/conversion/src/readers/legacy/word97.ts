import iconv from 'iconv-lite';
import { CODE_CHAR_STYLE, CODE_STYLE } from '../shared/code-paragraphs';
import { QUOTE_STYLE } from '../shared/quote-styles';
import { DEFINITION_STYLE, TERM_STYLE, type DefinitionRole } from '../shared/definition-lists';
import { headingLevelOfStyleName } from '../shared/heading-styles';
import { hyperlinkTarget } from '../shared/word-fields';
import { formatNumber } from '../shared/list-numbers';
import type { Position } from '../../document/builders';
import { inSymbolFont, symbolFont as symbolFontNamed, symbolFontChar, type SymbolFont } from '../shared/symbol-font';

/**
 * A reader of the Word 97-2003 binary format ([MS-DOC]) for what Markdown needs: the text of the
 * main document and its notes through the piece table, and for each paragraph its style (built-in
 * style id, so localised "Überschrift 1" or "Επικεφαλίδα 1" are still headings), outline level,
 * list membership and table position; bold, italic, hyperlinks and pictures within the text.
 * Everything else (page layout, fonts, drawings) is skipped.
 */

/** Offsets in the File Information Block. */
const FIB = {
  wIdent: 0x00,
  flags: 0x0a,
  fibRgLw: 64,
  cbRgFcLcb: 152,
  fibRgFcLcb: 154,
} as const;
const FIB_FLAG_ENCRYPTED = 0x0100;
const FIB_FLAG_TABLE_1 = 0x0200;
const FIB_FLAG_OBFUSCATED = 0x8000;
const WORD_IDENT = 0xa5ec;

/** Index of each (fc, lcb) pair in FibRgFcLcb97. */
const FC = {
  stshf: 1,
  plcffndRef: 2,
  plcffndTxt: 3,
  plcfandRef: 4,
  plcfandTxt: 5,
  plcfBteChpx: 12,
  plcfBtePapx: 13,
  sttbfFfn: 15,
  clx: 33,
  grpXstAtnOwners: 36,
  plcSpaMom: 40,
  plcfendRef: 46,
  plcfendTxt: 47,
  plcftxbxTxt: 56,
  plfLst: 73,
  plfLfo: 74,
} as const;

/** Offsets of the character counts of each sub-document in FibRgLw97. */
const CCP = { text: 12, ftn: 16, hdd: 20, mcr: 24, atn: 28, edn: 32, txbx: 36 } as const;

/** The single property modifiers this reader (and the test writer) use. */
export const SPRM = {
  pIstd: 0x4600,
  pIlvl: 0x260a,
  pIlfo: 0x460b,
  pFInTable: 0x2416,
  pFTtp: 0x2417,
  pOutLvl: 0x2640,
  pItap: 0x6649,
  pFInnerTableCell: 0x244b,
  pFInnerTtp: 0x244c,
  /** sprmCFRMarkDel: text deleted with tracked changes on (still in the file, not shown once accepted). */
  cFRMarkDel: 0x0800,
  cFBold: 0x0835,
  cFItalic: 0x0836,
  cFSpec: 0x0855,
  /** sprmCFOle2: the special character is an embedded OLE object. */
  cFOle2: 0x080a,
  /** sprmCPicLocation: a picture's offset in the Data stream, or an OLE object's storage (`ObjectPool/_<n>`). */
  cPicLocation: 0x6a03,
  /** sprmCIss: 1 superscript, 2 subscript. */
  cIss: 0x2a48,
  /** sprmCIstd: the run's character style. */
  cIstd: 0x4a30,
  /** sprmCRgFtc0: the run's font for ASCII text, by its place in the font table. */
  cRgFtc0: 0x4a4f,
  /** sprmCSymbol: the symbol a special "(" stands for, its font (2 bytes) and code (2 bytes). */
  cSymbol: 0x6a09,
  tDefTable: 0xd608,
} as const;

/** Built-in style identifiers (sti) that mean headings. */
const STI_TITLE = 62;
const STI_SUBTITLE = 74;
/** nfc of a bulleted list level; 0xff is "no number". */
export const NFC_BULLET = 0x17;
const NFC_NONE = 0xff;

export class WordFormatError extends Error {}

/**
 * How a file generation stores properties: Word 97's two-byte sprms, 13-byte FKP entries and
 * 4-byte page numbers, or Word 6/95's one-byte sprms (translated to Word 97's ids), 7-byte FKP
 * entries, 2-byte page numbers and 8-bit style names.
 */
export interface WordDialect {
  sprms(grpprl: Buffer): Iterable<[number, Buffer]>;
  /** Size of a PAPX FKP's BX (offset byte and PHE). */
  papxEntry: number;
  /** Size of a TC in sprmTDefTable (Word 97's TC80, Word 6's TC with 16-bit borders). */
  cellDefinition: number;
  /** Size of a bin table's page numbers. */
  pageNumber: 2 | 4;
  /** A style name as stored after the STD's base (undefined: Word 97's UTF-16, counted in characters). */
  styleName?(std: Buffer, at: number): { name: string; next: number };
  /** 8-bit text of a piece. */
  decode8(bytes: Buffer): string;
}

/** Word 6/95 paragraph numbering (no lists in Word 97's sense): sprmPNLvlAnm and the ANLD's number format. */
export const W6_SPRM = { nLvlAnm: 0x1000d, anld: 0x1000c } as const;

export interface WordRun {
  text: string;
  bold: boolean;
  italic: boolean;
  position?: Position;
  link?: string;
  /** A picture, an embedded OLE object (its storage `ObjectPool/_<storage>`) or a note reference, not text. */
  special?: { kind: 'picture' } | { kind: 'object'; storage: number } | { kind: 'note'; label: string };
  /** Inline code (a code character style). */
  code?: boolean;
}

export interface WordParagraph {
  runs: WordRun[];
  /** Heading level 1-9, 0 for body text. */
  heading: number;
  /** `value`: the number Word shows on it; `list`: its list (LFO), a different one starts a new list. */
  list?: { ordered: boolean; level: number; value?: number; list?: string };
  /** A numbered heading's number as its list draws it ("1.2"). */
  label?: string;
  /** Table nesting depth (0 outside tables). */
  tableDepth: number;
  /** This paragraph ends a table cell (its mark is a cell mark). */
  cellEnd: boolean;
  /** This paragraph is the end-of-row mark of a table row. */
  rowEnd: boolean;
  /** Page (or section) breaks right after this paragraph: the text's form feeds (E1). */
  pageBreaksAfter?: number;
  /** A top-level row-end mark's cell edges and merges. */
  row?: RowGeometry;
  /** Body text in a code style ("Source Code", "HTML Preformatted", "Plain Text"). */
  code?: boolean;
  /** Body text in a quote style, or a definition list's term or definition style. */
  role?: 'quote' | DefinitionRole;
}

export interface WordNote {
  label: string;
  paragraphs: WordParagraph[];
  /** A comment's author (annotations only). */
  author?: string;
}

/** FSPA, a drawn shape's anchor data in PlcSpaMom: its shape id first. */
const FSPA_SIZE = 26;
/** FTXBXS, a text box story's data in PlcftxbxTxt: the id of the shape that shows it at byte 14. */
const FTXBXS_SIZE = 22;
const FTXBXS_LID = 14;

/** ATRDPre10, a comment reference's data in PlcfandRef: initials (20 bytes), then ibst, its author's index. */
const ATRD_SIZE = 30;
const ATRD_IBST = 20;

export interface WordDocument {
  body: WordParagraph[];
  notes: WordNote[];
}

interface Piece {
  cpStart: number;
  cpEnd: number;
  fc: number;
  compressed: boolean;
}

interface ParagraphProps {
  istd: number;
  /** Word 6/95 auto-numbering: level (1-9 outline, 10 numbered, 11 bulleted) and ANLD number format. */
  anm?: number;
  anmFormat?: number;
  ilfo: number;
  ilvl: number;
  outline?: number;
  inTable: boolean;
  ttp: boolean;
  itap: number;
  innerCell: boolean;
  innerTtp: boolean;
  /** A row-end mark's cells (sprmTDefTable). */
  row?: RowGeometry;
}

/** A table row's cell edges (twips, one more than cells) and each cell's TC80 merge flags. */
export interface RowGeometry {
  edges: number[];
  merges: number[];
}

/** TC80 flags: merged with the cells before it (legacy horizontal merge), and vertical merges. */
export const TC_FIRST_MERGED = 0x01;
export const TC_MERGED = 0x02;
export const TC_VERT_MERGE = 0x20;
export const TC_VERT_RESTART = 0x40;
/** Word's most cells in a row. */
const MAX_ROW_CELLS = 63;

interface CharProps {
  bold?: boolean;
  italic?: boolean;
  position?: Position;
  special: boolean;
  /** An embedded OLE object's storage number, on its special character. */
  object?: number;
  /** In a character style whose name means inline code ("Source Text", "Verbatim Char"). */
  code?: boolean;
  /** Typed in a symbol font (Symbol, Wingdings): its codes are that font's characters. */
  symbolFont?: SymbolFont;
  /** On an inserted symbol's "(": the character it draws, or "" for one without a Unicode form. */
  symbol?: string;
}

/** Character sprms as stored (a run's CHPX or a style's UPX): toggle operands unresolved. */
interface RawCharProps {
  /** ToggleOperand: 0 off, 1 on, 0x80 as the style, 0x81 the opposite of the style. */
  bold?: number;
  italic?: number;
  position?: Position | 'baseline';
  /** Character style (sprmCIstd). */
  istd?: number;
  special: boolean;
  /** sprmCFOle2 and sprmCPicLocation: an OLE object and its storage number. */
  ole2?: boolean;
  picLocation?: number;
  /** Deleted as a tracked change (sprmCFRMarkDel). */
  deleted?: boolean;
  /** sprmCRgFtc0: the font of its ASCII text. */
  ftc?: number;
  /** sprmCSymbol: an inserted symbol's font and code. */
  symbol?: { ftc: number; code: number };
}

/** Resolved bold, italic and raise of a style or a run. */
interface CharState {
  bold: boolean;
  italic: boolean;
  position?: Position;
}

const PLAIN_CHARS: CharState = { bold: false, italic: false };
/** ToggleOperand values ([MS-DOC] 2.9.321). */
const TOGGLE_AS_STYLE = 0x80;
const TOGGLE_OPPOSITE = 0x81;
/** istd of "Default Paragraph Font", the character style that adds nothing. */
const ISTD_DEFAULT_FONT = 10;
/** Style-chain hops followed at most (a cycle stops there). */
const MAX_STYLE_HOPS = 10;

interface FcRun<T> {
  fcStart: number;
  fcEnd: number;
  props: T;
}

interface Style {
  sti: number;
  name: string;
  base: number;
  outline?: number;
  /** 1 paragraph style, 2 character style. */
  stk?: number;
  /** The character properties the style sets (its CHPX UPX). */
  chars?: RawCharProps;
  /** Word 6/95 numbering the style sets. */
  anm?: { level: number; format?: number };
}

/** Reads the main document and its footnotes and endnotes. Throws WordFormatError for what it can't read. */
export function readWordDocument(
  wordStream: Buffer,
  tableStreams: { '0Table'?: Buffer; '1Table'?: Buffer },
): WordDocument {
  if (wordStream.length < 0x200 || wordStream.readUInt16LE(FIB.wIdent) !== WORD_IDENT) {
    throw new WordFormatError('not a Word 97 document');
  }
  const flags = wordStream.readUInt16LE(FIB.flags);
  if (flags & (FIB_FLAG_ENCRYPTED | FIB_FLAG_OBFUSCATED)) throw new WordFormatError('encrypted');
  const table = tableStreams[flags & FIB_FLAG_TABLE_1 ? '1Table' : '0Table'];
  if (!table) throw new WordFormatError('table stream missing');
  const fibFcCount = wordStream.readUInt16LE(FIB.cbRgFcLcb);
  const fcLcb = (index: number): [number, number] => {
    if (index >= fibFcCount) return [0, 0];
    const at = FIB.fibRgFcLcb + index * 8;
    return [wordStream.readUInt32LE(at), wordStream.readUInt32LE(at + 4)];
  };
  const slice = (index: number): Buffer | undefined => {
    const [fc, lcb] = fcLcb(index);
    return lcb > 0 && fc + lcb <= table.length ? table.subarray(fc, fc + lcb) : undefined;
  };
  const ccp = (offset: number): number => wordStream.readInt32LE(FIB.fibRgLw + offset);

  const clx = slice(FC.clx);
  if (!clx) throw new WordFormatError('no piece table');
  const pieces = readPieces(clx);
  const styles = readStyles(slice(FC.stshf));
  // The LVLs of each list follow the PlfLst in the table stream, outside its counted length.
  const [fcLst, lcbLst] = fcLcb(FC.plfLst);
  const lists = readListFormats(lcbLst ? table.subarray(fcLst) : undefined, slice(FC.plfLfo));
  const papx = readBinTable(wordStream, slice(FC.plcfBtePapx), readPapxPage);
  const chpx = readBinTable(wordStream, slice(FC.plcfBteChpx), readChpxPage);

  const reader = new TextReader(
    wordStream,
    pieces,
    papx,
    chpx,
    styles,
    lists,
    WORD97,
    readFontNames(slice(FC.sttbfFfn)),
  );
  const ccpText = ccp(CCP.text);
  const ccpFtn = ccp(CCP.ftn);
  const ednStart = ccpText + ccpFtn + ccp(CCP.hdd) + ccp(CCP.mcr) + ccp(CCP.atn);

  // Note references in the main text are numbered in order, footnotes first, then endnotes.
  const footRefs = plcCps(slice(FC.plcffndRef), 2);
  const endRefs = plcCps(slice(FC.plcfendRef), 2);
  const labels = new Map<number, string>();
  footRefs.forEach((cp, i) => labels.set(cp, String(i + 1)));
  endRefs.forEach((cp, i) => labels.set(cp, String(footRefs.length + i + 1)));
  // Comments are notes too, labelled c1, c2… as in the DOCX, RTF and ODT readers.
  const annRefs = plcCps(slice(FC.plcfandRef), ATRD_SIZE);
  annRefs.forEach((cp, i) => labels.set(cp, `c${i + 1}`));

  const txbxStart = ednStart + ccp(CCP.edn);
  const boxes = textBoxes(reader, slice(FC.plcSpaMom), slice(FC.plcftxbxTxt), txbxStart, txbxStart + ccp(CCP.txbx));
  const body = reader.paragraphs(0, ccpText, labels, boxes);
  const notes: WordNote[] = [];
  const noteRange = (txt: Buffer | undefined, start: number, count: number, first: number): void => {
    const cps = plcCps(txt, 0, true);
    for (let i = 0; i + 1 < cps.length && i < count; i++) {
      const paragraphs = reader.paragraphs(start + cps[i]!, start + cps[i + 1]!, new Map());
      notes.push({ label: String(first + i), paragraphs });
    }
  };
  noteRange(slice(FC.plcffndTxt), ccpText, footRefs.length, 1);
  noteRange(slice(FC.plcfendTxt), ednStart, endRefs.length, footRefs.length + 1);
  const atnStart = ccpText + ccpFtn + ccp(CCP.hdd) + ccp(CCP.mcr);
  const owners = authorNames(slice(FC.grpXstAtnOwners));
  const refData = slice(FC.plcfandRef);
  const atnCps = plcCps(slice(FC.plcfandTxt), 0, true);
  for (let i = 0; i + 1 < atnCps.length && i < annRefs.length; i++) {
    const ibstAt = (annRefs.length + 1) * 4 + i * ATRD_SIZE + ATRD_IBST;
    const ibst = refData && ibstAt + 2 <= refData.length ? refData.readInt16LE(ibstAt) : -1;
    const paragraphs = reader.paragraphs(atnStart + atnCps[i]!, atnStart + atnCps[i + 1]!, new Map());
    notes.push({ label: `c${i + 1}`, paragraphs, author: owners[ibst] ?? '' });
  }
  return { body, notes };
}

/** Where ./word6.ts found a Word 6/95 document's parts: its pieces (all 8-bit) and what its FIB points at. */
export interface OldWordParts {
  pieces: Array<{ cpStart: number; cpEnd: number; fc: number }>;
  stsh?: Buffer;
  plcfBtePapx?: Buffer;
  plcfBteChpx?: Buffer;
  plcffndRef?: Buffer;
  plcffndTxt?: Buffer;
  ccpText: number;
  ccpFtn: number;
}

/** A Word 6/95 document read as a Word 97 one is, through its dialect: paragraphs with styles, tables, footnotes. */
export function readOldWordDocument(word: Buffer, parts: OldWordParts, dialect: WordDialect): WordDocument {
  const pieces = parts.pieces.map((p): Piece => ({ ...p, compressed: true }));
  const styles = readStyles(parts.stsh, dialect);
  const papx = readBinTable(word, parts.plcfBtePapx, (page) => readPapxPage(page, dialect), dialect.pageNumber);
  const chpx = readBinTable(word, parts.plcfBteChpx, (page) => readChpxPage(page, dialect), dialect.pageNumber);
  const reader = new TextReader(word, pieces, papx, chpx, styles, new Map(), dialect);
  const footRefs = plcCps(parts.plcffndRef, 2);
  const labels = new Map<number, string>();
  footRefs.forEach((cp, i) => labels.set(cp, String(i + 1)));
  const body = reader.paragraphs(0, parts.ccpText, labels);
  const notes: WordNote[] = [];
  const cps = plcCps(parts.plcffndTxt, 0, true);
  for (let i = 0; i + 1 < cps.length && i < footRefs.length; i++) {
    const from = parts.ccpText + cps[i]!;
    const to = Math.min(parts.ccpText + parts.ccpFtn, parts.ccpText + cps[i + 1]!);
    if (from < to) notes.push({ label: String(i + 1), paragraphs: reader.paragraphs(from, to, new Map()) });
  }
  return { body, notes };
}

/**
 * Text boxes' stories by the CP of the shape anchor that shows them (PlcSpaMom's shape ids matched
 * to PlcftxbxTxt's); a story whose shape is not anchored in the main text is left out.
 */
function textBoxes(
  reader: TextReader,
  anchors: Buffer | undefined,
  stories: Buffer | undefined,
  start: number,
  end: number,
): Map<number, WordParagraph[]> {
  const boxes = new Map<number, WordParagraph[]>();
  const anchorCps = plcCps(anchors, FSPA_SIZE);
  const storyCps = plcCps(stories, FTXBXS_SIZE, true);
  if (!anchors || !stories || !anchorCps.length) return boxes;
  const anchorOf = new Map<number, number>();
  anchorCps.forEach((cp, i) => {
    const at = (anchorCps.length + 1) * 4 + i * FSPA_SIZE;
    if (at + 4 <= anchors.length) anchorOf.set(anchors.readInt32LE(at), cp);
  });
  const count = storyCps.length - 1;
  for (let i = 0; i + 1 < storyCps.length; i++) {
    const at = (count + 1) * 4 + i * FTXBXS_SIZE + FTXBXS_LID;
    const cp = at + 4 <= stories.length ? anchorOf.get(stories.readInt32LE(at)) : undefined;
    const from = start + storyCps[i]!;
    const to = Math.min(end, start + storyCps[i + 1]!);
    if (cp === undefined || from >= to) continue;
    boxes.set(cp, [...(boxes.get(cp) ?? []), ...reader.paragraphs(from, to, new Map())]);
  }
  return boxes;
}

/** GrpXstAtnOwners: the comment authors' names, each a count of UTF-16 characters and the characters. */
function authorNames(grp: Buffer | undefined): string[] {
  const names: string[] = [];
  for (let at = 0; grp && at + 2 <= grp.length;) {
    const cch = grp.readUInt16LE(at);
    names.push(grp.subarray(at + 2, Math.min(grp.length, at + 2 + cch * 2)).toString('utf16le'));
    at += 2 + cch * 2;
  }
  return names;
}

/** The piece table: which bytes of the WordDocument stream hold each range of characters. */
function readPieces(clx: Buffer): Piece[] {
  let at = 0;
  while (at < clx.length && clx[at] === 0x01) at += 3 + clx.readUInt16LE(at + 1); // Prc: skip property modifiers
  if (clx[at] !== 0x02) throw new WordFormatError('bad piece table');
  const lcb = clx.readUInt32LE(at + 1);
  const plc = clx.subarray(at + 5, at + 5 + lcb);
  const n = Math.floor((plc.length - 4) / 12);
  const pieces: Piece[] = [];
  for (let i = 0; i < n; i++) {
    const fcRaw = plc.readUInt32LE((n + 1) * 4 + i * 8 + 2);
    const compressed = (fcRaw & 0x40000000) !== 0;
    const fc = fcRaw & 0x3fffffff;
    pieces.push({
      cpStart: plc.readUInt32LE(i * 4),
      cpEnd: plc.readUInt32LE((i + 1) * 4),
      fc: compressed ? fc / 2 : fc,
      compressed,
    });
  }
  return pieces;
}

/** The CPs of a PLC whose data elements are `dataSize` bytes (0 for a bare CP array). */
function plcCps(plc: Buffer | undefined, dataSize: number, keepLast = false): number[] {
  if (!plc) return [];
  const n = dataSize ? Math.floor((plc.length - 4) / (4 + dataSize)) : plc.length / 4 - 1;
  const cps: number[] = [];
  for (let i = 0; i < n + (keepLast ? 1 : 0); i++) cps.push(plc.readUInt32LE(i * 4));
  return cps;
}

/** A PlcBtePapx / PlcBteChpx: the 512-byte formatted-disk pages that hold property runs by file offset. */
export function readBinTable<T>(
  word: Buffer,
  plc: Buffer | undefined,
  readPage: (page: Buffer) => FcRun<T>[],
  pageNumber: 2 | 4 = 4,
): FcRun<T>[] {
  if (!plc) return [];
  const n = Math.floor((plc.length - 4) / (4 + pageNumber));
  const runs: FcRun<T>[] = [];
  for (let i = 0; i < n; i++) {
    const at = (n + 1) * 4 + i * pageNumber;
    const pn = pageNumber === 4 ? plc.readUInt32LE(at) & 0x3fffff : plc.readUInt16LE(at);
    const page = word.subarray(pn * 512, pn * 512 + 512);
    if (page.length === 512) runs.push(...readPage(page));
  }
  return runs.sort((a, b) => a.fcStart - b.fcStart);
}

function fkpBounds(page: Buffer): { crun: number; fc: (i: number) => number } {
  const crun = page[511]!;
  return { crun, fc: (i) => page.readUInt32LE(i * 4) };
}

export function readPapxPage(page: Buffer, dialect: WordDialect = WORD97): FcRun<ParagraphProps>[] {
  const { crun, fc } = fkpBounds(page);
  const runs: FcRun<ParagraphProps>[] = [];
  for (let i = 0; i < crun; i++) {
    const bOffset = page[(crun + 1) * 4 + i * dialect.papxEntry]! * 2;
    const props: ParagraphProps = defaultParagraphProps();
    if (bOffset) {
      let cb = page[bOffset]!;
      let start = bOffset + 1;
      let size: number;
      if (cb === 0 && dialect === WORD97) {
        cb = page[bOffset + 1]!;
        start = bOffset + 2;
        size = cb * 2;
      } else size = dialect === WORD97 ? cb * 2 - 1 : cb * 2;
      const grp = page.subarray(start, Math.min(512, start + size));
      if (grp.length >= 2) {
        props.istd = grp.readUInt16LE(0);
        applyParagraphSprms(props, grp.subarray(2), dialect);
      }
    }
    runs.push({ fcStart: fc(i), fcEnd: fc(i + 1), props });
  }
  return runs;
}

export function readChpxPage(page: Buffer, dialect: WordDialect = WORD97): FcRun<RawCharProps>[] {
  const { crun, fc } = fkpBounds(page);
  const runs: FcRun<RawCharProps>[] = [];
  for (let i = 0; i < crun; i++) {
    const offset = page[(crun + 1) * 4 + i]! * 2;
    const cb = offset ? page[offset]! : 0;
    const props = offset ? readCharSprms(page.subarray(offset + 1, offset + 1 + cb), dialect) : { special: false };
    runs.push({ fcStart: fc(i), fcEnd: fc(i + 1), props });
  }
  return runs;
}

/** The character sprms this reader uses, from a CHPX's or a style's grpprl. */
function readCharSprms(grpprl: Buffer, dialect: WordDialect): RawCharProps {
  const props: RawCharProps = { special: false };
  for (const [sprm, operand] of dialect.sprms(grpprl)) {
    if (sprm === SPRM.cFBold) props.bold = operand[0];
    else if (sprm === SPRM.cFItalic) props.italic = operand[0];
    else if (sprm === SPRM.cFSpec) props.special = operand[0] === 1;
    else if (sprm === SPRM.cIss) props.position = operand[0] === 1 ? 'super' : operand[0] === 2 ? 'sub' : 'baseline';
    else if (sprm === SPRM.cIstd && operand.length >= 2) props.istd = operand.readUInt16LE(0);
    else if (sprm === SPRM.cFRMarkDel) props.deleted = operand[0] === 1;
    else if (sprm === SPRM.cFOle2) props.ole2 = operand[0] === 1;
    else if (sprm === SPRM.cPicLocation && operand.length >= 4) props.picLocation = operand.readUInt32LE(0);
    else if (sprm === SPRM.cRgFtc0 && operand.length >= 2) props.ftc = operand.readUInt16LE(0);
    else if (sprm === SPRM.cSymbol && operand.length >= 4)
      props.symbol = { ftc: operand.readUInt16LE(0), code: operand.readUInt16LE(2) };
  }
  return props;
}

/** One toggle over `current` (what the levels below resolved to): 0 and 1 are absolute, 0x81 flips, 0x80 keeps. */
function applyToggle(current: boolean, operand: number | undefined): boolean {
  if (operand === undefined || operand === TOGGLE_AS_STYLE) return current;
  if (operand === TOGGLE_OPPOSITE) return !current;
  return operand === 1;
}

/** `base` with a level's character properties applied. */
function applyChars(base: CharState, raw: RawCharProps | undefined): CharState {
  if (!raw) return base;
  const position = raw.position ?? base.position;
  return {
    bold: applyToggle(base.bold, raw.bold),
    italic: applyToggle(base.italic, raw.italic),
    position: position === 'baseline' ? undefined : position,
  };
}

function defaultParagraphProps(): ParagraphProps {
  return { istd: 0, ilfo: 0, ilvl: 0, inTable: false, ttp: false, itap: 0, innerCell: false, innerTtp: false };
}

function applyParagraphSprms(props: ParagraphProps, grpprl: Buffer, dialect: WordDialect): void {
  for (const [sprm, op] of dialect.sprms(grpprl)) {
    switch (sprm) {
      case W6_SPRM.nLvlAnm:
        props.anm = op[0];
        break;
      case W6_SPRM.anld:
        props.anmFormat = op[0];
        break;
      case SPRM.pIstd:
        if (op.length >= 2) props.istd = op.readUInt16LE(0);
        break;
      case SPRM.pIlfo:
        if (op.length >= 2) props.ilfo = op.readInt16LE(0);
        break;
      case SPRM.pIlvl:
        props.ilvl = op[0] ?? 0;
        break;
      case SPRM.pOutLvl:
        props.outline = op[0];
        break;
      case SPRM.pFInTable:
        props.inTable = op[0] === 1;
        break;
      case SPRM.pFTtp:
        props.ttp = op[0] === 1;
        break;
      case SPRM.pItap:
        if (op.length >= 4) props.itap = op.readInt32LE(0);
        break;
      case SPRM.pFInnerTableCell:
        props.innerCell = op[0] === 1;
        break;
      case SPRM.pFInnerTtp:
        props.innerTtp = op[0] === 1;
        break;
      case SPRM.tDefTable:
        props.row = rowGeometry(op, dialect.cellDefinition);
        break;
    }
  }
}

/** sprmTDefTable's operand: itcMac, itcMac + 1 edges, then a TC (flags first) per cell while they last. */
function rowGeometry(op: Buffer, tcSize: number): RowGeometry | undefined {
  const cells = op[0] ?? 0;
  if (cells < 1 || cells > MAX_ROW_CELLS || op.length < 1 + (cells + 1) * 2) return undefined;
  const edges = Array.from({ length: cells + 1 }, (_, i) => op.readInt16LE(1 + i * 2));
  const tcs = 1 + (cells + 1) * 2;
  const merges = Array.from({ length: cells }, (_, i) =>
    tcs + i * tcSize + 2 <= op.length ? op.readUInt16LE(tcs + i * tcSize) : 0,
  );
  return { edges, merges };
}

/** The single property modifiers of a grpprl, with their operands (size from the sprm's spra bits). */
function* sprms97(grpprl: Buffer): Generator<[number, Buffer]> {
  let at = 0;
  while (at + 2 <= grpprl.length) {
    const sprm = grpprl.readUInt16LE(at);
    at += 2;
    let size: number;
    switch (sprm >> 13) {
      case 0:
      case 1:
        size = 1;
        break;
      case 2:
      case 4:
      case 5:
        size = 2;
        break;
      case 3:
        size = 4;
        break;
      case 7:
        size = 3;
        break;
      default:
        // Variable length: sprmTDefTable counts with two bytes, everything else with one.
        if (sprm === SPRM.tDefTable || sprm === 0xd606) {
          size = at + 2 <= grpprl.length ? grpprl.readUInt16LE(at) + 1 : 0;
        } else {
          size = (grpprl[at] ?? 0) + 1;
        }
        if (sprm === 0xc615 && grpprl[at] === 255) size = grpprl.length; // sprmPChgTabs long form: stop here
    }
    const operandStart = sprm >> 13 === 6 ? at + (sprm === SPRM.tDefTable || sprm === 0xd606 ? 2 : 1) : at;
    yield [sprm, grpprl.subarray(operandStart, at + size)];
    at += size;
  }
}

/** The style sheet: each style's built-in id, name, base style and outline level. */
function readStyles(stsh: Buffer | undefined, dialect: WordDialect = WORD97): Style[] {
  if (!stsh || stsh.length < 4) return [];
  const cbStshi = stsh.readUInt16LE(0);
  const cstd = stsh.readUInt16LE(2);
  const cbStdBase = stsh.readUInt16LE(4);
  const styles: Style[] = [];
  let at = 2 + cbStshi;
  for (let i = 0; i < cstd && at + 2 <= stsh.length; i++) {
    const cbStd = stsh.readUInt16LE(at);
    const std = stsh.subarray(at + 2, at + 2 + cbStd);
    at += 2 + cbStd;
    if (cbStd < cbStdBase || std.length < Math.max(4, cbStdBase)) {
      styles.push({ sti: 0x0ffe, name: '', base: 0x0fff });
      continue;
    }
    const sti = std.readUInt16LE(0) & 0x0fff;
    const stk = std.readUInt16LE(2) & 0x000f;
    const base = std.readUInt16LE(2) >> 4;
    let name = '';
    let p = cbStdBase;
    if (dialect.styleName) {
      ({ name, next: p } = dialect.styleName(std, p));
    } else if (p + 2 <= std.length) {
      const cch = std.readUInt16LE(p);
      name = std.subarray(p + 2, p + 2 + cch * 2).toString('utf16le');
      p += 2 + (cch + 1) * 2;
    }
    const style: Style = { sti, name, base, stk };
    if (stk === 1 && p + 2 <= std.length) {
      // The first UPX of a paragraph style holds its paragraph properties: istd, then sprms.
      const cbUpx = std.readUInt16LE(p);
      const upx = std.subarray(p + 2, p + 2 + cbUpx);
      if (upx.length >= 2) {
        const props = defaultParagraphProps();
        applyParagraphSprms(props, upx.subarray(2), dialect);
        style.outline = props.outline;
        if (props.anm !== undefined) style.anm = { level: props.anm, format: props.anmFormat };
      }
      // UPXs are padded to an even length; the second holds the character properties.
      p += 2 + cbUpx + (cbUpx & 1);
    }
    if ((stk === 1 || stk === 2) && p + 2 <= std.length) {
      const cbUpx = std.readUInt16LE(p);
      style.chars = readCharSprms(std.subarray(p + 2, p + 2 + cbUpx), dialect);
    }
    styles.push(style);
  }
  return styles;
}

/** A list (LFO) as its paragraphs number: the list definition it uses and each level's format and start. */
interface ListFormat {
  /** The list definition (LSTF lsid): lists that share it count on in one sequence. */
  lsid: number;
  /** Per level: ordered (a number format) or bulleted. */
  ordered: boolean[];
  /** Per level: the number its first item shows (LVLF iStartAt). */
  starts: number[];
  /** Per level: the number format (nfc) and the number text (xst) it draws. */
  formats: number[];
  texts: string[];
  /** Levels this LFO restarts at a number of its own (LFOLVL with fStartAt). */
  restarts: Map<number, number>;
}

/**
 * Reads one LVL at `at`: its start number, number format, whether it is ordered and its number text
 * (xst: characters 0–8 stand for the levels' numbers); returns the offset after it.
 */
function readLevel(
  plfLst: Buffer,
  at: number,
): { start: number; nfc: number; ordered: boolean; text: string; next: number } {
  const start = plfLst.readInt32LE(at);
  const nfc = plfLst[at + 4]!;
  const cbChpx = plfLst[at + 24]!;
  const cbPapx = plfLst[at + 25]!;
  let next = at + 28 + cbPapx + cbChpx;
  const cch = plfLst.readUInt16LE(next);
  const text = plfLst.toString('utf16le', next + 2, next + 2 + cch * 2);
  next += 2 + cch * 2;
  return { start, nfc, ordered: nfc !== NFC_BULLET && nfc !== NFC_NONE, text, next };
}

/** Word's names for the LVL number formats (nfc) a label draws; others count in digits. */
const NFC_FORMATS: Record<number, string> = {
  1: 'upperRoman',
  2: 'lowerRoman',
  3: 'upperLetter',
  4: 'lowerLetter',
  22: 'decimalZero',
};

/** For each list (LFO index, 1-based): its list definition, each level's format and start, and its restarts. */
function readListFormats(plfLst: Buffer | undefined, plfLfo: Buffer | undefined): Map<number, ListFormat> {
  const out = new Map<number, ListFormat>();
  if (!plfLst || !plfLfo || plfLst.length < 2) return out;
  try {
    const cLst = plfLst.readInt16LE(0);
    const byLsid = new Map<number, { ordered: boolean[]; starts: number[]; formats: number[]; texts: string[] }>();
    const lstfs: Array<{ lsid: number; simple: boolean }> = [];
    for (let i = 0; i < cLst; i++) {
      const at = 2 + i * 28;
      lstfs.push({ lsid: plfLst.readInt32LE(at), simple: (plfLst[at + 26]! & 1) === 1 });
    }
    let at = 2 + cLst * 28;
    for (const lstf of lstfs) {
      const ordered: boolean[] = [];
      const starts: number[] = [];
      const formats: number[] = [];
      const texts: string[] = [];
      for (let l = 0; l < (lstf.simple ? 1 : 9); l++) {
        const level = readLevel(plfLst, at);
        at = level.next;
        ordered.push(level.ordered);
        starts.push(level.start);
        formats.push(level.nfc);
        texts.push(level.text);
      }
      byLsid.set(lstf.lsid, { ordered, starts, formats, texts });
    }
    const lfoMac = plfLfo.readInt32LE(0);
    const overrideCounts: number[] = [];
    for (let i = 0; i < lfoMac; i++) {
      const lsid = plfLfo.readInt32LE(4 + i * 16);
      overrideCounts.push(plfLfo[4 + i * 16 + 12]!);
      const list = byLsid.get(lsid);
      if (list) out.set(i + 1, { lsid, ...list, restarts: new Map() });
    }
    readRestarts(plfLfo, 4 + lfoMac * 16, overrideCounts, out);
  } catch {
    // A damaged list table leaves list paragraphs as bullets.
  }
  return out;
}

/**
 * The LFOData after the LFOs: for each LFO its level overrides (LFOLVL), whose fStartAt restarts a
 * level at iStartAt (a list "restarted at 6" in Word). A damaged tail keeps the restarts read so far.
 */
function readRestarts(plfLfo: Buffer, from: number, overrideCounts: number[], out: Map<number, ListFormat>): void {
  let at = from;
  try {
    for (let i = 0; i < overrideCounts.length; i++) {
      const count = overrideCounts[i]!;
      at += 4; // LFOData.cp: every LFO has its LFOData, with or without level overrides
      for (let k = 0; k < count; k++) {
        const start = plfLfo.readInt32LE(at);
        const flags = plfLfo[at + 4]!;
        at += 8;
        const level = flags & 0x0f;
        if (flags & 0x10) out.get(i + 1)?.restarts.set(level, start);
        // fFormatting: a whole LVL follows, its iStartAt the level's start in this list.
        if (flags & 0x20) at = readLevel(plfLfo, at).next;
      }
    }
  } catch {
    // Restarts past a damaged entry are not known; the lists still number from their definitions.
  }
}

/** Walks characters by CP through the piece table, with their paragraph and character properties. */
class TextReader {
  constructor(
    private readonly word: Buffer,
    private readonly pieces: Piece[],
    private readonly papx: FcRun<ParagraphProps>[],
    private readonly chpx: FcRun<RawCharProps>[],
    private readonly styles: Style[],
    private readonly lists: Map<number, ListFormat>,
    private readonly dialect: WordDialect = WORD97,
    /** The font table's names, by ftc (Word 97 files; none for Word 6). */
    fonts: string[] = [],
  ) {
    this.tracksDeletions = chpx.some((run) => run.props.deleted);
    this.symbolFonts = fonts.map(symbolFontNamed);
  }

  /** Which fonts of the table are symbol fonts, by ftc: told once, not for each character. */
  private readonly symbolFonts: Array<SymbolFont | undefined>;

  /** Whether any text is marked deleted (tracked changes), so characters need the look-up at all. */
  private readonly tracksDeletions: boolean;

  /** Text deleted with tracked changes on: left out, as Word shows the document with its changes accepted. */
  private deletedAt(fc: number): boolean {
    return this.tracksDeletions && findRun(this.chpx, fc)?.props.deleted === true;
  }

  /** Word's list counters, one sequence per list definition; deeper levels restart when a parent advances. */
  private readonly counters = new Map<number, number[]>();
  private readonly seenLists = new Set<number>();

  /** The paragraphs of the CP range [from, to), fields resolved to their results. */
  paragraphs(
    from: number,
    to: number,
    noteLabels: Map<number, string>,
    boxes: Map<number, WordParagraph[]> = new Map(),
  ): WordParagraph[] {
    const out: WordParagraph[] = [];
    let runs: WordRun[] = [];
    // Text boxes anchored in a paragraph follow it (as in the DOCX reader); in a table, after the table.
    let pendingBoxes: WordParagraph[] = [];
    // Field stack: while any open field is in its instruction part, characters are instruction text.
    // `object`: an embedded OLE object's storage (EMBED fields), until its result's picture stands for it.
    const fields: Array<{
      instruction: string;
      inResult: boolean;
      resultStart: number;
      paragraph: number;
      object?: number;
    }> = [];
    // A field result starts a new run, so a hyperlink's text can be marked on its own.
    let fieldStart = -1;
    const push = (text: string, props: CharProps, extra?: Partial<WordRun>): void => {
      const bold = props.bold ?? false;
      const italic = props.italic ?? false;
      const { position, code } = props;
      const last = runs[runs.length - 1];
      const joinable = last && !last.special && !extra && !last.link && runs.length > fieldStart;
      if (
        joinable &&
        last.bold === bold &&
        last.italic === italic &&
        last.position === position &&
        last.code === code
      ) {
        last.text += text;
      } else runs.push({ text, bold, italic, position, ...(code ? { code } : {}), ...extra });
    };
    for (const piece of this.pieces) {
      const start = Math.max(from, piece.cpStart);
      const end = Math.min(to, piece.cpEnd);
      if (start >= end) continue;
      const width = piece.compressed ? 1 : 2;
      const firstFc = piece.fc + (start - piece.cpStart) * width;
      const bytes = this.word.subarray(firstFc, firstFc + (end - start) * width);
      const text = piece.compressed ? this.dialect.decode8(bytes) : bytes.toString('utf16le');
      for (let i = 0; i < text.length; i++) {
        const ch = text[i]!;
        const fc = firstFc + i * width;
        const inInstruction = fields.some((f) => !f.inResult);
        switch (ch) {
          case '\u0013':
            fields.push({ instruction: '', inResult: false, resultStart: -1, paragraph: out.length });
            continue;
          case '\u0014': {
            const field = fields[fields.length - 1];
            if (field) {
              // An embedded object's field separator names its storage (sprmCFOle2); its result's picture is a rendering.
              field.object = this.charAt(fc).object;
              field.inResult = true;
              field.resultStart = runs.length;
              field.paragraph = out.length;
              fieldStart = runs.length;
            }
            continue;
          }
          case '\u0015': {
            const field = fields.pop();
            // An object whose result shows no picture still stands where its field ends.
            if (field?.object !== undefined)
              push('', this.charAt(fc), { special: { kind: 'object', storage: field.object } });
            const url = field && hyperlinkTarget(field.instruction);
            if (field && url && field.paragraph === out.length) {
              for (const run of runs.slice(field.resultStart)) if (!run.special) run.link = url;
            }
            continue;
          }
        }
        if (inInstruction) {
          const field = fields.find((f) => !f.inResult)!;
          if (ch !== '\r' && ch !== '\u0007') {
            field.instruction += ch;
            continue;
          }
        }
        const cp = piece.cpStart + (start - piece.cpStart) + i;
        // A deleted paragraph mark joins its paragraph to the next; cell and row marks keep the table's shape.
        if (ch !== '\u0007' && ch !== '\u000c' && this.deletedAt(fc)) continue;
        switch (ch) {
          case '\r':
          case '\u0007':
          case '\u000c': {
            const paragraph = this.paragraphAt(fc, runs, ch === '\u0007');
            runs = [];
            fieldStart = -1;
            if (paragraph) out.push(paragraph);
            if (pendingBoxes.length && !paragraph?.tableDepth) {
              out.push(...pendingBoxes);
              pendingBoxes = [];
            }
            // A form feed is a page or section break: counted on the paragraph it follows (none before the first).
            const last = out[out.length - 1];
            if (ch === '\u000c' && last) last.pageBreaksAfter = (last.pageBreaksAfter ?? 0) + 1;
            continue;
          }
          case '\u000b':
            push('\n', this.charAt(fc));
            continue;
          case '\u0001':
          case '\u0008': {
            const box = ch === '\u0008' ? boxes.get(cp) : undefined;
            if (box) {
              pendingBoxes.push(...box);
              continue;
            }
            const props = this.charAt(fc);
            const field = ch === '\u0001' ? fields.findLast((f) => f.object !== undefined) : undefined;
            const object = field?.object;
            if (field) field.object = undefined;
            if (props.special && object !== undefined)
              push('', props, { special: { kind: 'object', storage: object } });
            else if (props.special) push('', props, { special: { kind: 'picture' } });
            continue;
          }
          case '\u0005': // a comment's reference mark
          case '\u0002': {
            const label = noteLabels.get(cp);
            if (label) push('', this.charAt(fc), { special: { kind: 'note', label } });
            continue;
          }
          case '\u001e':
            push('-', this.charAt(fc));
            continue;
          case '\u001f':
            continue;
          case '\u00a0':
            push(' ', this.charAt(fc));
            continue;
        }
        if (ch < ' ' && ch !== '\t') continue;
        const props = this.charAt(fc);
        // An inserted symbol is a "(" carrying the symbol's font and code (special or not, as writers set it).
        if (props.symbol !== undefined && ch === '(') {
          if (props.symbol) push(props.symbol, props);
          continue;
        }
        push(props.symbolFont ? inSymbolFont(ch, props.symbolFont) : ch, props);
      }
    }
    if (runs.some((r) => r.text.trim() || r.special)) {
      out.push({ runs, heading: 0, tableDepth: 0, cellEnd: false, rowEnd: false });
    }
    out.push(...pendingBoxes);
    return out;
  }

  private paragraphAt(fc: number, runs: WordRun[], cellMark: boolean): WordParagraph | undefined {
    const props = findRun(this.papx, fc)?.props ?? defaultParagraphProps();
    const depth = props.itap > 0 ? props.itap : props.inTable ? 1 : 0;
    const rowEnd = depth > 1 ? props.innerTtp : props.ttp;
    const cellEnd = depth > 1 ? props.innerCell : cellMark && !rowEnd;
    const paragraph: WordParagraph = { runs, heading: 0, tableDepth: depth, cellEnd, rowEnd };
    if (rowEnd && depth === 1 && props.row) paragraph.row = props.row;
    if (!depth) {
      paragraph.heading = this.headingLevel(props);
      // A heading numbered by a list ("1.2 Scope") shows its number, as the DOCX reader writes it.
      if (paragraph.heading && props.ilfo > 0) paragraph.label = this.headingLabel(props.ilfo, props.ilvl);
      const numbered = paragraph.heading ? undefined : this.oldNumbering(props);
      if (props.ilfo > 0 && !paragraph.heading) {
        paragraph.list = this.listItem(props.ilfo, props.ilvl);
      } else if (numbered) paragraph.list = numbered;
      else if (!paragraph.heading && this.codeStyle(props.istd)) paragraph.code = true;
      else if (!paragraph.heading) {
        if (this.styleNamed(props.istd, QUOTE_STYLE)) paragraph.role = 'quote';
        else if (this.styleNamed(props.istd, TERM_STYLE)) paragraph.role = 'term';
        else if (this.styleNamed(props.istd, DEFINITION_STYLE)) paragraph.role = 'definition';
      }
    }
    return paragraph;
  }

  /**
   * Word 6/95 auto-numbering of a paragraph (its own or its style's): level 10 numbers paragraphs,
   * 11 bullets them, 1-9 are outline levels; the ANLD's number format says bullet (nfc 23) or number.
   */
  private oldNumbering(props: ParagraphProps): WordParagraph['list'] {
    let level = props.anm;
    let format = props.anmFormat;
    for (let at = props.istd, hop = 0; (level === undefined || format === undefined) && hop < MAX_STYLE_HOPS; hop++) {
      const style = this.styles[at];
      if (!style) break;
      level ??= style.anm?.level;
      format ??= style.anm?.format;
      if (style.base >= 0x0ffe || style.base === at) break;
      at = style.base;
    }
    if (!level || level > 11) return undefined;
    const ordered = level !== 11 && format !== NFC_BULLET;
    return { ordered, level: level <= 9 ? level - 1 : 0 };
  }

  /** The number a list draws on a heading in it at level `ilvl` ("1.2"), counted with the list; none for bullets. */
  private headingLabel(ilfo: number, ilvl: number): string | undefined {
    const item = this.listItem(ilfo, ilvl);
    const list = this.lists.get(ilfo);
    const counts = list && this.counters.get(list.lsid);
    if (!list || !counts || !item?.ordered) return undefined;
    const text = list.texts[Math.min(ilvl, 8)] ?? '';
    const label = text.replace(/[\u0000-\u0008]/g, (ch) => {
      const level = ch.charCodeAt(0);
      return formatNumber(counts[level] ?? list.starts[level] ?? 1, NFC_FORMATS[list.formats[level] ?? 0] ?? 'decimal');
    });
    return label.trim() || undefined;
  }

  /** The list entry of a paragraph in list `ilfo` at level `ilvl`, with the number Word shows on it. */
  private listItem(ilfo: number, ilvl: number): WordParagraph['list'] {
    const level = Math.min(ilvl, 8);
    const list = this.lists.get(ilfo);
    if (!list) return { ordered: false, level };
    let counts = this.counters.get(list.lsid);
    if (!counts) this.counters.set(list.lsid, (counts = []));
    if (!this.seenLists.has(ilfo)) {
      this.seenLists.add(ilfo);
      for (const [l, start] of list.restarts) counts[l] = start - 1;
    }
    counts[ilvl] = (counts[ilvl] ?? (list.starts[ilvl] ?? 1) - 1) + 1;
    counts.length = ilvl + 1;
    return { ordered: list.ordered[ilvl] ?? false, level, value: counts[ilvl], list: String(ilfo) };
  }

  /** Whether the paragraph style or one it is based on is named as code. */
  private codeStyle(istd: number): boolean {
    for (let at = istd, hop = 0; hop < MAX_STYLE_HOPS; hop++) {
      const style = this.styles[at];
      if (!style) return false;
      if (CODE_STYLE.test(style.name)) return true;
      if (style.base >= 0x0ffe || style.base === at) return false;
      at = style.base;
    }
    return false;
  }

  private headingLevel(props: ParagraphProps): number {
    if (props.outline !== undefined && props.outline < 9) return props.outline + 1;
    let istd = props.istd;
    for (let hop = 0; hop < 10; hop++) {
      const style = this.styles[istd];
      if (!style) return 0;
      if (style.sti >= 1 && style.sti <= 9) return style.sti;
      if (style.sti === STI_TITLE) return 1;
      if (style.sti === STI_SUBTITLE) return 2;
      const named = headingLevelOfStyleName(style.name);
      if (named) return named;
      if (style.outline !== undefined && style.outline < 9) return style.outline + 1;
      if (style.base >= 0x0ffe || style.base === istd) return 0;
      istd = style.base;
    }
    return 0;
  }

  private readonly styleChars = new Map<number, CharState>();
  private readonly paragraphChars = new Map<ParagraphProps, CharState>();

  /** A character's formatting: its paragraph style's, then its character style's, then its own sprms. */
  private charAt(fc: number): CharProps {
    const raw = findRun(this.chpx, fc)?.props ?? { special: false };
    const paragraph = findRun(this.papx, fc)?.props ?? defaultParagraphProps();
    let state = this.paragraphChars.get(paragraph);
    if (!state) {
      // A heading's or quote's style formatting is what makes it look like one, not emphasis (docs/decisions.md).
      const plain = this.headingLevel(paragraph) || this.styleNamed(paragraph.istd, QUOTE_STYLE);
      state = plain ? PLAIN_CHARS : this.styleState(paragraph.istd);
      this.paragraphChars.set(paragraph, state);
    }
    let code: true | undefined;
    if (raw.istd !== undefined && raw.istd !== ISTD_DEFAULT_FONT && this.styles[raw.istd]?.stk === 2) {
      const chars = this.styleState(raw.istd);
      if (this.styleNamed(raw.istd, CODE_CHAR_STYLE)) code = true;
      // Toggle rule across style levels: a character style that is bold flips its paragraph's bold.
      state = {
        bold: state.bold !== chars.bold,
        italic: state.italic !== chars.italic,
        position: chars.position ?? state.position,
      };
    }
    const object = raw.ole2 ? raw.picLocation : undefined;
    const symbolFont = raw.ftc === undefined ? undefined : this.symbolFonts[raw.ftc];
    return {
      ...applyChars(state, raw),
      special: raw.special,
      code,
      ...(object === undefined ? {} : { object }),
      ...(symbolFont && { symbolFont }),
      ...(raw.symbol && { symbol: this.symbolChar(raw.symbol) }),
    };
  }

  /**
   * The character an inserted symbol draws: Symbol's and Wingdings' by their tables, another font's
   * code as itself unless it is in the private use area (a font's own glyph, no Unicode form).
   */
  private symbolChar(symbol: { ftc: number; code: number }): string {
    const font = this.symbolFonts[symbol.ftc];
    if (font) return symbolFontChar(symbol.code, font) ?? '';
    return symbol.code >= 0xe000 && symbol.code <= 0xf8ff ? '' : String.fromCharCode(symbol.code);
  }

  /** Whether the style, or one it is based on, has a name that `pattern` matches. */
  private styleNamed(istd: number, pattern: RegExp): boolean {
    for (let at = istd, hop = 0; hop < MAX_STYLE_HOPS; hop++) {
      const style = this.styles[at];
      if (!style) return false;
      if (pattern.test(style.name.replace(/_/g, ' '))) return true;
      if (style.base >= 0x0ffe || style.base === at) return false;
      at = style.base;
    }
    return false;
  }

  /** What a style's chain of base styles resolves to, the root applied first. */
  private styleState(istd: number): CharState {
    const cached = this.styleChars.get(istd);
    if (cached) return cached;
    const chain: Style[] = [];
    for (let at = istd, hop = 0; hop < MAX_STYLE_HOPS; hop++) {
      const style = this.styles[at];
      if (!style) break;
      chain.unshift(style);
      if (style.base >= 0x0ffe || style.base === at) break;
      at = style.base;
    }
    const state = chain.reduce((s, st) => applyChars(s, st.chars), PLAIN_CHARS);
    this.styleChars.set(istd, state);
    return state;
  }
}

function findRun<T>(runs: FcRun<T>[], fc: number): FcRun<T> | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const run = runs[mid]!;
    if (fc < run.fcStart) hi = mid - 1;
    else if (fc >= run.fcEnd) lo = mid + 1;
    else return run;
  }
  return undefined;
}

/** 8-bit pieces are Windows-1252 ([MS-DOC] 2.4.1). */
function decodeCompressed(bytes: Buffer): string {
  return iconv.decode(bytes, 'cp1252');
}

const WORD97: WordDialect = {
  sprms: sprms97,
  papxEntry: 13,
  cellDefinition: 20,
  pageNumber: 4,
  decode8: decodeCompressed,
};

/**
 * The font table's names (SttbfFfn: a count, extra-data size, then an FFN per font: its size less
 * one, 39 bytes of family, weight, charset, PANOSE and signature, then its NUL-terminated UTF-16 name).
 */
function readFontNames(sttb: Buffer | undefined): string[] {
  if (!sttb || sttb.length < 4) return [];
  const count = sttb.readUInt16LE(0);
  const names: string[] = [];
  for (let at = 4, i = 0; i < count && at < sttb.length; i++) {
    const size = sttb[at]! + 1;
    const name = sttb.subarray(Math.min(at + 40, at + size), Math.min(at + size, sttb.length)).toString('utf16le');
    names.push(name.split('\0')[0] ?? '');
    at += size;
  }
  return names;
}
