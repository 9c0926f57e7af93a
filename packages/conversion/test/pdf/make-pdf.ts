import PDFDocument from 'pdfkit';

/** Builds an A4 PDF with pdfkit; `draw` writes the pages. */
export function makePdf(
  draw: (doc: PDFKit.PDFDocument) => void,
  info: { Title?: string; Author?: string } = {},
  options: Pick<PDFKit.PDFDocumentOptions, 'userPassword' | 'ownerPassword' | 'permissions'> = {},
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
  return handWrittenPdf(objects);
}

/** Objects 1..n written by hand with a classic xref table (offsets computed); object 1 is the catalog. */
export function handWrittenPdf(objects: string[]): Buffer {
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

/** One page showing one line of Helvetica, written by hand and uncompressed (its body reads as text). */
export function oneLinePdf(line: string): Buffer {
  const content = `BT /F1 18 Tf 72 700 Td (${line}) Tj ET`;
  return handWrittenPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** Draws a ruled grid: `rows` of cell texts over column edges `xs` and row edges `ys`; `open` lists rules left out. */
export function ruledGrid(
  doc: PDFKit.PDFDocument,
  xs: number[],
  ys: number[],
  rows: string[][],
  open: { vertical?: Array<[number, number]>; horizontal?: Array<[number, number]> } = {},
): void {
  doc.lineWidth(0.8);
  ys.forEach((y, r) =>
    xs.slice(0, -1).forEach((x, c) => {
      if (!open.horizontal?.some(([rr, cc]) => rr === r && cc === c))
        doc
          .moveTo(x, y)
          .lineTo(xs[c + 1]!, y)
          .stroke();
    }),
  );
  xs.forEach((x, c) =>
    ys.slice(0, -1).forEach((y, r) => {
      if (!open.vertical?.some(([rr, cc]) => rr === r && cc === c))
        doc
          .moveTo(x, y)
          .lineTo(x, ys[r + 1]!)
          .stroke();
    }),
  );
  rows.forEach((row, r) =>
    row.forEach((text, c) => text && doc.text(text, xs[c]! + 4, ys[r]! + 7, { lineBreak: false })),
  );
}

/**
 * Words drawn as a right-to-left line is printed: each word placed leftwards from `right`, a space's width
 * between them, at `y`. Returns where the line's left end is.
 */
export function drawRightToLeft(doc: PDFKit.PDFDocument, words: string[], right: number, y: number): number {
  let x = right;
  for (const word of words) {
    x -= doc.widthOfString(word);
    doc.text(word, x, y, { lineBreak: false });
    x -= doc.widthOfString(' ');
  }
  return x;
}

/** pdftohtml's XML of one page holding these text elements (top, left, width, text) in one font family, written by hand. */
export function handWrittenPageXml(texts: Array<[number, number, number, string]>, family: string): string {
  const elements = texts.map(
    ([top, left, width, text]) =>
      `<text top="${top}" left="${left}" width="${width}" height="14" font="0">${text}</text>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<pdf2xml producer="poppler" version="22.12.0">
<page number="1" position="absolute" top="0" left="0" height="842" width="595">
	<fontspec id="0" size="12" family="${family}" color="#000000"/>
${elements.join('\n')}
</page>
</pdf2xml>`;
}
