import { convertIsolated, type IsolationLimits } from '@markwright/conversion';

/**
 * A converter's first PDF costs each worker thread far more than the next ones: the PDF reader,
 * pdf.js and pdf-lib load and compile on first use (a 400-page file: 1.45 s of CPU cold, about
 * 0.75 s warm). A converter that has just started therefore converts this one-page PDF (a
 * heading, a paragraph and a ruled three-column table, so the table path loads too) on each of
 * its slots before it reports ready, and the ranges of the first long document do not pay the
 * loading: measured, two 200-page ranges in fresh workers 2.43-2.58 s of CPU, 1.57-1.64 s after
 * this warm-up (which costs 0.91-0.96 s); a 40-page warm-up saved no more, so what the first
 * large file still costs beyond a warm one (0.7-1.1 s) is not loading (the heap growing to its
 * size, likely; not measured).
 */
export function warmUpPdf(): Buffer {
  const rows = [
    ['Item', 'Quantity', 'Price'],
    ['Apples', '3', '1.20'],
    ['Pears', '5', '2.40'],
  ];
  const text = (x: number, y: number, size: number, s: string): string =>
    `BT /F1 ${size} Tf ${x} ${y} Td (${s}) Tj ET\n`;
  let content = text(72, 760, 18, 'Warm-up') + text(72, 730, 11, 'A short paragraph before a small table.');
  rows.forEach((row, r) => {
    const y = 690 - r * 20;
    row.forEach((cell, c) => {
      content += `${72 + c * 120} ${y - 6} 120 20 re S\n` + text(76 + c * 120, y, 10, cell);
    });
  });
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) pdf += `${String(at).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * Converts the warm-up PDF `slots` times at once (one per worker thread the slots will use).
 * Returns how many conversions succeeded; a failure only means the first real job pays the load.
 */
export async function warmUpWorkers(slots: number, limits: IsolationLimits): Promise<number> {
  const pdf = warmUpPdf();
  const done = await Promise.all(
    Array.from({ length: slots }, () =>
      convertIsolated(pdf, 'pdf', { enhanced: false, filename: 'warm-up.pdf' }, limits).then(
        (r) => r.markdown.includes('| Apples'),
        () => false,
      ),
    ),
  );
  return done.filter(Boolean).length;
}
