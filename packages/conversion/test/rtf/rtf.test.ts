import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { convertDocument } from '../../src';

const std = { enhanced: false };
const fixtures = path.join(__dirname, '..', 'fixtures', 'rtf');
const rtf = async (source: string, encoding = 'latin1') =>
  convertDocument(Buffer.from(source, encoding as BufferEncoding), 'rtf', std);

describe('RTF', () => {
  it('When a Word-like RTF has styles, lists, a field link, a footnote, a table and skipped destinations, then the Markdown matches the expected file', async () => {
    const { markdown, metadata } = await convertDocument(
      fs.readFileSync(path.join(fixtures, 'word-like.rtf')),
      'rtf',
      std,
    );
    expect(markdown).toBe(fs.readFileSync(path.join(fixtures, 'word-like.md'), 'utf8'));
    expect(metadata).toEqual({ title: 'Quarterly notes', author: 'Jørgen Møller', page_count: 0 });
  });

  it("When the document code page is 1251, then \\'hh bytes decode as Cyrillic", async () => {
    const bytes = iconv.encode('Привет, мир', 'cp1251');
    const escaped = [...bytes].map((b) => (b < 128 ? String.fromCharCode(b) : `\\'${b.toString(16)}`)).join('');
    const { markdown } = await rtf(`{\\rtf1\\ansi\\ansicpg1251 ${escaped}\\par}`);
    expect(markdown).toBe('Привет, мир\n');
  });

  it('When \\uc2 is in force, then two fallback characters after each \\u escape are skipped', async () => {
    const { markdown } = await rtf("{\\rtf1\\ansi{\\uc2\\u1488\\'3f\\'3f\\u1489 ??} \\u945?.\\par}");
    expect(markdown).toBe('אב α.\n');
  });

  it('When text is marked as a heading by outline level only, then it becomes a heading', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard\\outlinelevel2 Deep title\\par\\pard Body\\par}');
    expect(markdown).toBe('### Deep title\n\nBody\n');
  });

  it('When Markdown characters appear in the text, then they are escaped', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard # not a heading *nor* [link]\\par}');
    expect(markdown).toBe('\\# not a heading \\*nor\\* \\[link\\]\n');
  });

  it('When the RTF has no text, then the Markdown is empty and metadata is blank', async () => {
    const { markdown, metadata } = await rtf('{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}}');
    expect(markdown).toBe('');
    expect(metadata).toEqual({ title: '', author: '', page_count: 0 });
  });

  it('When the file is not RTF, then it fails with corrupt_file', async () => {
    await expect(rtf('hello')).rejects.toMatchObject({ code: 'corrupt_file' });
  });

  it('When the RTF is truncated mid-group, then the text read so far is kept', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard Complete.\\par\\pard {\\b Cut');
    expect(markdown).toBe('Complete.\n\n**Cut**\n');
  });
});
