import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { countPages, PDF_PAGE_LIMIT } from '../src/page-count';
import { MAX_PDF_PAGES } from '../src/readers/pdf';
import { makePdf } from './pdf/make-pdf';

/** poppler's own count (what the reader will see), from a file. */
function pdfinfoPages(pdf: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-count-'));
  try {
    const file = path.join(dir, 'f.pdf');
    fs.writeFileSync(file, pdf);
    return Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `count` with no poppler on PATH: an answer then came from the file's bytes, not pdfinfo. */
async function withoutPoppler<T>(count: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-poppler-'));
  process.env.PATH = empty;
  try {
    return await count();
  } finally {
    process.env.PATH = saved;
    fs.rmSync(empty, { recursive: true, force: true });
  }
}

const pages = (n: number): Promise<Buffer> =>
  makePdf((doc) => {
    for (let i = 1; i <= n; i++) {
      if (i > 1) doc.addPage();
      doc.text(`Page ${i}`);
    }
  });

/**
 * An incremental update, as an editor saves one: a newer version of the page tree's root that
 * keeps only the first `keep` pages, with its own cross-reference section and trailer.
 */
function withPagesDropped(pdf: Buffer, keep: number): Buffer {
  const text = pdf.toString('latin1');
  const root = /\/Root\s+(\d+) 0 R/.exec(text)![1];
  const catalog = new RegExp(`(?:^|\\s)${root} 0 obj([\\s\\S]*?)endobj`).exec(text)![1]!;
  const tree = /\/Pages\s+(\d+) 0 R/.exec(catalog)![1]!;
  const body = new RegExp(`(?:^|\\s)${tree} 0 obj([\\s\\S]*?)endobj`).exec(text)![1]!;
  const kids = [.../\/Kids\s*\[([^\]]*)\]/.exec(body)![1]!.matchAll(/\d+ 0 R/g)].map((m) => m[0]);
  const size = /\/Size\s+(\d+)/.exec(text)![1];
  const prev = /startxref\s+(\d+)/.exec(text)![1];
  const at = pdf.length + 1;
  const object = `\n${tree} 0 obj\n<< /Type /Pages /Count ${keep} /Kids [${kids.slice(0, keep).join(' ')}] >>\nendobj\n`;
  const xrefAt = pdf.length + object.length;
  const update =
    object +
    `xref\n0 1\n0000000000 65535 f \n${tree} 1\n${String(at).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size} /Root ${root} 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(update, 'latin1')]);
}

describe('page count before reading (issue 22: whether and how to split a long PDF)', () => {
  it('When the page tree is readable, then its count comes from the bytes, without pdfinfo, and equals poppler’s', async () => {
    const pdf = await pages(7);
    expect(pdfinfoPages(pdf)).toBe(7);
    expect(await withoutPoppler(() => countPages(pdf, 'pdf'))).toBe(7);
    expect(await countPages(pdf, 'pdf')).toBe(7);
  });

  it('When an incremental update replaced the page tree, then the newest version counts, as poppler counts it', async () => {
    const updated = withPagesDropped(await pages(6), 4);
    expect(pdfinfoPages(updated)).toBe(4);
    expect(await withoutPoppler(() => countPages(updated, 'pdf'))).toBe(4);
  });

  it('When the catalog sits in a compressed object stream, then the count still comes from the bytes', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 5; i++) doc.addPage();
    const pdf = Buffer.from(await doc.save({ useObjectStreams: true }));
    expect(pdfinfoPages(pdf)).toBe(5);
    expect(await withoutPoppler(() => countPages(pdf, 'pdf'))).toBe(5);
  });

  it('When startxref points nowhere, then the count still equals poppler’s', async () => {
    const pdf = await pages(3);
    const text = pdf.toString('latin1');
    const damaged = Buffer.from(text.replace(/startxref\s+\d+/, 'startxref\n999999999'), 'latin1');
    expect(pdfinfoPages(damaged)).toBe(3);
    expect(await countPages(damaged, 'pdf')).toBe(3);
  });

  it('When the converter decides whether to split, then it uses the PDF reader’s own page limit', () => {
    expect(PDF_PAGE_LIMIT).toBe(MAX_PDF_PAGES);
  });

  it('When the bytes are not a PDF, or the file is of another format, then no count is claimed', async () => {
    expect(await countPages(Buffer.from('/Root 1 0 R\n1 0 obj << /Type /Catalog >> endobj'), 'pdf')).toBeUndefined();
    expect(await countPages(Buffer.from('not a pdf at all'), 'pdf')).toBeUndefined();
    expect(await countPages(await pages(3), 'docx')).toBeUndefined();
  });
});
