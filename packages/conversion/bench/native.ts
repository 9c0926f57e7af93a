import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Document, HeadingLevel, Packer, Paragraph, Table } from 'docx';
import PDFDocument from 'pdfkit';
import * as XLSX from '@e965/xlsx';
import { closeConversionWorkers, convertDocument, convertIsolated } from '../src';
import { benchCases as mediaCases } from './media';
import { smallTable } from './documents';

/**
 * The converters against the native tools people would otherwise run, on the same generated inputs
 * in the same run: OCR against the tesseract CLI, DOCX and HTML against pandoc,
 * XLSX against SheetJS's own sheet_to_csv (ours through the pool, and in this thread as SheetJS is).
 * Ours run as a batch in one warm process (the way a
 * converter works: engines loaded once), each figure the median of a few runs; a native tool runs
 * as its usual process per file. A tool that is not installed leaves its row without a ratio
 * (`scripts/setup-bench.sh` installs them). PDF against pdftotext is `bench/pdf-pages.ts`, in batches.
 */
export interface NativeRow {
  path: string;
  unit: string;
  ours: number;
  baseline?: number;
  baselineTool: string;
  /** ours ÷ baseline (lower is better for us). */
  ratio?: number;
}

const TEXT =
  'The committee approved the annual budget on Tuesday morning after a long debate about the costs of the new library building. ';
const RUNS = Number(process.env.BENCH_NATIVE_RUNS ?? 3);
/** Extra paragraph styles that make a generated styles part about as large as Word's default one. */
const WORD_SIZED_STYLES = 150;
const limits = { timeoutMs: 600_000, maxMemoryMb: 4096 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median milliseconds of `runs` calls after one warm-up call. */
async function timed(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * Median milliseconds of `a` and of `b` over `runs` alternating calls after one warm-up each, so
 * load that comes and goes on a shared machine hits both.
 */
async function timedAlternately(
  runs: number,
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
): Promise<[number, number]> {
  await a();
  await b();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const started = performance.now();
      await fn();
      times[k]!.push(performance.now() - started);
    }
  }
  return [median(times[0]), median(times[1])];
}

function installed(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

export function pdf(pages: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    for (let p = 0; p < pages; p++) {
      if (p) doc.addPage();
      doc.fontSize(16).text(`Section ${p + 1}`);
      doc.fontSize(11).text(TEXT.repeat(14));
    }
    doc.end();
  });
}

/**
 * About a page of text each: a heading, four paragraphs and a small table. `styles` extra paragraph
 * styles make the styles part as large as a real Word document's (Word's own is 40–350 KB).
 */
export async function docx(pages: number, styles = 0): Promise<Buffer> {
  const children: Array<Paragraph | Table> = [];
  for (let p = 0; p < pages; p++) {
    children.push(new Paragraph({ text: `Section ${p + 1}`, heading: HeadingLevel.HEADING_2 }));
    for (let i = 0; i < 4; i++) children.push(new Paragraph(TEXT.repeat(3)));
    children.push(smallTable());
  }
  const paragraphStyles = Array.from({ length: styles }, (_, i) => ({
    id: `Custom${i}`,
    name: `Custom style ${i}`,
    basedOn: 'Normal',
    run: { font: 'Calibri', size: 22, bold: i % 2 === 0 },
    paragraph: { spacing: { before: 120, after: 120 } },
  }));
  return Packer.toBuffer(new Document({ styles: { paragraphStyles }, sections: [{ children }] }));
}

export function xlsx(rows: number): Buffer {
  const data: unknown[][] = [['id', 'name', 'amount', 'share']];
  for (let i = 0; i < rows; i++) data.push([i, `Name ${i}`, i * 1.5, (i % 100) / 100]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(data), 'Data');
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
}

export function html(bytes: number): Buffer {
  const section = `<h2>Part</h2><p>${TEXT.repeat(4)}<em>emphasis</em> and <a href="https://example.com">a link</a>.</p><ul><li>one</li><li>two</li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>`;
  const body = section.repeat(Math.ceil(bytes / section.length));
  return Buffer.from(`<html><head><title>Bench</title></head><body><main>${body}</main></body></html>`);
}

export async function runNativeBench(): Promise<{ rows: NativeRow[]; markdown: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-native-'));
  const rows: NativeRow[] = [];
  const write = (name: string, bytes: Buffer): string => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const ours = (bytes: Buffer, ext: string) =>
    timed(RUNS, () => convertIsolated(bytes, ext, { enhanced: false }, limits));
  const tool = (cmd: string, args: string[]) =>
    timed(RUNS, () => execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 256 * 1024 * 1024 }));
  const add = async (row: Omit<NativeRow, 'baseline' | 'ratio'>, baseline?: () => Promise<number>, per = 1) => {
    const measured = baseline ? (await baseline()) / per : undefined;
    const r: NativeRow = { ...row, ours: row.ours / per, baseline: measured };
    if (measured) r.ratio = r.ours / measured;
    rows.push(r);
    process.stderr.write(`${row.path}: done\n`);
  };
  try {
    const page = mediaCases.find((c) => c.ext === 'png');
    if (page) {
      const bytes = await page.make();
      const file = write('page.png', bytes);
      await add(
        { path: 'OCR, 300 dpi page', unit: 'ms/image', ours: await ours(bytes, 'png'), baselineTool: 'tesseract CLI' },
        installed('tesseract') ? () => tool('tesseract', [file, '-']) : undefined,
      );
    }
    for (const pages of [10, 100]) {
      const bytes = await docx(pages);
      const file = write(`d${pages}.docx`, bytes);
      await add(
        { path: `DOCX ${pages} pages`, unit: 'ms/page', ours: await ours(bytes, 'docx'), baselineTool: 'pandoc' },
        installed('pandoc') ? () => tool('pandoc', ['-t', 'gfm', file]) : undefined,
        pages,
      );
    }
    {
      // A short document whose styles part is Word-sized: what a per-file cost shows in.
      const pages = 2;
      const bytes = await docx(pages, WORD_SIZED_STYLES);
      const file = write('styled.docx', bytes);
      await add(
        {
          path: `DOCX ${pages} pages, ${WORD_SIZED_STYLES} styles`,
          unit: 'ms/page',
          ours: await ours(bytes, 'docx'),
          baselineTool: 'pandoc',
        },
        installed('pandoc') ? () => tool('pandoc', ['-t', 'gfm', file]) : undefined,
        pages,
      );
    }
    {
      const bytes = xlsx(10_000);
      const mb = bytes.length / 1e6;
      const sheetToCsv = () => {
        const wb = XLSX.read(bytes, { type: 'buffer' });
        for (const name of wb.SheetNames) XLSX.utils.sheet_to_csv(wb.Sheets[name]!);
      };
      const baselineTool = 'SheetJS sheet_to_csv';
      // SheetJS runs in this thread: ours runs both through the pool and in this thread, each
      // alternating with SheetJS on the same bytes, so the in-thread row compares the readers alone.
      for (const [path, convert] of [
        ['XLSX 10k rows', () => convertIsolated(bytes, 'xlsx', { enhanced: false }, limits)],
        ['XLSX 10k rows, in-thread', () => convertDocument(bytes, 'xlsx', { enhanced: false })],
      ] as const) {
        const [oursMs, sheetJsMs] = await timedAlternately(RUNS, convert, sheetToCsv);
        await add({ path, unit: 's/MB', ours: oursMs / 1000, baselineTool }, async () => sheetJsMs / 1000, mb);
      }
    }
    {
      const bytes = html(1024 * 1024);
      const file = write('page.html', bytes);
      const mb = bytes.length / 1e6;
      await add(
        { path: 'HTML 1 MB', unit: 's/MB', ours: (await ours(bytes, 'html')) / 1000, baselineTool: 'pandoc' },
        installed('pandoc')
          ? () => tool('pandoc', ['-f', 'html', '-t', 'gfm', file]).then((ms) => ms / 1000)
          : undefined,
        mb,
      );
    }
  } finally {
    await closeConversionWorkers();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const fmt = (n: number | undefined) =>
    n === undefined ? '–' : n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3);
  const lines = [
    `Converters against native tools (ours: median of ${RUNS} warm runs in one process; tools: one process per run).`,
    '',
    '| path | unit | Markwright | baseline | tool | ratio |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.path} | ${r.unit} | ${fmt(r.ours)} | ${fmt(r.baseline)} | ${r.baselineTool}${r.baseline === undefined ? ' (not installed)' : ''} | ${r.ratio === undefined ? '–' : `${r.ratio.toFixed(2)}×`} |`,
    ),
  ];
  return { rows, markdown: `${lines.join('\n')}\n` };
}
