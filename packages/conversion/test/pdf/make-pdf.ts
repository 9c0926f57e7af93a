import PDFDocument from 'pdfkit';

/** Builds an A4 PDF with pdfkit; `draw` writes the pages. */
export function makePdf(
  draw: (doc: PDFKit.PDFDocument) => void,
  info: { Title?: string; Author?: string } = {},
  options: { userPassword?: string } = {},
): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ info, size: 'A4', margin: 72, ...options });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    draw(doc);
    doc.end();
  });
}
