import { asciiWidth } from './glyph-widths';
import { loadPdfLib, pdfLib, pdfName } from './objects';
import type { PDFContext, PDFDict, PDFObject } from 'pdf-lib';

/**
 * Fonts embedded without a map to Unicode, read by their glyph order (what pdf.js and MuPDF do for
 * simple fonts with glyph names). Acrobat Distiller (PScript5) embeds TrueType fonts as CID fonts
 * (Identity-H, CIDToGIDMap Identity) whose subsets keep the original glyph ids, often without a
 * ToUnicode map and without the font's own cmap and post tables: poppler then gives each glyph id as
 * a character ("1U -DKUJDQJ" for "Nr. Jahrgang", every letter 29 places off, spaces lost), and every
 * page of such a file went to OCR. Arial, Times New Roman, Segoe UI and most Windows and Mac fonts
 * number their first 258 glyphs in the TrueType standard (Macintosh) order: glyph 3 is the space,
 * 36 "A", 68 "a", 108 "ä". A font is read so only when its widths say it: the widths the PDF gives
 * its letters must follow a proportional face's (Helvetica's) letter widths, as a font's letters do
 * and letters named by another glyph order don't; glyphs past ASCII (Latin-1 letters) only when each
 * accented letter is as wide as its base letter in that font.
 */

/** The characters of glyphs 3..257 in the TrueType standard order (the `post` table's 258 Macintosh names). */
const STANDARD_ORDER =
  ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø¿¡¬√ƒ≈∆«»…\u00a0ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄¤‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\uf8ffÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇŁłŠšŽž¦ÐðÝýÞþ−×¹²³½¼¾₣ĞğİŞşĆćČčđ';
const FIRST_GLYPH = 3;
/** Glyphs after this one (ASCII's last, asciitilde) are Latin-1 and symbols, where fonts' orders part. */
const LAST_ASCII_GLYPH = 97;
/**
 * The last glyph (ellipsis) before the standard order's nonbreakingspace, which Microsoft's fonts
 * leave out (their no-break space is the space glyph): past it Arial's glyphs are one place ahead of
 * the standard's (its 179 is "“", not "—"), so glyphs past it are given no text rather than a wrong one.
 */
const LAST_SHARED_GLYPH = 171;
/** A font's letters are judged on at least this many of them… */
const MIN_JUDGED_LETTERS = 8;
/** …whose widths must correlate this well with Helvetica's widths of the same letters. */
const MIN_WIDTH_CORRELATION = 0.9;
/** An accented letter is its base letter's width within this share of it (the same advance in text faces). */
const ACCENT_WIDTH_TOLERANCE = 0.02;
/** A font that holds only the space glyph: its width (thousandths of an em) lies in a space's range. */
const SPACE_WIDTHS = [150, 400];
/** A range of the W array is read this far at most (a hostile file could span every glyph id). */
const MAX_WIDTH_RANGE = 65_536;

/**
 * The PDF with a ToUnicode map added to each CID TrueType font that has none and whose glyph ids
 * read in the standard order (see above); undefined when no font is such a font or the file can't
 * be rewritten (encrypted, damaged).
 */
export async function withGlyphOrderUnicode(input: Uint8Array): Promise<Uint8Array | undefined> {
  await loadPdfLib();
  const { PDFDocument, ParseSpeeds } = await import('pdf-lib');
  try {
    const doc = await PDFDocument.load(input, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    if (doc.isEncrypted) return undefined;
    let mapped = 0;
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      const font = asDict(doc.context, object);
      if (!font) continue;
      const map = glyphOrderMap(doc.context, font);
      if (!map) continue;
      font.set(pdfName('ToUnicode'), doc.context.register(doc.context.stream(toUnicodeCMap(map))));
      mapped++;
    }
    return mapped ? await doc.save({ useObjectStreams: false, updateFieldAppearances: false }) : undefined;
  } catch {
    return undefined;
  }
}

function asDict(context: PDFContext, object: PDFObject | undefined): PDFDict | undefined {
  const value = object && context.lookup(object);
  return value instanceof pdfLib().PDFDict ? value : undefined;
}

function nameOf(dict: PDFDict, key: string): string | undefined {
  const value = dict.lookup(pdfName(key));
  return value instanceof pdfLib().PDFName ? value.asString() : undefined;
}

/** Glyph id → text for a Type0 font that qualifies (Identity CID TrueType, embedded, no ToUnicode), else undefined. */
function glyphOrderMap(context: PDFContext, font: PDFDict): Map<number, string> | undefined {
  if (nameOf(font, 'Subtype') !== '/Type0' || font.lookup(pdfName('ToUnicode'))) return undefined;
  const encoding = nameOf(font, 'Encoding');
  if (encoding !== '/Identity-H' && encoding !== '/Identity-V') return undefined;
  const descendants = font.lookup(pdfName('DescendantFonts'));
  const cidFont = descendants instanceof pdfLib().PDFArray ? asDict(context, descendants.get(0)) : undefined;
  if (!cidFont || nameOf(cidFont, 'Subtype') !== '/CIDFontType2') return undefined;
  if (cidFont.lookup(pdfName('CIDToGIDMap')) && nameOf(cidFont, 'CIDToGIDMap') !== '/Identity') return undefined;
  const descriptor = asDict(context, cidFont.get(pdfName('FontDescriptor')));
  if (!descriptor?.lookup(pdfName('FontFile2'))) return undefined;
  return standardOrderMap(widthsOf(context, cidFont));
}

/** The CID font's W array as glyph id → width (thousandths of an em). */
function widthsOf(context: PDFContext, cidFont: PDFDict): Map<number, number> {
  const { PDFArray, PDFNumber } = pdfLib();
  const widths = new Map<number, number>();
  const w = cidFont.lookup(pdfName('W'));
  if (!(w instanceof PDFArray)) return widths;
  const items = w.asArray().map((item) => context.lookup(item));
  const num = (item: PDFObject | undefined): number => (item instanceof PDFNumber ? item.asNumber() : NaN);
  for (let i = 0; i < items.length;) {
    const first = num(items[i]);
    const next = items[i + 1];
    if (next instanceof PDFArray) {
      next.asArray().forEach((item, k) => widths.set(first + k, num(context.lookup(item))));
      i += 2;
    } else {
      const last = num(next);
      const width = num(items[i + 2]);
      for (let gid = first; gid <= last && gid - first < MAX_WIDTH_RANGE; gid++) widths.set(gid, width);
      i += 3;
    }
  }
  return widths;
}

/**
 * Glyph id → text by the standard order, when the font's widths bear it out: its letters' widths
 * follow Helvetica's (or the font holds only a space); glyphs past ASCII when every accented letter
 * the font holds beside its base letter is that letter's width.
 */
export function standardOrderMap(widths: Map<number, number>): Map<number, string> | undefined {
  const inOrder = [...widths].filter(
    ([gid, width]) => gid >= FIRST_GLYPH && gid < FIRST_GLYPH + STANDARD_ORDER.length && width >= 0,
  );
  if (!inOrder.length) return undefined;
  const textOf = (gid: number) => STANDARD_ORDER[gid - FIRST_GLYPH]!;
  const ours: number[] = [];
  const helvetica: number[] = [];
  for (const [gid, width] of inOrder) {
    const reference = letterWidth(textOf(gid));
    if (reference === undefined) continue;
    ours.push(width);
    helvetica.push(reference);
  }
  const onlySpace = inOrder.length === 1 && inOrder[0]![0] === FIRST_GLYPH;
  if (onlySpace) {
    const width = inOrder[0]![1];
    if (width < SPACE_WIDTHS[0]! || width > SPACE_WIDTHS[1]!) return undefined;
  } else if (ours.length < MIN_JUDGED_LETTERS || correlation(ours, helvetica) < MIN_WIDTH_CORRELATION) return undefined;
  const beyondAscii = accentsAsWideAsTheirLetters(widths);
  const map = new Map<number, string>();
  for (const [gid] of inOrder)
    if (gid <= LAST_ASCII_GLYPH || (beyondAscii && gid <= LAST_SHARED_GLYPH)) map.set(gid, textOf(gid));
  return map;
}

/** Helvetica's width of a letter or digit, accents set aside; undefined for anything else. */
function letterWidth(text: string): number | undefined {
  const base = text.normalize('NFD')[0]!;
  return /[A-Za-z0-9]/.test(base) ? asciiWidth(base.charCodeAt(0)) : undefined;
}

/** Whether the font holds accented letters beside their base letters, each as wide as its base letter. */
function accentsAsWideAsTheirLetters(widths: Map<number, number>): boolean {
  const gidOf = new Map<string, number>();
  for (let i = 0; i <= LAST_ASCII_GLYPH - FIRST_GLYPH; i++) gidOf.set(STANDARD_ORDER[i]!, i + FIRST_GLYPH);
  let pairs = 0;
  for (const [gid, width] of widths) {
    if (gid <= LAST_ASCII_GLYPH || gid >= FIRST_GLYPH + STANDARD_ORDER.length) continue;
    const text = STANDARD_ORDER[gid - FIRST_GLYPH]!;
    const decomposed = text.normalize('NFD');
    if (decomposed.length < 2 || !/[A-Za-z]/.test(decomposed[0]!)) continue;
    const base = widths.get(gidOf.get(decomposed[0]!)!);
    if (base === undefined) continue;
    if (Math.abs(width - base) > base * ACCENT_WIDTH_TOLERANCE) return false;
    pairs++;
  }
  return pairs > 0;
}

function correlation(a: number[], b: number[]): number {
  const n = a.length;
  const meanA = a.reduce((s, x) => s + x, 0) / n;
  const meanB = b.reduce((s, x) => s + x, 0) / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - meanA) * (b[i]! - meanB);
    aa += (a[i]! - meanA) ** 2;
    bb += (b[i]! - meanB) ** 2;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** A ToUnicode CMap (PDF 9.10.3) of two-byte codes to UTF-16 text, in blocks of at most 100 entries. */
function toUnicodeCMap(map: Map<number, string>): string {
  const hex = (n: number) => n.toString(16).padStart(4, '0').toUpperCase();
  const utf16 = (text: string) =>
    [...text]
      .map((c) => {
        const code = c.codePointAt(0)!;
        if (code < 0x10000) return hex(code);
        const v = code - 0x10000;
        return hex(0xd800 + (v >> 10)) + hex(0xdc00 + (v & 0x3ff));
      })
      .join('');
  const entries = [...map].sort((a, b) => a[0] - b[0]).map(([gid, text]) => `<${hex(gid)}> <${utf16(text)}>`);
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CIDInit /ProcSet findresource pop',
    'end',
    'end',
  ].join('\n');
}
