import fs from 'node:fs';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { standardOrderMap } from '../../src/readers/pdf/glyph-order';
import { handWrittenPdf } from './make-pdf';

afterAll(() => closeConversionWorkers());
// Generous: before the glyph order was read, such a page went to OCR.
jest.setTimeout(120_000);
const limits = { timeoutMs: 120_000, maxMemoryMb: 1024 };
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** The font's tables by tag: [offset, length]. */
function tables(font: Buffer): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (let i = 0; i < font.readUInt16BE(4); i++) {
    const at = 12 + 16 * i;
    out.set(font.toString('latin1', at, at + 4), [font.readUInt32BE(at + 8), font.readUInt32BE(at + 12)]);
  }
  return out;
}

/** Glyph `gid`'s advance width in thousandths of an em, from the font's hhea and hmtx. */
function advance(font: Buffer, gid: number): number {
  const t = tables(font);
  const unitsPerEm = font.readUInt16BE(t.get('head')![0] + 18);
  const metrics = font.readUInt16BE(t.get('hhea')![0] + 34);
  const at = t.get('hmtx')![0] + 4 * Math.min(gid, metrics - 1);
  return Math.round((font.readUInt16BE(at) * 1000) / unitsPerEm);
}

/**
 * A page set in DejaVu Sans embedded whole as a CID TrueType font (Identity-H, CIDToGIDMap Identity)
 * without a ToUnicode map, as Acrobat Distiller writes Windows fonts: each character is shown by its
 * glyph id, which for ASCII in DejaVu (as in Arial) is the standard order's (space 3, "A" 36, "a" 68).
 * `gidOf` picks the glyph ids; `widthOf` the W array's widths.
 */
function noUnicodeMapPdf(lines: string[], gidOf: (char: string) => number, widthOf: (gid: number) => number): Buffer {
  const font = fs.readFileSync(DEJAVU);
  const gids = [...new Set(lines.join('').split('').map(gidOf))].sort((a, b) => a - b);
  const w = gids.map((gid) => `${gid} [${widthOf(gid)}]`).join(' ');
  const hex = (text: string) =>
    text
      .split('')
      .map((c) => gidOf(c).toString(16).padStart(4, '0'))
      .join('');
  // White text: the text layer has it, OCR sees nothing (so a page sent to OCR shows).
  const content = lines.map((text, i) => `BT 1 g /F1 12 Tf 72 ${720 - 18 * i} Td <${hex(text)}> Tj ET`).join('\n');
  const fontHex = font.toString('hex');
  return handWrittenPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+DejaVuSans /Encoding /Identity-H /DescendantFonts [6 0 R] >>',
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+DejaVuSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /DW 1000 /W [${w}] /CIDToGIDMap /Identity >>`,
    '<< /Type /FontDescriptor /FontName /ABCDEF+DejaVuSans /Flags 32 /FontBBox [-1021 -463 1793 1232] /ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 8 0 R >>',
    `<< /Length ${fontHex.length + 1} /Filter /ASCIIHexDecode >>\nstream\n${fontHex}>\nendstream`,
  ]);
}

const LINES = [
  'Spatenstich for the new heating plant in the village centre.',
  'The council starts a project to extend the district heating network',
  'and to install a wood chip boiler beside the school hall this spring.',
];
/** ASCII in the standard order: the character's code less 29 (space 32 is glyph 3). */
const standardGid = (c: string) => c.charCodeAt(0) - 29;

describe('PDF fonts without a Unicode map, read by their glyph order', () => {
  it('When a CID TrueType font has no ToUnicode map and its glyph ids are in the standard order, then the page reads as its text, spaces included, without OCR', async () => {
    const font = fs.readFileSync(DEJAVU);
    const pdf = noUnicodeMapPdf(LINES, standardGid, (gid) => advance(font, gid));
    const { markdown } = await convertIsolated(pdf, 'pdf', { enhanced: false }, limits);
    expect(markdown.trim()).toBe(LINES.join(' '));
  });

  it('When the widths a font gives its letters follow Helvetica letter widths, then ASCII glyphs and accented letters as wide as theirs get the standard order’s text', () => {
    // Arial's widths (Helvetica's metrics): a, ä, b, e, é, i, l, m, n, o, ö, r, s, t, u, ü, w, space.
    const arial: Array<[number, number]> = [
      [68, 556],
      [108, 556],
      [69, 556],
      [72, 556],
      [112, 556],
      [76, 222],
      [79, 222],
      [80, 833],
      [81, 556],
      [82, 556],
      [124, 556],
      [85, 333],
      [86, 500],
      [87, 278],
      [88, 556],
      [129, 556],
      [90, 722],
      [3, 278],
      [179, 333],
    ];
    const map = standardOrderMap(new Map(arial));
    expect(
      [...map!]
        .sort((a, b) => a[0] - b[0])
        .map(([, text]) => text)
        .join(''),
    ).toBe(' abeilmnorstuwäéöü');
  });

  it('When a font’s widths do not follow letter widths in the standard order (another glyph order), then it is given no map', () => {
    // The same widths on glyph ids of another order: "a" is narrow, "i" and "l" wide.
    const shuffled: Array<[number, number]> = [
      [68, 222],
      [69, 833],
      [72, 222],
      [76, 556],
      [79, 556],
      [80, 278],
      [81, 333],
      [82, 722],
      [85, 556],
      [86, 556],
      [87, 556],
      [88, 500],
      [90, 556],
      [3, 278],
    ];
    expect(standardOrderMap(new Map(shuffled))).toBeUndefined();
  });
});
