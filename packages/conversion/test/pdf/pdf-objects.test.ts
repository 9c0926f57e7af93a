import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { contentRules } from '../../src/readers/pdf/content-rules';
import { openEagerObjects, openLazyObjects, pdfName } from '../../src/readers/pdf/objects';
import { handWrittenPdf, makePdf as pdf, ruledGrid } from './make-pdf';

afterAll(() => closeConversionWorkers());

/** A pdfkit file (classic xref table) with a ruled table and a line of text on each page. */
function tablePages(pages: number, info: { Title?: string; Author?: string } = {}): Promise<Buffer> {
  return pdf((doc) => {
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      doc.font('Helvetica').fontSize(11).text(`Page ${p} text.`, 72, 72);
      ruledGrid(
        doc,
        [72, 200, 330],
        [100, 124, 148],
        [
          ['Item', 'Price'],
          [`P${p}`, String(p)],
        ],
      );
    }
  }, info);
}

/** Appends an incremental update: a new info dictionary, its xref section and a trailer pointing back. */
function withNewTitle(input: Buffer, title: string): Buffer {
  const text = input.toString('latin1');
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(text)![1]!;
  const size = Number(/\/Size (\d+)/.exec(trailer)![1]);
  const root = /\/Root (\d+ \d+ R)/.exec(trailer)![1];
  let out = text;
  const at = Buffer.byteLength(out, 'latin1');
  out += `${size} 0 obj\n<< /Title (${title}) /Author (Second author) >>\nendobj\n`;
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n${size} 1\n${String(at).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${size + 1} /Root ${root} /Info ${size} 0 R /Prev ${prev} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A file whose only cross-reference section is an xref stream with a PNG Up predictor (as Acrobat and
 * many libraries write them), with its catalog and info in an object stream.
 */
function xrefStreamPdf(): Buffer {
  const inStream = ['<< /Type /Catalog /Pages 3 0 R >>', '<< /Title (Streamed) /Author (Predictor) >>'];
  const header = inStream.map((_, i) => `${i + 1} ${inStream.slice(0, i).join(' ').length + (i ? 1 : 0)}`).join(' ');
  const objStm = `${header} ${inStream.join(' ')}`;
  const first = header.length + 1;
  const objects: Array<{ number: number; body: Buffer }> = [
    { number: 3, body: Buffer.from('<< /Type /Pages /Kids [4 0 R] /Count 1 >>') },
    { number: 4, body: Buffer.from('<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>') },
    {
      number: 5,
      body: Buffer.concat([
        Buffer.from(`<< /Type /ObjStm /N 2 /First ${first} /Length ${objStm.length} >>\nstream\n`),
        Buffer.from(objStm),
        Buffer.from('\nendstream'),
      ]),
    },
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.5\n')];
  let length = chunks[0]!.length;
  const rows: number[][] = [[0, 0, 0xff]];
  const objectStreamIndex = new Map([
    [1, 0],
    [2, 1],
  ]);
  const offsets = new Map<number, number>();
  for (const o of objects) {
    offsets.set(o.number, length);
    const bytes = Buffer.concat([Buffer.from(`${o.number} 0 obj\n`), o.body, Buffer.from('\nendobj\n')]);
    chunks.push(bytes);
    length += bytes.length;
  }
  const xrefAt = length;
  for (let n = 1; n <= 6; n++) {
    if (objectStreamIndex.has(n)) rows.push([2, 5, objectStreamIndex.get(n)!]);
    else if (n === 6) rows.push([1, xrefAt, 0]);
    else rows.push([1, offsets.get(n)!, 0]);
  }
  // W [1 2 1], each row PNG-filtered with "Up" (2) against the row above.
  const raw = rows.map((r) => [r[0]!, (r[1]! >> 8) & 0xff, r[1]! & 0xff, r[2]!]);
  const filtered: number[] = [];
  raw.forEach((row, i) => {
    filtered.push(2);
    row.forEach((b, c) => filtered.push((b - (i ? raw[i - 1]![c]! : 0)) & 0xff));
  });
  const data = deflateSync(Buffer.from(filtered));
  chunks.push(
    Buffer.from(
      `6 0 obj\n<< /Type /XRef /Size 7 /W [1 2 1] /Root 1 0 R /Info 2 0 R /Filter /FlateDecode ` +
        `/DecodeParms << /Predictor 12 /Columns 4 >> /Length ${data.length} >>\nstream\n`,
    ),
    data,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`),
  );
  return Buffer.concat(chunks);
}

describe('PDF objects read through the cross-reference table', () => {
  it('When the page tree is nested, then pages are found in its order whether asked in order, backwards or again', async () => {
    // Root: [Pages(p1, p2), p3, Pages(Pages(p4), p5)]; each page's width is its number.
    const page = (n: number, parent: number): string =>
      `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 ${n} 10] >>`;
    const input = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 6 0 R 7 0 R] /Count 5 >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 >>',
      page(1, 3),
      page(2, 3),
      page(3, 2),
      '<< /Type /Pages /Parent 2 0 R /Kids [8 0 R 10 0 R] /Count 2 >>',
      '<< /Type /Pages /Parent 7 0 R /Kids [9 0 R] /Count 1 >>',
      page(4, 8),
      page(5, 7),
    ]);
    const width = (objects: { page(n: number): { lookup(key: unknown): unknown } | undefined }, n: number) => {
      const box = objects.page(n)!.lookup(pdfName('MediaBox')) as { asArray(): Array<{ asNumber(): number }> };
      return box.asArray()[2]!.asNumber();
    };
    const lazy = (await openLazyObjects(input))!;
    expect(lazy.pageCount).toBe(5);
    expect([1, 2, 3, 4, 5].map((n) => width(lazy, n))).toEqual([1, 2, 3, 4, 5]);
    const backwards = (await openLazyObjects(input))!;
    expect([5, 4, 3, 2, 1, 3].map((n) => width(backwards, n))).toEqual([5, 4, 3, 2, 1, 3]);
    expect(lazy.page(6)).toBeUndefined();
  });

  it('When a pdfkit file is opened, then title, author and page count are read and each page has the rules of a full parse', async () => {
    const input = await tablePages(3, { Title: '  Quarterly report ', Author: 'Ada' });
    const lazy = await openLazyObjects(input);
    expect(lazy).toMatchObject({ title: 'Quarterly report', author: 'Ada', pageCount: 3, acroForm: false });
    const eager = contentRules((await openEagerObjects(input))!);
    const scanned = contentRules(lazy!);
    for (let p = 1; p <= 3; p++) {
      expect(scanned.pageRules(p)!.length).toBeGreaterThan(0);
      expect(scanned.pageRules(p)).toEqual(eager.pageRules(p));
    }
  });

  it("When a 100-page file is opened and 2 of its pages read, then only the page tree, the last page and those pages' objects are parsed", async () => {
    const input = await tablePages(100);
    const some = (await openLazyObjects(input))!;
    const opened = some.parsedObjects();
    contentRules(some).pageRules(1);
    contentRules(some).pageRules(2);
    const all = (await openLazyObjects(input))!;
    for (let p = 1; p <= 100; p++) contentRules(all).pageRules(p);
    // Opening reads the catalog, the page tree, the info dictionary and the last page (to check the count).
    expect(opened).toBeLessThan(8);
    // Each page is a page object, its content stream and its resources: a few objects per page read.
    expect(some.parsedObjects() - opened).toBeLessThan(12);
    expect(all.parsedObjects()).toBeGreaterThan(200);
  });

  it('When a file was updated incrementally, then the newest info dictionary is read', async () => {
    const input = withNewTitle(await tablePages(1, { Title: 'First title', Author: 'First author' }), 'Second title');
    expect(await openLazyObjects(input)).toMatchObject({
      title: 'Second title',
      author: 'Second author',
      pageCount: 1,
    });
  });

  it('When the cross-reference table is a predicted xref stream and the catalog sits in an object stream, then they are read', async () => {
    expect(await openLazyObjects(xrefStreamPdf())).toMatchObject({
      title: 'Streamed',
      author: 'Predictor',
      pageCount: 1,
    });
  });

  it('When pdf-lib writes object streams and a UTF-16 title, then both are read', async () => {
    const doc = await PDFDocument.create();
    doc.setTitle('Überblick – 2024', { showInWindowTitleBar: false });
    doc.setAuthor('Zoë');
    doc.addPage();
    doc.addPage();
    const input = await doc.save({ useObjectStreams: true });
    expect(await openLazyObjects(input)).toMatchObject({ title: 'Überblick – 2024', author: 'Zoë', pageCount: 2 });
  });

  it('When a file is encrypted, damaged, or has a title in PDFDocEncoding, then the lazy reader declines and the PDF still converts', async () => {
    const encrypted = await tablePages(1, { Title: 'Locked' });
    const locked = await pdf(
      (doc) => doc.font('Helvetica').text('Locked text.', 72, 72),
      {},
      { ownerPassword: 'owner', permissions: { copying: true } },
    );
    const text = encrypted.toString('latin1');
    const xref = Number(/startxref\s+(\d+)/.exec(text)![1]);
    // The last xref offset points 7 bytes too far (into nothing).
    const damaged = Buffer.from(text.replace(/startxref\s+\d+/, `startxref\n${xref + 7}`), 'latin1');
    const latin = Buffer.from(text.replace('(Locked)', '(Caf\\351)'), 'latin1');
    for (const input of [locked, damaged, latin]) expect(await openLazyObjects(input)).toBeUndefined();

    const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
    expect((await convertIsolated(locked, 'pdf', { enhanced: false }, limits)).markdown).toBe('Locked text.\n');
    const converted = await convertIsolated(latin, 'pdf', { enhanced: false }, limits);
    expect(converted.metadata.title).toBe('Café');
    expect(converted.markdown).toContain('| Item | Price |');
    expect((await convertIsolated(damaged, 'pdf', { enhanced: false }, limits)).markdown).toContain('| Item | Price |');
  });
});
