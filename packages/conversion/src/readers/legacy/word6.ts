import iconv from 'iconv-lite';

/** wIdent of Word 6.0 and Word 95 documents (Word 97 and later write 0xA5EC). */
export const WORD6_IDENT = 0xa5dc;

/** Where Word 6/95 keep what we read: FibBase, then FibRgLw95 (character counts), then the fc/lcb pairs. */
const FIB6 = {
  flags: 0x0a,
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
  // A document written on a Macintosh (envr 1) is in Mac Roman unless a font says otherwise.
  const mac = word[FIB6.envr] === 1;
  const codepage = fontCodepage(word) ?? (mac ? 10000 : 1252);
  const encoding =
    codepage === 10000 ? 'macintosh' : iconv.encodingExists(`cp${codepage}`) ? `cp${codepage}` : 'cp1252';
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
