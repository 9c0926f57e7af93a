import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chunkSchema, documentSchema, pageSchema } from '@markwright/contracts/src/structure';
import { makePdf } from '../pdf/make-pdf';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'packages', 'conversion', 'src', 'cli', 'convert.ts');

let dir: string;
let pdf: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-cli-structure-'));
  pdf = path.join(dir, 'report.pdf');
  const sentence = 'The survey team measured the river banks and noted every bridge along the way. ';
  fs.writeFileSync(
    pdf,
    await makePdf((doc) => {
      for (let i = 1; i <= 30; i++) {
        if (i > 1) doc.addPage();
        doc.font('Helvetica-Bold').fontSize(16).text(`Stage ${i}`);
        doc.font('Helvetica').fontSize(11).text(sentence.repeat(12));
      }
    }),
  );
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('markwright convert: --pages, --page-range, --chunk-max-tokens, --json', () => {
  it('When --pages and --page-range are given, then the selected pages are printed as JSON', async () => {
    const { stdout } = await run(TSX, [CLI, pdf, '--pages', '--page-range', '2-3,29-40']);
    const pages = (JSON.parse(stdout) as unknown[]).map((p) => pageSchema.parse(p));
    expect(pages.map((p) => p.number)).toEqual([2, 3, 29, 30]);
    expect(pages[0]!.markdown.startsWith('# Stage 2') || pages[0]!.markdown.startsWith('## Stage 2')).toBe(true);
  });

  it('When --chunk-max-tokens is given, then the chunks are printed as JSON, each within the limit', async () => {
    const { stdout } = await run(TSX, [CLI, pdf, '--chunk-max-tokens', '200']);
    const chunks = (JSON.parse(stdout) as unknown[]).map((c) => chunkSchema.parse(c));
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(200);
  });

  it('When --json is given, then the whole document is printed (all of it, however long), and it validates', async () => {
    const { stdout } = await run(TSX, [CLI, pdf, '--json'], { maxBuffer: 64 * 1024 * 1024 });
    const document = documentSchema.parse(JSON.parse(stdout));
    expect(document.blocks.filter((b) => b.type === 'heading')).toHaveLength(30);
    expect(document.blocks.every((b) => b.bbox && b.page)).toBe(true);
  });

  it('When several are given, then one object holds each asked for', async () => {
    const { stdout } = await run(TSX, [CLI, pdf, '--pages', '--json', '--page-range', '1', '--metadata']);
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(['document', 'metadata', 'pages']);
    expect(out.metadata).toEqual({ title: '', author: '', page_count: 30 });
  });

  it('When --page-range alone is given, then the Markdown of those pages is printed', async () => {
    const { stdout } = await run(TSX, [CLI, pdf, '--page-range', '5']);
    expect(stdout).toContain('Stage 5');
    expect(stdout).not.toContain('Stage 6');
  });

  it('When a flag value is wrong, then the exit code is 2 and the message says what is expected', async () => {
    for (const args of [
      ['--page-range', '3-1'],
      ['--chunk-max-tokens', '10'],
    ]) {
      const result = await run(TSX, [CLI, pdf, ...args]).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(args[0]);
    }
  });

  it('When the range selects no page, then the error names the page count and the exit code is 1', async () => {
    const result = await run(TSX, [CLI, pdf, '--pages', '--page-range', '31-33']).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The page range selects no page: the file has 30 pages.');
  });
});
