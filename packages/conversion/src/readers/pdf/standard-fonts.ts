import type { PDFContext, PDFDict, PDFObject } from 'pdf-lib';
import { drawsAnnotations, inherited } from './content-rules';
import { pdfLib, pdfName, type PdfObjects } from './objects';

/**
 * The 14 standard fonts (PDF 32000-1 §9.6.2.2), which a PDF may use without embedding them: every viewer
 * draws their text from the font's encoding, so what the text layer says is what the page shows.
 */
const STANDARD_FONTS = new Set([
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
  'Symbol',
  'ZapfDingbats',
]);
/** Form XObjects nested deeper than this are not looked into (the page is then not taken as drawn in standard fonts). */
const MAX_FORM_DEPTH = 12;
/** Nor are pages with more fonts and forms than this (a hostile file could name thousands). */
const MAX_RESOURCES = 500;
const FONT_FILES = ['FontFile', 'FontFile2', 'FontFile3'];

/**
 * Whether every font the page's text can be drawn in is one of the 14 standard fonts, not embedded (its fonts
 * and those of the form XObjects it draws), and the page has no picture. Such text cannot be a broken font
 * mapping (the garbage a text layer is OCR'd for): a character table or letters set at an angle read oddly, but
 * OCR reads them no better. False when the page has a picture (a scan under an OCR layer), annotations that
 * draw themselves (their fonts are not looked at), or anything is in doubt.
 */
export function drawnInStandardFonts(objects: PdfObjects, pageNumber: number): boolean {
  const page = objects.page(pageNumber);
  if (!page) return false;
  const { context } = objects;
  try {
    if (drawsAnnotations(context, page)) return false;
    const resources = context.lookup(inherited(context, page, 'Resources', true));
    const seen = new Set<PDFObject>();
    const fonts: PDFDict[] = [];
    if (!(resources instanceof pdfLib().PDFDict) || !collectFonts(context, resources, fonts, seen, 0)) return false;
    return fonts.length > 0 && fonts.every((font) => isUnembeddedStandardFont(context, font));
  } catch {
    return false;
  }
}

/** Gathers the fonts of a resource dictionary and of its form XObjects; false when it gives up (too deep, too many) or finds a picture. */
function collectFonts(context: PDFContext, resources: PDFDict, fonts: PDFDict[], seen: Set<PDFObject>, depth: number) {
  const { PDFDict, PDFRawStream } = pdfLib();
  if (depth > MAX_FORM_DEPTH) return false;
  const fontDict = context.lookup(resources.get(pdfName('Font')));
  if (fontDict instanceof PDFDict) {
    for (const [, ref] of fontDict.entries()) {
      const font = context.lookup(ref);
      if (!(font instanceof PDFDict)) return false;
      if (seen.has(font)) continue;
      seen.add(font);
      fonts.push(font);
    }
  }
  const xobjects = context.lookup(resources.get(pdfName('XObject')));
  if (xobjects instanceof PDFDict) {
    for (const [, ref] of xobjects.entries()) {
      const xobject = context.lookup(ref);
      if (!(xobject instanceof PDFRawStream) || seen.has(xobject)) continue;
      seen.add(xobject);
      if (seen.size > MAX_RESOURCES) return false;
      // A picture may be a scan under an OCR layer set in a standard font: that layer can be wrong, and OCR can mend it.
      if (xobject.dict.get(pdfName('Subtype')) === pdfName('Image')) return false;
      if (xobject.dict.get(pdfName('Subtype')) !== pdfName('Form')) continue;
      const own = context.lookup(xobject.dict.get(pdfName('Resources')));
      if (own instanceof PDFDict && !collectFonts(context, own, fonts, seen, depth + 1)) return false;
    }
  }
  return seen.size <= MAX_RESOURCES;
}

/** A simple font named as a standard one, without a font program of its own. */
function isUnembeddedStandardFont(context: PDFContext, font: PDFDict): boolean {
  const { PDFDict, PDFName } = pdfLib();
  const subtype = context.lookup(font.get(pdfName('Subtype')));
  if (subtype !== pdfName('Type1') && subtype !== pdfName('TrueType')) return false;
  const base = context.lookup(font.get(pdfName('BaseFont')));
  if (!(base instanceof PDFName) || !STANDARD_FONTS.has(base.decodeText())) return false;
  const descriptor = context.lookup(font.get(pdfName('FontDescriptor')));
  return !(descriptor instanceof PDFDict && FONT_FILES.some((key) => descriptor.has(pdfName(key))));
}
