import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Document, Packer, Paragraph, HeadingLevel } from 'docx';
import { makePdf } from './pdf/make-pdf';

/** Every library the fixture watches, as it reports them once all are loaded. */
const ALL_WATCHED = [
  'cfb',
  'chardet',
  'entities',
  'fflate',
  'file-type',
  'htmlparser2',
  'iconv-lite',
  'markdown-it',
  'sharp',
  'tesseract.js',
];

/** Loads the worker's task module in a child node under tsx (this test's own imports don't count) and converts `file`. */
function loadAndConvert(file: string): unknown {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'fixtures', 'worker-start-modules.cjs'), file],
    { cwd: path.join(__dirname, '..'), encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out);
}

/**
 * A conversion worker starts by loading its task module. tesseract.js loads with the first OCR read
 * (only its regenerator-runtime, which defines a global, loads before the guard's snapshot). The container, Markdown and code-page
 * libraries (file-type, cfb, fflate, markdown-it, htmlparser2, entities, chardet, iconv-lite) were
 * most of that start-up (135 ms of CPU with them, 44 without, bundled) and a PDF needs none of them:
 * they load on first use. So does a plain UTF-8 text without a heading (the CLI converts a small one
 * in its own thread, where these libraries were most of its start).
 */
describe('What a conversion worker loads', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-start-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('When the task module loads and converts a PDF, then no container or Markdown library is required, and loading them later changes no built-in', async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(18).text('A heading');
      doc.fontSize(11).text('A paragraph of text, with a link-free sentence or two in it.');
    });
    const file = path.join(dir, 'a.pdf');
    fs.writeFileSync(file, pdf);
    // Loaded later (another format's conversion), they change none of the built-ins the worker's guard checks.
    expect(loadAndConvert(file)).toEqual({
      atStart: [],
      afterFile: [],
      ok: true,
      loadedLater: ALL_WATCHED,
      change: null,
    });
  });

  it('When it converts a plain UTF-8 .txt without a heading, then none is required; a heading brings the Markdown reader, a code page the code-page libraries', () => {
    const plain = path.join(dir, 'plain.txt');
    fs.writeFileSync(plain, 'Two lines of plain text,\nwith an <em>angle</em> bracket and a [bracket].\n');
    expect(loadAndConvert(plain)).toMatchObject({ atStart: [], afterFile: [], ok: true, change: null });
    const heading = path.join(dir, 'heading.txt');
    fs.writeFileSync(heading, '# A title\n\nText.\n');
    expect(loadAndConvert(heading)).toMatchObject({ afterFile: expect.arrayContaining(['markdown-it']), ok: true });
    const latin1 = path.join(dir, 'latin1.txt');
    fs.writeFileSync(latin1, Buffer.from('Caf\xe9 cr\xe8me, na\xefve r\xe9sum\xe9.\n', 'latin1'));
    expect(loadAndConvert(latin1)).toMatchObject({
      afterFile: expect.arrayContaining(['chardet', 'iconv-lite']),
      ok: true,
    });
  });

  it('When it converts a DOCX in standard mode, then the picture reader and its image library (sharp) are not required', async () => {
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'A heading', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: 'A paragraph.' }),
          ],
        },
      ],
    });
    const file = path.join(dir, 'a.docx');
    fs.writeFileSync(file, await Packer.toBuffer(doc));
    const result = loadAndConvert(file) as { afterFile: string[]; ok: boolean };
    expect(result.ok).toBe(true);
    expect(result.afterFile).not.toContain('sharp');
  });
});
