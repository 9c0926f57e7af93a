import { deflateSync } from 'node:zlib';
import { convertIsolated, countPages, type IsolationLimits } from '@markwright/conversion';

/**
 * A converter's first PDFs cost each worker thread far more than the next ones: the PDF reader,
 * pdf.js and pdf-lib load and compile on first use, and the reader's hot functions (line building,
 * the content scanner for drawn rules, the XML reading) run unoptimised until V8 has seen enough
 * pages (one 200-page range: 656 ms of CPU in a fresh thread, 405 ms the second time, 279 ms the
 * third). A converter that has just started therefore converts this PDF (WARM_UP_PAGES pages of a
 * heading, paragraphs set with kerned TJ arrays in compressed streams, and a ruled table, as most
 * producers write them) WARM_UP_PASSES times on each of its slots before it reports ready.
 * Measured (two 200-page ranges at once in fresh workers, CPU of both, load 10-20): after one
 * one-page warm-up 1,324-1,445 ms; after 60 pages twice 936-1,186 ms, for 1.1-1.5 s of warm-up
 * CPU (0.5 s before); warm, 510-660 ms. More pages or passes gained nothing more (docs/performance.md).
 */
export const WARM_UP_PAGES = 60;
export const WARM_UP_PASSES = 2;

/** The warm-up PDF, written here (nothing to ship or read from disk): `pages` pages, each its own compressed stream. */
export function warmUpPdf(pages = 1): Buffer {
  const streams = Array.from({ length: pages }, (_, p) => deflateSync(Buffer.from(warmUpPage(p), 'latin1')));
  // Objects: 1 catalog, 2 page tree, 3 and 4 the fonts, then each page and its content stream.
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${streams.map((_, p) => `${5 + 2 * p} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  ].map((body) => Buffer.from(body, 'latin1'));
  streams.forEach((stream, p) => {
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${6 + 2 * p} 0 R >>`,
        'latin1',
      ),
      Buffer.concat([
        Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
        stream,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
  });
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(object);
    length += object.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) tail += `${String(at).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(tail, 'latin1')]);
}

const WORDS = [
  'pears',
  'budget',
  'library',
  'harbour',
  'winter',
  'copper',
  'meadow',
  'signal',
  'lantern',
  'orchard',
  'ledger',
  'station',
  'quarterly',
  'review',
];

/**
 * One page's content as most producers write it: a bold heading, three paragraphs of lines set
 * with kerned TJ arrays, a caption and a ruled table of four columns; the words vary from page to
 * page, so no line reads as a running header or footer.
 */
function warmUpPage(p: number): string {
  let n = p * 7;
  const word = (): string => WORDS[n++ % WORDS.length]!;
  const hex = (s: string): string => `<${Buffer.from(s, 'latin1').toString('hex')}>`;
  const line = (x: number, y: number, font: string, size: number, s: string): string => {
    // Kerned as a typesetter sets it: the text in pieces with small adjustments between them.
    const pieces = s.match(/.{1,12}/g) ?? [];
    return `q 1 0 0 -1 0 792 cm BT 1 0 0 -1 ${x} ${792 - y} Tm /${font} ${size} Tf [${pieces.map((t, i) => `${hex(t)} ${(i % 3) * 10 - 10}`).join(' ')}] TJ ET Q\n`;
  };
  let y = 750;
  let content = line(56, y, 'F2', 18, p === 0 ? 'Warm-up' : `Section ${p + 1}: ${word()} and ${word()}`);
  y -= 28;
  for (let para = 0; para < 3; para++) {
    for (let l = 0; l < 4; l++) {
      const words = Array.from({ length: 13 }, word).join(' ');
      content += line(56, y, 'F1', 11, l === 3 ? `${words}.` : words);
      y -= 13;
    }
    y -= 8;
  }
  content += line(56, y, 'F2', 13, `Table ${p + 1}`);
  y -= 24;
  const widths = [110, 130, 100, 120];
  for (let r = 0; r < 5; r++) {
    let x = 56;
    for (let c = 0; c < widths.length; c++) {
      const cell =
        r === 0
          ? ['Item', 'Quantity', 'Price', 'Note'][c]!
          : c === 1 || c === 2
            ? `${(p + r) * (c + 1)}.${r}0`
            : word();
      content += `${x} ${y} ${widths[c]} 18 re S\n` + line(x + 4, y + 5, r === 0 ? 'F2' : 'F1', 10, cell);
      x += widths[c]!;
    }
    y -= 18;
  }
  return content;
}

/**
 * Converts the warm-up PDF WARM_UP_PASSES times on each of `slots` worker threads at once, and
 * counts its pages here, as a long PDF's split decision does in this thread (the first count
 * loads the object reader: 150 ms of CPU, then 1-10 ms). Returns on how many slots every pass
 * succeeded; a failure only means the first real jobs pay the load.
 */
export async function warmUpWorkers(slots: number, limits: IsolationLimits): Promise<number> {
  const pdf = warmUpPdf(WARM_UP_PAGES);
  await countPages(pdf, 'pdf').catch(() => undefined);
  const done = await Promise.all(
    Array.from({ length: slots }, async () => {
      for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
        const converted = await convertIsolated(pdf, 'pdf', { enhanced: false, filename: 'warm-up.pdf' }, limits).then(
          (r) => r.markdown.includes('| Item | Quantity | Price | Note |'),
          () => false,
        );
        if (!converted) return false;
      }
      return true;
    }),
  );
  return done.filter(Boolean).length;
}
