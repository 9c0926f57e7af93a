import PDFDocument from 'pdfkit';

/**
 * A PDF shaped like ../shared/perf's benchmark documents: per page a bold heading, three
 * paragraphs, a 4×6 table whose cells are stroked rectangles, three more paragraphs. Deterministic.
 */
export function ruledTablePdf(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `Ruled tables ${pages} pages` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const words =
    'the quarterly revenue report shows the customer ledger and the shipment schedule for each region'.split(' ');
  const sentence = (seed: number): string => {
    const w = Array.from({ length: 12 }, (_, i) => words[(seed * 7 + i * 3) % words.length]!);
    return `${w[0]![0]!.toUpperCase()}${w.join(' ').slice(1)}.`;
  };
  const paragraph = (seed: number): string => [0, 1, 2, 3].map((i) => sentence(seed + i)).join(' ');
  const widths = [110, 130, 100, 120];
  for (let p = 1; p <= pages; p++) {
    if (p > 1) doc.addPage();
    doc.font('Helvetica-Bold').fontSize(18).text(`Section ${p}: the quarterly report`);
    doc.moveDown(0.5).font('Helvetica').fontSize(11);
    for (let i = 0; i < 3; i++) doc.text(paragraph(p * 10 + i)).moveDown(0.5);
    doc.font('Helvetica-Bold').fontSize(13).text(`Table ${p}`).moveDown(0.3);
    let y = doc.y;
    for (let r = 0; r < 6; r++) {
      const row =
        r === 0
          ? ['Item', 'Region', 'Quantity', 'Amount']
          : [
              `P${p}-R${r}`,
              words[(p + r) % words.length]!,
              String((p * 37 + r * 11) % 1000),
              ((p * 131 + r * 17) % 10000).toFixed(2),
            ];
      let x = 56;
      doc.font(r === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
      row.forEach((cell, c) => {
        doc.rect(x, y, widths[c]!, 18).stroke();
        doc.text(cell, x + 4, y + 5, { width: widths[c]! - 8, lineBreak: false });
        x += widths[c]!;
      });
      y += 18;
    }
    doc.x = 56;
    doc.y = y + 12;
    doc.font('Helvetica').fontSize(11);
    for (let i = 0; i < 3; i++) doc.text(paragraph(p * 10 + 5 + i)).moveDown(0.5);
  }
  doc.end();
  return done;
}
