import iconv from 'iconv-lite';
import { readOldWordDocument, SPRM, W6_SPRM, type WordDialect, type WordDocument } from './word97';

/** wIdent of Word 6.0 and Word 95 documents (Word 97 and later write 0xA5EC). */
export const WORD6_IDENT = 0xa5dc;

/** Where Word 6/95 keep what we read: FibBase, then FibRgLw95 (character counts), then the fc/lcb pairs. */
const FIB6 = {
  flags: 0x0a,
  /** The fc/lcb pairs start here, in Word 97's order (stshf is pair 1, clx pair 33). */
  fcLcb: 0x58,
  envr: 0x12,
  fcMin: 0x18,
  fcMac: 0x1c,
  ccpText: 0x34,
  ccpFtn: 0x38,
  fcSttbfffn: 0xd0,
  lcbSttbfffn: 0xd4,
  fcClx: 0x160,
  lcbClx: 0x164,
  size: 0x168,
};
const FLAG_COMPLEX = 0x0004;
const FLAG_ENCRYPTED = 0x0100;

/** Windows code pages of the font charsets (chs) that are not ANSI, default or symbol. */
const CHARSET_CODEPAGES = new Map<number, number>([
  [77, 10000],
  [128, 932],
  [129, 949],
  [130, 1361],
  [134, 936],
  [136, 950],
  [161, 1253],
  [162, 1254],
  [163, 1258],
  [177, 1255],
  [178, 1256],
  [186, 1257],
  [204, 1251],
  [222, 874],
  [238, 1250],
]);
const DOUBLE_BYTE = new Set([932, 936, 949, 950, 1361]);

export class Word6FormatError extends Error {}

/** Pairs of the fc/lcb table that the structured reading uses. */
const FC6 = { stshf: 1, plcffndRef: 2, plcffndTxt: 3, plcfBteChpx: 12, plcfBtePapx: 13 } as const;

/**
 * Operand sizes of Word 6/95's one-byte sprms (as Word 6 writes them, and LibreOffice's ww8scan
 * lists them): a number is a fixed size; 'var' a length byte then that many bytes; 'var2' a
 * two-byte count (sprmTDefTable). Sprms not listed end the walk (their size is unknown).
 */
const SPRM6_SIZES = new Map<number, number | 'var' | 'var2'>([
  [0, 0],
  [2, 2],
  [3, 'var'],
  [4, 1],
  [5, 1],
  [6, 1],
  [7, 1],
  [8, 1],
  [9, 1],
  [10, 1],
  [11, 1],
  [12, 'var'],
  [13, 1],
  [14, 1],
  [15, 'var'],
  [16, 2],
  [17, 2],
  [18, 2],
  [19, 2],
  [20, 4],
  [21, 2],
  [22, 2],
  [23, 'var'],
  [24, 1],
  [25, 1],
  [26, 2],
  [27, 2],
  [28, 2],
  [29, 1],
  [30, 2],
  [31, 2],
  [32, 2],
  [33, 2],
  [34, 2],
  [35, 2],
  [36, 2],
  [37, 1],
  [38, 2],
  [39, 2],
  [40, 2],
  [41, 2],
  [42, 2],
  [43, 2],
  [44, 1],
  [45, 2],
  [46, 2],
  [47, 2],
  [48, 2],
  [49, 2],
  [50, 1],
  [51, 1],
  [52, 0],
  [64, 'var'],
  [65, 1],
  [66, 1],
  [67, 1],
  [68, 'var'],
  [69, 2],
  [70, 4],
  [71, 1],
  [72, 2],
  [73, 3],
  [74, 'var'],
  [75, 1],
  [77, 'var'],
  [79, 'var'],
  [80, 2],
  [81, 'var'],
  [82, 'var'],
  [83, 0],
  [85, 1],
  [86, 1],
  [87, 1],
  [88, 1],
  [89, 1],
  [90, 1],
  [91, 1],
  [92, 1],
  [93, 2],
  [94, 1],
  [95, 3],
  [96, 2],
  [97, 2],
  [98, 1],
  [99, 2],
  [100, 1],
  [101, 2],
  [102, 1],
  [103, 'var'],
  [104, 1],
  [105, 'var'],
  [106, 'var'],
  [107, 2],
  [108, 'var'],
  [109, 2],
  [110, 2],
  [111, 'var'],
  [112, 'var'],
  [113, 'var'],
  [114, 'var'],
  [115, 'var'],
  [116, 'var'],
  [117, 1],
  [118, 1],
  [119, 1],
  [120, 'var'],
  [121, 2],
  [122, 2],
  [123, 2],
  [124, 2],
  [131, 1],
  [132, 1],
  [133, 'var'],
  [136, 3],
  [137, 3],
  [138, 1],
  [139, 1],
  [140, 2],
  [141, 2],
  [142, 1],
  [143, 1],
  [144, 2],
  [145, 2],
  [146, 1],
  [147, 1],
  [148, 2],
  [149, 2],
  [150, 1],
  [151, 1],
  [152, 1],
  [153, 1],
  [154, 2],
  [155, 2],
  [156, 2],
  [157, 2],
  [158, 1],
  [159, 1],
  [160, 2],
  [161, 2],
  [162, 1],
  [163, 0],
  [164, 2],
  [165, 2],
  [166, 2],
  [167, 2],
  [168, 2],
  [169, 2],
  [170, 2],
  [171, 2],
  [179, 'var'],
  [181, 'var'],
  [182, 2],
  [183, 2],
  [184, 2],
  [185, 1],
  [186, 1],
  [187, 12],
  [188, 'var'],
  [189, 2],
  [190, 'var2'],
  [191, 'var'],
  [192, 4],
  [193, 5],
  [194, 4],
  [195, 2],
  [196, 4],
  [197, 2],
  [198, 2],
  [199, 5],
  [200, 4],
  [207, 'var'],
]);

/** The Word 6 sprms the reader uses, by the Word 97 id the Word 97 reader knows them by. */
const SPRM6_AS_97 = new Map<number, number>([
  [2, SPRM.pIstd],
  [12, W6_SPRM.anld],
  [13, W6_SPRM.nLvlAnm],
  [24, SPRM.pFInTable],
  [25, SPRM.pFTtp],
  [190, SPRM.tDefTable],
  [65, SPRM.cFRMarkDel],
  [80, SPRM.cIstd],
  [85, SPRM.cFBold],
  [86, SPRM.cFItalic],
  [104, SPRM.cIss],
  [117, SPRM.cFSpec],
]);

/** A Word 6 grpprl's sprms, those the reader uses under their Word 97 ids; a sprm of unknown size ends it. */
function* sprms6(grpprl: Buffer): Generator<[number, Buffer]> {
  let at = 0;
  while (at < grpprl.length) {
    const sprm = grpprl[at]!;
    const size = SPRM6_SIZES.get(sprm);
    if (size === undefined) return;
    let start = at + 1;
    let length: number;
    if (size === 'var') {
      length = grpprl[start] ?? 0;
      // sprmPChgTabs's long form (255) counts otherwise: stop here, as the Word 97 walk does.
      if (sprm === 23 && length === 255) return;
      start += 1;
    } else if (size === 'var2') {
      if (start + 2 > grpprl.length) return;
      // The count includes one of its own two bytes, as Word 97's sprmTDefTable does.
      length = Math.max(0, grpprl.readUInt16LE(start) - 1);
      start += 2;
    } else length = size;
    const as97 = SPRM6_AS_97.get(sprm);
    if (as97 !== undefined) yield [as97, grpprl.subarray(start, start + length)];
    at = start + length;
  }
}

/** The text of a Word 6/95 document: the main text and the footnotes, with Word's marks still in. */
export interface Word6Text {
  body: string;
  footnotes: string;
}

/**
 * Word 6.0/95 keep all text 8-bit in the WordDocument stream (no table stream): in one run from
 * fcMin, or, for a fast-saved file, in the pieces of the clx. The code page is the first font's
 * that names one, as Word itself falls back to (Apache POI's HWPFOldDocument does the same).
 */
export function readWord6Text(word: Buffer): Word6Text {
  if (word.length < FIB6.size || word.readUInt16LE(0) !== WORD6_IDENT) throw new Word6FormatError('not Word 6');
  const flags = word.readUInt16LE(FIB6.flags);
  if (flags & FLAG_ENCRYPTED) throw new Word6FormatError('encrypted');
  const fcMin = word.readUInt32LE(FIB6.fcMin);
  const fcMac = Math.min(word.length, word.readUInt32LE(FIB6.fcMac));
  const ccpText = Math.max(0, word.readInt32LE(FIB6.ccpText));
  const ccpFtn = Math.max(0, word.readInt32LE(FIB6.ccpFtn));
  const { codepage, encoding } = textEncoding(word);
  const width = DOUBLE_BYTE.has(codepage) ? 2 : 1;
  const decode = (from: number, to: number): string =>
    iconv.decode(word.subarray(from, Math.min(to, word.length)), encoding);
  // The characters [start, end) of the document, piece by piece.
  let range: (start: number, end: number) => string;
  if (flags & FLAG_COMPLEX) {
    const pieces = readPieces(word);
    range = (start, end) =>
      pieces
        .filter((p) => p.cpEnd > start && p.cpStart < end)
        .map((p) => {
          const from = Math.max(start, p.cpStart) - p.cpStart;
          const to = Math.min(end, p.cpEnd) - p.cpStart;
          return decode(p.fc + from * width, p.fc + to * width);
        })
        .join('');
  } else {
    range = (start, end) => decode(fcMin + start * width, Math.min(fcMac, fcMin + end * width));
  }
  return { body: range(0, ccpText), footnotes: range(ccpText, ccpText + ccpFtn) };
}

/** The document's code page and iconv's name for it. */
function textEncoding(word: Buffer): { codepage: number; encoding: string } {
  // A document written on a Macintosh (envr 1) is in Mac Roman unless a font says otherwise.
  const mac = word[FIB6.envr] === 1;
  const codepage = fontCodepage(word) ?? (mac ? 10000 : 1252);
  const encoding =
    codepage === 10000 ? 'macintosh' : iconv.encodingExists(`cp${codepage}`) ? `cp${codepage}` : 'cp1252';
  return { codepage, encoding };
}

/**
 * A Word 6/95 document with its structure: paragraph styles (headings), table cells and rows,
 * numbered and bulleted paragraphs, bold and italic, footnotes, through the Word 97 reader with
 * Word 6's one-byte sprms. Undefined for a double-byte document (its text is read as text only).
 */
export function readWord6Document(word: Buffer): WordDocument | undefined {
  if (word.length < FIB6.size || word.readUInt16LE(0) !== WORD6_IDENT) throw new Word6FormatError('not Word 6');
  const flags = word.readUInt16LE(FIB6.flags);
  if (flags & FLAG_ENCRYPTED) throw new Word6FormatError('encrypted');
  const { codepage, encoding } = textEncoding(word);
  if (DOUBLE_BYTE.has(codepage)) return undefined;
  const fcMin = word.readUInt32LE(FIB6.fcMin);
  const fcMac = Math.min(word.length, word.readUInt32LE(FIB6.fcMac));
  const ccpText = Math.max(0, word.readInt32LE(FIB6.ccpText));
  const ccpFtn = Math.max(0, word.readInt32LE(FIB6.ccpFtn));
  const slice = (index: number): Buffer | undefined => {
    const at = FIB6.fcLcb + index * 8;
    const fc = word.readUInt32LE(at);
    const lcb = word.readUInt32LE(at + 4);
    return lcb > 0 && fc + lcb <= word.length ? word.subarray(fc, fc + lcb) : undefined;
  };
  const pieces =
    flags & FLAG_COMPLEX ? readPieces(word) : [{ cpStart: 0, cpEnd: Math.max(0, fcMac - fcMin), fc: fcMin }];
  const dialect: WordDialect = {
    sprms: sprms6,
    papxEntry: 7,
    cellDefinition: 10,
    pageNumber: 2,
    decode8: (bytes) => iconv.decode(bytes, encoding),
    styleName: (std, at) => {
      const cch = std[at] ?? 0;
      // A count byte, the characters, a terminating zero.
      return { name: iconv.decode(std.subarray(at + 1, at + 1 + cch), encoding), next: at + cch + 2 };
    },
  };
  return readOldWordDocument(
    word,
    {
      pieces,
      stsh: slice(FC6.stshf),
      plcfBtePapx: slice(FC6.plcfBtePapx),
      plcfBteChpx: slice(FC6.plcfBteChpx),
      plcffndRef: slice(FC6.plcffndRef),
      plcffndTxt: slice(FC6.plcffndTxt),
      ccpText,
      ccpFtn,
    },
    dialect,
  );
}

interface Piece {
  cpStart: number;
  cpEnd: number;
  fc: number;
}

/** The clx in the WordDocument stream: property modifiers (0x01) to skip, then the piece table (0x02). */
function readPieces(word: Buffer): Piece[] {
  const fcClx = word.readUInt32LE(FIB6.fcClx);
  const lcbClx = word.readUInt32LE(FIB6.lcbClx);
  if (!lcbClx || fcClx + lcbClx > word.length) throw new Word6FormatError('no piece table');
  const clx = word.subarray(fcClx, fcClx + lcbClx);
  let at = 0;
  while (at + 3 <= clx.length && clx[at] === 0x01) at += 3 + clx.readUInt16LE(at + 1);
  if (clx[at] !== 0x02 || at + 5 > clx.length) throw new Word6FormatError('bad piece table');
  const plc = clx.subarray(at + 5, at + 5 + clx.readUInt32LE(at + 1));
  const n = Math.floor((plc.length - 4) / 12);
  const pieces: Piece[] = [];
  for (let i = 0; i < n; i++) {
    pieces.push({
      cpStart: plc.readUInt32LE(i * 4),
      cpEnd: plc.readUInt32LE((i + 1) * 4),
      fc: plc.readUInt32LE((n + 1) * 4 + i * 8 + 2) & 0x3fffffff,
    });
  }
  return pieces;
}

/** The code page of the first font whose charset names one. */
function fontCodepage(word: Buffer): number | undefined {
  const fc = word.readUInt32LE(FIB6.fcSttbfffn);
  const lcb = word.readUInt32LE(FIB6.lcbSttbfffn);
  const end = Math.min(word.length, fc + lcb);
  // A 2-byte total length, then FFNs: cbFfnM1, flags, wWeight (2), chs, ixchSzAlt, name.
  for (let at = fc + 2; lcb > 2 && at + 6 <= end; at += word[at]! + 1) {
    const codepage = CHARSET_CODEPAGES.get(word[at + 4]!);
    if (codepage) return codepage;
  }
  return undefined;
}

/**
 * Word's text as plain lines: field codes left out (their shown result kept), pictures and
 * drawn-object anchors dropped, cell and paragraph marks ending lines, soft line breaks and
 * Word's special hyphens and spaces as a reader sees them.
 */
export function word6Lines(text: string): string {
  let out = '';
  // Per open field: whether its result (after the separator) is being read.
  const fields: boolean[] = [];
  for (const ch of text) {
    if (ch === '\u0013') fields.push(false);
    else if (ch === '\u0014') {
      if (fields.length) fields[fields.length - 1] = true;
    } else if (ch === '\u0015') fields.pop();
    else if (fields.length && !fields[fields.length - 1]) continue;
    else if (ch === '\r' || ch === '\u0007' || ch === '\u000c' || ch === '\u000b') out += '\n';
    else if (ch === '\u001e') out += '-';
    else if (ch === '\u00a0') out += ' ';
    else if (ch === '\t') out += ' ';
    else if (ch >= ' ') out += ch;
  }
  // Tabs and runs of spaces only align text on the page.
  return out.replace(/ {2,}/g, ' ');
}
