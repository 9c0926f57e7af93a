import { convertDocument } from '../../src';
import { makePdf } from './make-pdf';

const std = { enhanced: false };

/** Draws `text` glyph by glyph, each glyph drawn again `offset` pt to its right (fake bold). */
function drawEachGlyphTwice(doc: PDFKit.PDFDocument, text: string, x: number, y: number, offset: number): void {
  for (const glyph of text) {
    doc.text(glyph, x, y, { lineBreak: false });
    doc.text(glyph, x + offset, y, { lineBreak: false });
    x += doc.widthOfString(glyph);
  }
}

describe('PDF text drawn twice over itself (fake bold)', () => {
  it('When each glyph of a line is drawn twice a fraction of a point apart, then the line reads once', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(12);
      drawEachGlyphTwice(doc, 'Overprinted words read once', 72, 100, 0.3);
      doc.text('A plain line after them: aa bb ll.', 72, 130, { lineBreak: false });
    });
    const { markdown } = await convertDocument(pdf, 'pdf', std);
    expect(markdown).toBe('Overprinted words read once\n\nA plain line after them: aa bb ll.\n');
  });

  it('When a whole line is drawn again a fraction of a point to the right, then it reads once', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(12);
      doc.text('Bold line drawn twice', 72, 100, { lineBreak: false });
      doc.text('Bold line drawn twice', 72.4, 100, { lineBreak: false });
      doc.text('Then a plain line.', 72, 130, { lineBreak: false });
    });
    const { markdown } = await convertDocument(pdf, 'pdf', std);
    expect(markdown).toBe('Bold line drawn twice\n\nThen a plain line.\n');
  });

  it('When a line is drawn whole over pieces of itself drawn before with letters missing, then it reads once, without the pieces', async () => {
    const line = 'Specifies that the row permission is disabled';
    const pdf = await makePdf((doc) => {
      doc.font('Courier').fontSize(10);
      const letter = doc.widthOfString('x');
      for (const [piece, at] of [
        ['S', 0],
        ['ifi', 4],
        ['th t th', 10],
      ] as const)
        doc.text(piece, 72 + at * letter, 100, { lineBreak: false });
      doc.text(line, 72, 100, { lineBreak: false });
    });
    const { markdown } = await convertDocument(pdf, 'pdf', std);
    expect(markdown).toBe(`${line}\n`);
  });

  it('When a run whose letters pair up (MM DD YYYY) has separators drawn inside its gaps, then its letters stay', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(8);
      doc.text('Date of birth', 72, 100, { lineBreak: false });
      doc.text('MM      DD      YYYY', 140, 100, { lineBreak: false });
      doc.text('/', 155, 100, { lineBreak: false });
      doc.text('/', 177, 100, { lineBreak: false });
    });
    const { markdown } = await convertDocument(pdf, 'pdf', std);
    expect(markdown).toBe('Date of birth MM DD YYYY//\n');
  });

  it('When glyphs with doubled letters stand close on a line, then the doubled letters stay', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(12);
      doc.text('Aachen, Mississippi, balloon: 1100 kk', 72, 100, { lineBreak: false, characterSpacing: -0.5 });
    });
    const { markdown } = await convertDocument(pdf, 'pdf', std);
    expect(markdown).toBe('Aachen, Mississippi, balloon: 1100 kk\n');
  });
});
