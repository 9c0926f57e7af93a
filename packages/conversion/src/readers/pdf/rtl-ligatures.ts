import type { TextItem } from './layout';
import { loadPdfJs, type PdfJsDocument } from './pdfjs';
import { RTL_LETTER, visualToLogical } from './poppler';

interface Glyph {
  unicode?: string;
  isSpace?: boolean;
}

const LETTER_OR_MARK = /^[\p{L}\p{M}]+$/u;
const WORD = /[\p{L}\p{M}]+/gu;

/**
 * Right-to-left words whose ligature glyphs (Arabic lam-alef) poppler spells backwards, and their right spelling.
 * Fonts map such a glyph to its letters in reading order while the line around it is drawn right to left, so
 * reversing the line (poppler's visual order) turns "لا" into "ال": only the glyphs tell a ligature from two
 * letters, and pdf.js's operator list has them.
 */
export async function ligatureSpellings(doc: PdfJsDocument, pageNumber: number): Promise<Map<string, string>> {
  const { OPS } = await loadPdfJs();
  const page = await doc.getPage(pageNumber);
  const list = await page.getOperatorList();
  page.cleanup();
  const spellings = new Map<string, string>();
  let word: string[] = [];
  const endWord = (): void => {
    // A glyph of several letters in a right-to-left script is a ligature written in reading order.
    const ligature = (g: string): boolean => [...g].length > 1 && RTL_LETTER.test(g);
    if (word.some(ligature)) {
      const drawn = visualToLogical(word.join(''));
      const read = visualToLogical(word.map((g) => (ligature(g) ? [...g].reverse().join('') : g)).join(''));
      if (drawn !== read) spellings.set(drawn, read);
    }
    word = [];
  };
  for (let i = 0; i < list.fnArray.length; i++) {
    if (list.fnArray[i] !== OPS.showText && list.fnArray[i] !== OPS.showSpacedText) continue;
    const glyphs = (list.argsArray[i] as unknown[])[0];
    if (!Array.isArray(glyphs)) continue;
    for (const glyph of glyphs as Array<Glyph | number>) {
      // Numbers are kerning adjustments inside a word.
      if (typeof glyph === 'number') continue;
      const text = (glyph.unicode ?? '').normalize('NFKC');
      if (glyph.isSpace || !LETTER_OR_MARK.test(text)) endWord();
      else word.push(text);
    }
    endWord();
  }
  return spellings;
}

/** The page's right-to-left items with the words `ligatureSpellings` found spelled right. */
export function withLigaturesInOrder(items: TextItem[], spellings: Map<string, string>): TextItem[] {
  if (!spellings.size) return items;
  return items.map((item) =>
    item.rtl ? { ...item, text: item.text.replace(WORD, (w) => spellings.get(w) ?? w) } : item,
  );
}
