// Build step (scripts/build.js runs it after bundling this package): converts small generated
// documents of the common families with the compiled worker, in this process, then writes V8's code
// cache of everything compiled so far beside the bundle. A worker thread loads the bundle with it
// (src/isolation/worker-bundle.cjs) and skips compiling what these conversions compiled.
// A document that cannot be converted here (no pdftohtml in an image's build stage) is left out:
// its reader's functions then compile in the worker, as they did without a cache.
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import * as XLSX from '@e965/xlsx';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS, shared with the worker
const { loadBundle, writeCache, WORKER_BUNDLE } = require('../src/isolation/worker-bundle.cjs') as {
  loadBundle(bundle: string, options: { useCache: boolean }): { exports: { default: WorkerTask }; script: unknown };
  writeCache(bundle: string, script: unknown): void;
  WORKER_BUNDLE: string;
};

type WorkerTask = (task: { input: Uint8Array; extension: string; options: object }) => Promise<unknown>;

const SENTENCE = 'The quarterly figures were checked by the finance team, and the summary went out on Friday.';

function pdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    for (let page = 1; page <= 3; page++) {
      if (page > 1) doc.addPage();
      doc.font('Helvetica-Bold').fontSize(18).text(`Section ${page}: Results`, 72, 72);
      doc.font('Helvetica').fontSize(11);
      for (let p = 0; p < 3; p++) doc.text(`${SENTENCE} ${SENTENCE}`, { width: 450 }).moveDown();
      const top = doc.y + 10;
      for (let r = 0; r < 4; r++)
        for (let c = 0; c < 3; c++) {
          doc.rect(72 + c * 150, top + r * 20, 150, 20).stroke();
          doc.text(r === 0 ? `Column ${c + 1}` : `${r * 10 + c}.5`, 76 + c * 150, top + r * 20 + 5);
        }
    }
    doc.end();
  });
}

function docx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    numbering: {
      config: [
        { reference: 'items', levels: [{ level: 0, format: 'decimal', text: '%1.', alignment: AlignmentType.START }] },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Results', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun(SENTENCE), new TextRun({ text: ' In bold.', bold: true })] }),
          new Paragraph({ text: 'First point', bullet: { level: 0 } }),
          new Paragraph({ text: 'Second point', bullet: { level: 0 } }),
          new Paragraph({ text: 'Numbered', numbering: { reference: 'items', level: 0 } }),
          new Table({
            rows: [0, 1, 2].map((r) => new TableRow({ children: [0, 1, 2].map((c) => cell(`${r}-${c}`)) })),
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

function xlsx(): Buffer {
  const book = XLSX.utils.book_new();
  const rows = [['Region', 'Units', 'Revenue'], ...[1, 2, 3, 4].map((i) => [`Region ${i}`, i * 10, i * 99.5])];
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Sales');
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
}

const HTML = `<html><head><title>Results</title></head><body><h1>Results</h1><p>${SENTENCE} <a href="https://example.com">More</a>.</p>
<ul><li>First</li><li>Second</li></ul><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>`;
const MARKDOWN = `# Results\n\n${SENTENCE}\n\n- First\n- Second\n\n| A | B |\n|---|---|\n| 1 | 2 |\n`;

async function main(): Promise<void> {
  const { exports, script } = loadBundle(WORKER_BUNDLE, { useCache: false });
  const documents: Array<[string, () => Buffer | Promise<Buffer>]> = [
    ['pdf', pdf],
    ['docx', docx],
    ['xlsx', xlsx],
    ['html', () => Buffer.from(HTML)],
    ['md', () => Buffer.from(MARKDOWN)],
    ['csv', () => Buffer.from('Region,Units\nNorth,10\nSouth,20\n')],
    ['txt', () => Buffer.from(`${SENTENCE}\n`.repeat(200))],
  ];
  const done: string[] = [];
  for (const [extension, make] of documents) {
    const input = new Uint8Array(await make());
    // Twice: the second run compiles what only a warm reader reaches (its caches filled).
    for (let pass = 0; pass < 2; pass++) {
      const reply = (await exports.default({ input, extension, options: {} })) as { value?: { ok?: boolean } };
      if (pass === 0 && reply.value?.ok) done.push(extension);
    }
  }
  writeCache(WORKER_BUNDLE, script);
  process.stderr.write(`Code cache of the conversion worker made after ${done.join(', ') || 'no conversion'}.\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `No code cache for the conversion worker: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(0);
});
