import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chunkSchema, documentSchema, pageSchema } from '@markwright/contracts/src/structure';
import { closeConversionWorkers, convertDocument, convertIsolated, countTokens } from '../../src';
import { makePdf } from '../pdf/make-pdf';
import { joinRuleHolds, wordShare, words } from './structure-helpers';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 120_000, maxMemoryMb: 768 };

const LOREM =
  'Harbour cranes lift containers from the ships onto waiting trucks while gulls circle above the quay. ' +
  'Every morning the pilots guide tankers through the narrow channel past the lighthouse and the breakwater. ' +
  'Dock workers check manifests, seal numbers and the weight of each load before it leaves the terminal gate. ';

/** Pages of headings and flowing text (pdfkit breaks pages itself, so paragraphs run over breaks), page 4 left empty. */
async function flowingPdf(): Promise<Buffer> {
  return makePdf((doc) => {
    for (let section = 1; section <= 3; section++) {
      doc.font('Helvetica-Bold').fontSize(18).text(`Section ${section} of the harbour report`);
      doc.moveDown(0.5);
      doc.font('Helvetica').fontSize(11);
      for (let p = 0; p < 5; p++) doc.text(`${LOREM.repeat(3)}Paragraph ${section}.${p} ends here.`).moveDown(0.5);
    }
    doc.addPage();
    doc.addPage();
    doc.font('Helvetica').fontSize(11).text('The last page has one closing line.');
  });
}

/** A PDF of `n` pages, each with one line naming its page. */
function numberedPdf(n: number): Promise<Buffer> {
  return makePdf((doc) => {
    for (let i = 1; i <= n; i++) {
      if (i > 1) doc.addPage();
      doc.font('Helvetica').fontSize(12).text(`This is the text of page number ${i}.`);
    }
  });
}

function tmpFile(bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mw-pages-')), 'in.pdf');
  fs.writeFileSync(file, bytes);
  return file;
}

function pdfinfoPages(file: string): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
}

function pdftotextPage(file: string, k: number): string {
  return execFileSync('pdftotext', ['-f', String(k), '-l', String(k), '-layout', file, '-'], { encoding: 'utf8' });
}

describe('E1 pages of a PDF', () => {
  let input: Buffer;
  let file: string;
  beforeAll(async () => {
    input = await flowingPdf();
    file = tmpFile(input);
  });

  it('When pages are asked for, then every page of pdfinfo has an entry in order, an empty page too, and page_count is pdfinfo’s', async () => {
    const result = await convertIsolated(input, 'pdf', { enhanced: false, includePages: true }, limits);
    const count = pdfinfoPages(file);
    expect(count).toBeGreaterThanOrEqual(5);
    expect(result.metadata.page_count).toBe(count);
    expect(result.pages!.map((p) => p.number)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    for (const page of result.pages!) expect(pageSchema.parse(page)).toEqual(page);
    expect(result.pages![count - 2]!.markdown).toBe('');
    expect(result.pages![count - 1]!.markdown).toBe('The last page has one closing line.');
  });

  it('When pages are asked for, then the join rule holds exactly', async () => {
    const result = await convertIsolated(input, 'pdf', { enhanced: false, includePages: true }, limits);
    expect(joinRuleHolds(result.markdown, result.pages!)).toBe(true);
  });

  it('When pages are asked for, then at least 95% of each page’s words as pdftotext reads them land on that page', async () => {
    const result = await convertIsolated(input, 'pdf', { enhanced: false, includePages: true }, limits);
    for (const page of result.pages!) {
      const expected = words(pdftotextPage(file, page.number));
      if (!expected.length) continue;
      expect(wordShare(expected, words(page.markdown))).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('When no structure option is given, then the result has no pages, chunks or document and the Markdown is as before', async () => {
    const plain = await convertDocument(input, 'pdf', { enhanced: false });
    expect(plain.pages).toBeUndefined();
    expect(plain.chunks).toBeUndefined();
    expect(plain.document).toBeUndefined();
    const withDocument = await convertDocument(input, 'pdf', { enhanced: false, includeDocument: true });
    expect(withDocument.markdown).toBe(plain.markdown);
  });
});

describe('E2 page_range of a PDF', () => {
  it('When 2 pages of a 40-page PDF are selected, then poppler is asked for those pages only and page_count stays 40', async () => {
    // The conversion runs in a child process whose PATH starts with a pdftohtml that logs its arguments and runs the real one.
    const input = await numberedPdf(40);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-shim-'));
    const log = path.join(dir, 'calls.log');
    const real = execFileSync('which', ['pdftohtml'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(dir, 'pdftohtml'), `#!/bin/sh\necho "$@" >> ${log}\nexec ${real} "$@"\n`, {
      mode: 0o755,
    });
    fs.writeFileSync(path.join(dir, 'in.pdf'), input);
    const script = path.join(dir, 'run.ts');
    fs.writeFileSync(
      script,
      `import fs from 'node:fs';
import { convertDocument } from ${JSON.stringify(path.join(__dirname, '../../src/convert'))};
convertDocument(fs.readFileSync(${JSON.stringify(path.join(dir, 'in.pdf'))}), 'pdf', {
  enhanced: false, includePages: true, pageRange: [[3, 3], [17, 17]],
}).then((r) => process.stdout.write(JSON.stringify(r)));
`,
    );
    const tsx = require.resolve('tsx/cli', { paths: [path.join(__dirname, '../..')] });
    const out = execFileSync(process.execPath, [tsx, script], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
    });
    const result = JSON.parse(out) as Awaited<ReturnType<typeof convertDocument>>;
    const calls = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(calls.map((c) => /-f (\d+) -l (\d+)/.exec(c)!.slice(1).join('-'))).toEqual(['3-3', '17-17']);
    expect(result.metadata.page_count).toBe(40);
    expect(result.pages!.map((p) => p.number)).toEqual([3, 17]);
    expect(result.markdown).toBe('This is the text of page number 3.\n\nThis is the text of page number 17.\n');
  });

  it('When a range runs past the end, then it selects the pages that exist', async () => {
    const input = await numberedPdf(5);
    const result = await convertIsolated(
      input,
      'pdf',
      { enhanced: false, pageRange: [[4, 9]], includePages: true },
      limits,
    );
    expect(result.pages!.map((p) => p.number)).toEqual([4, 5]);
    expect(result.metadata.page_count).toBe(5);
  });

  it('When a range selects no existing page, then the conversion fails with a message stating the page count', async () => {
    const input = await numberedPdf(5);
    await expect(convertIsolated(input, 'pdf', { enhanced: false, pageRange: [[7, 9]] }, limits)).rejects.toThrow(
      'The page range selects no page: the file has 5 pages.',
    );
  });

  it('When page_range is given for a format without pages, then the library refuses it', async () => {
    await expect(
      convertDocument(Buffer.from('hello'), 'txt', { enhanced: false, pageRange: [[1, 1]] }),
    ).rejects.toThrow(/page_range applies to PDF/);
  });
});

describe('E3 chunks of a PDF', () => {
  it('When chunks are asked for, then each is within the limit, they join back, and their words come from the pages they name', async () => {
    const input = await flowingPdf();
    const file = tmpFile(input);
    const max = 120;
    const result = await convertIsolated(input, 'pdf', { enhanced: false, chunkMaxTokens: max }, limits);
    const chunks = result.chunks!;
    expect(chunks.length).toBeGreaterThan(3);
    const pageWords = new Map<number, string[]>();
    for (let k = 1; k <= result.metadata.page_count; k++) pageWords.set(k, words(pdftotextPage(file, k)));
    for (const chunk of chunks) {
      expect(chunkSchema.parse(chunk)).toEqual(chunk);
      expect(chunk.tokens).toBe(countTokens(chunk.markdown));
      expect(chunk.tokens).toBeLessThanOrEqual(max);
      const fromPages = chunk.pages.flatMap((n) => pageWords.get(n) ?? []);
      expect(wordShare(words(chunk.markdown), fromPages)).toBeGreaterThanOrEqual(0.95);
    }
    expect(
      chunks
        .map((c) => c.markdown)
        .join('\n\n')
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe(result.markdown.replace(/\s+/g, ' ').trim());
    expect(chunks.some((c) => c.headings.length > 0)).toBe(true);
  });
});

describe('E4 document of a PDF', () => {
  it('When the document is asked for, then it validates against the contract and PDF blocks carry page and bbox inside their page', async () => {
    const input = await flowingPdf();
    const result = await convertIsolated(input, 'pdf', { enhanced: false, includeDocument: true }, limits);
    const document = documentSchema.parse(result.document);
    expect(document.blocks.length).toBeGreaterThan(5);
    const sizes = new Map(document.pages!.map((p) => [p.number, p]));
    for (const block of document.blocks) {
      expect(block.page).toBeGreaterThanOrEqual(1);
      const size = sizes.get(block.page!)!;
      const [x0, y0, x1, y1] = block.bbox!;
      expect(x0).toBeLessThan(x1);
      expect(y0).toBeLessThan(y1);
      expect(x0).toBeGreaterThanOrEqual(0);
      expect(y1).toBeLessThanOrEqual(size.height);
    }
    // The first heading stands at the top margin (72 pt) of an A4 page.
    const first = document.blocks[0]!;
    expect(first.type).toBe('heading');
    expect(first.bbox![1]).toBeGreaterThan(60);
    expect(first.bbox![1]).toBeLessThan(100);
    // poppler gives the page size in whole points (A4 is 595.28 × 841.89).
    expect(sizes.get(1)).toEqual({ number: 1, width: 595, height: 841 });
  });
});
