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

/**
 * A PDF whose only content is an XFA form (as Adobe LiveCycle Designer saves one): a catalog whose
 * AcroForm has no fields but an XFA stream, and one empty placeholder page. Offsets are computed.
 */
export function xfaOnlyPdf(xdp: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [] /XFA 4 0 R >> /NeedsRendering true >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    `<< /Length ${Buffer.byteLength(xdp)} >>\nstream\n${xdp}\nendstream`,
  ];
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out);
}
