import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePdf } from './pdf/make-pdf';

/**
 * A conversion worker starts by loading its task module. The container and Markdown libraries
 * (file-type, cfb, fflate, markdown-it, htmlparser2, entities) were most of that start-up (135 ms of
 * CPU with them, 44 without, bundled) and a PDF needs none of them: they load on first use. Run in
 * a child node under tsx, so this test's own imports don't count.
 */
describe('What a conversion worker loads', () => {
  it('When the task module loads and converts a PDF, then no container or Markdown library is required, and loading them later changes no built-in', async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(18).text('A heading');
      doc.fontSize(11).text('A paragraph of text, with a link-free sentence or two in it.');
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-start-'));
    try {
      const file = path.join(dir, 'a.pdf');
      fs.writeFileSync(file, pdf);
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', path.join(__dirname, 'fixtures', 'worker-start-modules.cjs'), file],
        { cwd: path.join(__dirname, '..'), encoding: 'utf8', timeout: 60_000 },
      );
      // Loaded later (another format's conversion), they change none of the built-ins the worker's guard checks.
      expect(JSON.parse(out)).toEqual({
        atStart: [],
        afterPdf: [],
        ok: true,
        loadedLater: ['cfb', 'entities', 'fflate', 'file-type', 'htmlparser2', 'markdown-it'],
        change: null,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
