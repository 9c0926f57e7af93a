import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SUPPORTED_EXTENSIONS } from '../../src';
import { holdsPhrase, makeSamples, PHRASE } from '../samples';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'packages', 'conversion', 'src', 'cli', 'convert.ts');

let dir: string;
let files: string[];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-cli-test-'));
  const samples = await makeSamples();
  files = SUPPORTED_EXTENSIONS.map((ext) => {
    const file = path.join(dir, `sample.${ext}`);
    fs.writeFileSync(file, samples[ext]!);
    return file;
  });
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('pnpm convert (the library without a server)', () => {
  it('When every extension is converted in one batch with --out, then each gets a .md holding its text', async () => {
    const out = path.join(dir, 'out');
    await run(TSX, [CLI, ...files, '--out', out], { timeout: 300_000 });
    for (const ext of SUPPORTED_EXTENSIONS) {
      const markdown = fs.readFileSync(path.join(out, `sample.${ext}.md`), 'utf8');
      expect([ext, holdsPhrase(markdown)]).toEqual([ext, true]);
    }
  }, 300_000);

  it('When one file is converted with --metadata, then Markdown with front matter is printed on stdout', async () => {
    const { stdout } = await run(TSX, [CLI, path.join(dir, 'sample.doc'), '--metadata']);
    expect(stdout).toBe(`---\ntitle: ""\nauthor: ""\npage_count: 0\n---\n\n# ${PHRASE}\n`);
  });

  it('When a file fails, then the others are still written, the error names the file and the exit code is 1', async () => {
    const bad = path.join(dir, 'broken.pdf');
    fs.writeFileSync(bad, 'not a pdf');
    const out = path.join(dir, 'out-mixed');
    const result = await run(TSX, [CLI, bad, path.join(dir, 'sample.txt'), '--out', out]).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${bad}: `);
    expect(fs.existsSync(path.join(out, 'sample.txt.md'))).toBe(true);
  });

  it("When a small plain .txt is converted, then no worker thread starts and the answer is the worker's, error or not", async () => {
    const { closeConversionWorkers, convertIsolated, DEFAULT_LIMITS } = await import('../../src');
    const counted = {
      ...process.env,
      NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'fixtures', 'count-workers.cjs')}`,
    };
    const cases: Array<[string, Buffer, number]> = [
      ['note.txt', Buffer.from('# A note <b>bold</b>\n\nSee [this](http://example.com) and a <script>.\n'), 0],
      ['latin1.txt', Buffer.from('Caf\xe9 cr\xe8me, na\xefve.\n', 'latin1'), 0],
      ['zip.txt', Buffer.from('PK\x03\x04 not really a zip archive at all', 'latin1'), 1],
      ['large.txt', Buffer.from('Plain words. '.repeat(400)), 1],
    ];
    try {
      for (const [name, bytes, workers] of cases) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, bytes);
        const cli = await run(TSX, [CLI, file], { env: counted }).then(
          ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
          (err: { code: number; stdout: string; stderr: string }) => err,
        );
        const worker = await convertIsolated(bytes, 'txt', { enhanced: false, filename: name }, DEFAULT_LIMITS).then(
          (r) => ({ code: 0, stdout: r.markdown, message: '' }),
          (err: Error) => ({ code: 1, stdout: '', message: err.message }),
        );
        const counts = [...cli.stderr.matchAll(/^workers started: (\d+)\n/gm)].map((m) => Number(m[1]));
        const messages = cli.stderr.replace(/^(workers started|worker young generation): \d+\n/gm, '');
        expect([name, cli.code, cli.stdout, messages, counts.reduce((a, b) => a + b, 0)]).toEqual([
          name,
          worker.code,
          worker.stdout,
          worker.message ? `${file}: ${worker.message}\n` : '',
          workers,
        ]);
      }
    } finally {
      await closeConversionWorkers();
    }
  }, 120_000);

  it('When a batch of PDFs runs on one worker, then pdftohtml reads each next PDF ahead in the CLI, and every answer is the one the file gets alone', async () => {
    const { closeConversionWorkers, convertIsolated, DEFAULT_LIMITS } = await import('../../src');
    const { makePdf } = await import('../pdf/make-pdf');
    const pdf = (title: string) =>
      makePdf((doc) => {
        doc.font('Helvetica-Bold').fontSize(18).text(title);
        doc.font('Helvetica').fontSize(11).text(`The ${title.toLowerCase()} paragraph of the batch, in plain words.`);
      });
    const cases: Array<[string, Buffer]> = [
      ['first.pdf', await pdf('First')],
      ['second.pdf', await pdf('Second')],
      ['damaged.pdf', Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n')],
      ['not-a.pdf', Buffer.from('not a pdf')],
      ['third.pdf', await pdf('Third')],
    ];
    const counted = {
      ...process.env,
      NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'fixtures', 'count-read-ahead.cjs')}`,
    };
    try {
      const named = cases.map(([name, bytes]) => {
        const file = path.join(dir, `ahead-${name}`);
        fs.writeFileSync(file, bytes);
        return file;
      });
      const cli = await run(TSX, [CLI, ...named], { env: counted }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      let stdout = '';
      let messages = '';
      for (const [i, [name, bytes]] of cases.entries()) {
        await convertIsolated(bytes, 'pdf', { enhanced: false, filename: `ahead-${name}` }, DEFAULT_LIMITS).then(
          (r) => (stdout += r.markdown),
          (err: Error) => (messages += `${named[i]}: ${err.message}\n`),
        );
      }
      const counts = [...cli.stderr.matchAll(/^pdftohtml in the main thread: (\d+)\n/gm)].map((m) => Number(m[1]));
      expect(stdout).toContain('Third');
      expect({
        code: cli.code,
        stdout: cli.stdout,
        messages: cli.stderr.replace(/^pdftohtml in the main thread: \d+\n/gm, ''),
        readAhead: counts.reduce((a, b) => a + b, 0),
      }).toEqual({ code: 1, stdout, messages, readAhead: 3 });
    } finally {
      await closeConversionWorkers();
    }
  }, 120_000);

  it('When a small batch holds two images, then each is read on a worker of its own; two small PDFs share one', async () => {
    const counted = {
      ...process.env,
      NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'fixtures', 'count-workers.cjs')}`,
    };
    const workersFor = async (ext: string): Promise<number> => {
      const copies = ['a', 'b'].map((name) => {
        const file = path.join(dir, `batch-${name}.${ext}`);
        fs.copyFileSync(path.join(dir, `sample.${ext}`), file);
        return file;
      });
      const out = path.join(dir, `out-workers-${ext}`);
      const { stderr } = await run(TSX, [CLI, ...copies, '--out', out], { env: counted, timeout: 120_000 });
      for (const file of copies) {
        const markdown = fs.readFileSync(path.join(out, `${path.basename(file)}.md`), 'utf8');
        expect(markdown.toLowerCase()).toContain(PHRASE.toLowerCase());
      }
      return [...stderr.matchAll(/^workers started: (\d+)\n/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    expect([await workersFor('png'), await workersFor('pdf')]).toEqual([2, 1]);
  }, 120_000);

  it('When a batch holds only PDFs, then its workers get a 128 MB young generation; any other file in the batch keeps the default 64 MB', async () => {
    const counted = {
      ...process.env,
      NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'fixtures', 'count-workers.cjs')}`,
    };
    const youngGenerationsFor = async (name: string, batch: string[]): Promise<number[]> => {
      const out = path.join(dir, `out-young-${name}`);
      const { stderr } = await run(TSX, [CLI, ...batch.map((f) => path.join(dir, f)), '--out', out], {
        env: counted,
        timeout: 120_000,
      });
      for (const file of batch) expect(fs.existsSync(path.join(out, `${file}.md`))).toBe(true);
      return [...stderr.matchAll(/^worker young generation: (\d+)\n/gm)].map((m) => Number(m[1]));
    };
    fs.copyFileSync(path.join(dir, 'sample.pdf'), path.join(dir, 'second.PDF'));
    expect(await youngGenerationsFor('pdfs', ['sample.pdf', 'second.PDF'])).toEqual([128]);
    expect(await youngGenerationsFor('mixed', ['sample.pdf', 'sample.docx'])).toEqual([64]);
  }, 120_000);

  it('When the Markdown is larger than a pipe holds and its reader is slow, then all of it arrives before the command exits', async () => {
    const big = path.join(dir, 'big.txt');
    const line = 'A line of text that the reader will take its time over.\n';
    fs.writeFileSync(big, line.repeat(40_000));
    const child = spawn(TSX, [CLI, big], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.pause();
    // The reader starts only after the command has had time to write everything and exit.
    await new Promise((r) => setTimeout(r, 3000));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.resume();
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(Buffer.concat(chunks).length).toBe(line.length * 40_000);
  }, 60_000);

  it('When files are converted side by side and a later one finishes first, then stdout and the error messages keep the order the files were named in', async () => {
    // Distinct lines (a line repeated on every page would be taken for a running header).
    const words = (n: number): string =>
      `Line ${['alpha', 'beta', 'gamma', 'delta', 'omega'][n % 5]} ${n.toString(2)} ends`;
    // A 60-page PDF, then two one-line texts with a broken file between them: the texts finish long before the PDF.
    const { makePdf } = await import('../pdf/make-pdf');
    const long = path.join(dir, 'long.pdf');
    fs.writeFileSync(
      long,
      await makePdf((doc) => {
        for (let p = 1; p <= 60; p++) {
          if (p > 1) doc.addPage();
          doc
            .font('Helvetica')
            .fontSize(11)
            .text(words(p), 72, 72 + p * 7);
        }
      }),
    );
    const first = path.join(dir, 'first.txt');
    const second = path.join(dir, 'second.txt');
    const broken = path.join(dir, 'broken-between.pdf');
    fs.writeFileSync(first, 'The first text.\n');
    fs.writeFileSync(second, 'The second text.\n');
    fs.writeFileSync(broken, 'not a pdf');
    // Enough input in all for the batch to use more than one worker (MORE_WORKERS_FROM_BYTES).
    const bulk = path.join(dir, 'bulk.txt');
    fs.writeFileSync(bulk, 'Bulk line.\n'.repeat(100_000));
    const result = await run(TSX, [CLI, long, first, broken, second, bulk], { maxBuffer: 8 << 20 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`^${words(1)}[\\s\\S]*${words(60)}\\nThe first text\\.\\nThe second text\\.\\nBulk line\\.\\n`),
    );
    expect(result.stderr).toContain(`${broken}: `);
  }, 120_000);
});
