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
 * What counts is that its pages look like real ones, numbers above all (see `geometry`): with
 * whole-number coordinates and repeated 13-word lines, the first 200-page range of a pdfkit
 * document took 870-976 ms of CPU in one thread after the warm-up, and two such ranges at once in
 * the pool 1,872-2,097 ms; with the pages below, 746-873 and 1,461-1,553 (load 10-16).
 */
export const WARM_UP_PAGES = 60;
export const WARM_UP_PASSES = 2;

/**
 * Then each slot reads a longer warm-up PDF as a split conversion's range is read (a page range,
 * its blocks written in the worker) LONG_WARM_UP_PASSES times: after the short passes alone, a
 * range's first reads still spent about as much CPU on V8's optimising compiler (its background
 * threads) as on the reading itself, the range path (the lazy object reader's page lookup, the
 * blocks written in the worker) and the reader's less frequent functions being compiled then.
 * Measured (docs/performance.md, helper splitcpu; two 200-page ranges of a pdfkit document at once
 * after a few hundred small conversions, median of the first three, load 5-9): the pool's CPU
 * 305-321 -> 268-291 ms, the converter's (pdftohtml included) 650-700 -> 590-630 ms. The
 * warm-up's CPU goes from 1.0-1.1 s to 2.3 s.
 */
export const LONG_WARM_UP_PAGES = 200;
export const LONG_WARM_UP_PASSES = 3;

/** A4 in points, as most producers write it. */
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;

/** The warm-up PDF, written here (nothing to ship or read from disk): `pages` pages, each its own compressed stream. */
export function warmUpPdf(pages = 1): Buffer {
  const streams = Array.from({ length: pages }, (_, p) => deflateSync(Buffer.from(warmUpPage(p), 'latin1')));
  // Objects: 1 catalog, 2 page tree, 3 and 4 the fonts, 5 the pages' resources, 6 the document
  // information, then each page and its content stream.
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${streams.map((_, p) => `${7 + 2 * p} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /ProcSet [/PDF /Text] /Font << /F1 3 0 R /F2 4 0 R >> /ColorSpace << >> >>',
    '<< /Producer (Markwright warm-up) /Title (Warm-up) /CreationDate (D:20260101000000Z) >>',
  ].map((body) => Buffer.from(body, 'latin1'));
  streams.forEach((stream, p) => {
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources 5 0 R /Contents ${8 + 2 * p} 0 R >>`,
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
  const id = `<${'5a'.repeat(16)}>`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R /ID [${id} ${id}] >>\nstartxref\n${length}\n%%EOF\n`;
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
 * The page's geometry, whole numbers on odd pages and fractions on even ones, as real documents
 * mix them: V8 compiles the reader for the numbers it has met (the fields of its lines, runs and
 * rules stored as small integers until a fraction arrives), and a warm-up of whole numbers only
 * was undone, function by function, by the first real document's fractions (31 deoptimisations
 * in the first 200-page range of a pdfkit document after it, 4 after this one).
 */
function geometry(p: number) {
  return p % 2
    ? {
        margin: 56,
        body: 11,
        pitch: 13,
        gap: 12,
        heading: 18,
        caption: 13,
        cell: 10,
        row: 18,
        widths: [110, 130, 100, 120],
      }
    : {
        margin: 56.69,
        body: 10.5,
        pitch: 12.716,
        gap: 11.44,
        heading: 17.5,
        caption: 12.5,
        cell: 9.5,
        row: 17.64,
        widths: [110.5, 129.75, 100.25, 120.5],
      };
}

/** Characters of body text a line holds between the margins, about. */
const LINE_CHARS = 88;

/**
 * One page's content as most producers write it (y down from the top, as pdfkit, cairo and Skia
 * set the page, every line in its own text object): a bold heading, three paragraphs of sentences
 * wrapped into ragged lines set with kerned TJ arrays, a caption and a ruled table of four
 * columns stroked cell by cell; the words vary from page to page, so no line reads as a running
 * header or footer.
 */
function warmUpPage(p: number): string {
  // Drawn per page (xorshift seeded by the page number): were they to cycle with the page, as they
  // did, every other page would repeat and the headings read as a running header from ten pages on.
  let state = (Math.imul(p + 1, 0x9e3779b1) >>> 0) | 1;
  const word = (): string => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return WORDS[(state >>> 0) % WORDS.length]!;
  };
  const hex = (s: string): string => `<${Buffer.from(s, 'latin1').toString('hex')}>`;
  const g = geometry(p);
  const kerns = p % 2 ? [-15, 20, 10] : [-12.5, 20, 7.5];
  // `y` is the baseline's distance from the top of the page.
  const line = (x: number, y: number, font: string, size: number, s: string): string => {
    // Kerned as a typesetter sets it: the text in pieces with small adjustments between them.
    const pieces = (s.match(/.{1,12}/g) ?? []).map((t, i) => `${hex(t)} ${kerns[i % 3]}`);
    return `q 1 0 0 -1 0 ${PAGE_HEIGHT} cm BT 1 0 0 1 ${x} ${round(PAGE_HEIGHT - y)} Tm /${font} ${size} Tf [${pieces.join(' ')}] TJ ET Q\n`;
  };
  let y = g.margin + g.heading;
  let content = `1 0 0 -1 0 ${PAGE_HEIGHT} cm\n`;
  content += line(g.margin, y, 'F2', g.heading, p === 0 ? 'Warm-up' : `Section ${p + 1}: ${word()} and ${word()}`);
  y += 1.5 * g.heading;
  for (let para = 0; para < 3; para++) {
    const sentences = Array.from({ length: 4 }, (_, s) => {
      const words = Array.from({ length: 8 + ((p + para + s) % 5) }, word);
      words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
      return `${words.join(' ')}.`;
    });
    for (const text of wrap(sentences.join(' '), LINE_CHARS)) {
      content += line(g.margin, y, 'F1', g.body, text);
      y += g.pitch;
    }
    y += g.gap;
  }
  content += line(g.margin, y, 'F2', g.caption, `Table ${p + 1}`);
  y += 1.5 * g.caption;
  for (let r = 0; r < 5; r++) {
    let x = g.margin;
    for (let c = 0; c < g.widths.length; c++) {
      const text =
        r === 0
          ? ['Item', 'Quantity', 'Price', 'Note'][c]!
          : c === 1 || c === 2
            ? `${(p + r) * (c + 1)}.${r}0`
            : word();
      content += `${x} ${round(y)} ${g.widths[c]} ${g.row} re S\n`;
      content += line(round(x + 4), y + 0.7 * g.row, r === 0 ? 'F2' : 'F1', g.cell, text);
      x = round(x + g.widths[c]!);
    }
    y += g.row;
  }
  return content;
}

/** Three decimals, as producers print coordinates. */
function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Words of `text` in lines of at most `width` characters: ragged, the last one short. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const w of text.split(' ')) {
    if (current && current.length + 1 + w.length > width) {
      lines.push(current);
      current = w;
    } else current = current ? `${current} ${w}` : w;
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * Converts the warm-up PDF WARM_UP_PASSES times on each of `slots` worker threads at once, then
 * reads the long one's pages as a range LONG_WARM_UP_PASSES times on each, and counts its pages
 * here, as a long PDF's split decision does in this thread (the first count loads the object
 * reader: 150 ms of CPU, then 1-10 ms). Returns on how many slots every pass succeeded; a failure
 * only means the first real jobs pay the load.
 */
export async function warmUpWorkers(slots: number, limits: IsolationLimits): Promise<number> {
  const pdf = warmUpPdf(WARM_UP_PAGES);
  const long = warmUpPdf(LONG_WARM_UP_PAGES);
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
      for (let pass = 0; pass < LONG_WARM_UP_PASSES; pass++) if (!(await readAsRange(long, limits))) return false;
      return true;
    }),
  );
  return done.filter(Boolean).length;
}

/** The long warm-up PDF's pages but its first and last, read as a split range reads them; true when its tables came out. */
function readAsRange(pdf: Buffer, limits: IsolationLimits): Promise<boolean> {
  return convertIsolated(
    pdf,
    'pdf',
    {
      enhanced: false,
      filename: 'warm-up.pdf',
      writeBlocksOnly: true,
      pageRange: [[2, LONG_WARM_UP_PAGES - 1]],
    },
    limits,
  ).then(
    (r) => r.written?.texts.some((text) => text.startsWith('| Item | Quantity | Price | Note |')) === true,
    () => false,
  );
}
