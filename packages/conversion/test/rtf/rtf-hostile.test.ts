import { convertDocument } from '../../src';
import { MAX_NESTING_DEPTH } from '../../src/readers/shared/nesting-limits';

const rtf = async (source: string) =>
  (await convertDocument(Buffer.from(source, 'latin1'), 'rtf', { enhanced: false })).markdown;

describe('RTF hostile input', () => {
  it('When groups nest deeper than the limit, then the conversion fails with too_large naming the limit', async () => {
    const deep = `{\\rtf1 ${'{'.repeat(MAX_NESTING_DEPTH + 1)}x${'}'.repeat(MAX_NESTING_DEPTH + 1)}}`;
    await expect(rtf(deep)).rejects.toMatchObject({
      code: 'too_large',
      message: `The RTF file nests groups deeper than ${MAX_NESTING_DEPTH} levels, the most we convert.`,
    });
  });

  it('When groups nest up to the limit, then the text inside is kept', async () => {
    const depth = MAX_NESTING_DEPTH - 1;
    expect(await rtf(`{\\rtf1 ${'{'.repeat(depth)}deep${'}'.repeat(depth)}\\par}`)).toBe('deep\n');
  });

  it('When \\binN claims more bytes than the file has, then the text before it is kept and nothing after is read', async () => {
    expect(await rtf('{\\rtf1\\pard Before.\\par{\\pict\\bin999999999 \u0000\u0001}After\\par}')).toBe('Before.\n');
  });

  it('When \\bin has a negative length, then it skips nothing and the conversion ends', async () => {
    expect(await rtf('{\\rtf1\\pard A\\bin-100000 B\\par}')).toBe('AB\n');
  });

  it('When the file ends with many groups still open, then the text read so far is kept', async () => {
    expect(await rtf(`{\\rtf1\\pard Open ${'{\\b '.repeat(100)}end`)).toBe('Open **end**\n');
  });

  it('When \\itap claims a nesting level far beyond any real table, then the cell is read at the deepest level kept', async () => {
    expect(
      await rtf(
        '{\\rtf1\\trowd\\cellx1000\\pard\\intbl\\itap99999 a\\nestcell\\nestrow\\pard\\intbl\\itap1 b\\cell\\row\\pard\\par}',
      ),
    ).toBe('| a b |\n| --- |\n');
  });

  it('When one row defines a hundred thousand cells, then the table keeps them all', async () => {
    const cells = 100_000;
    const source = `{\\rtf1\\trowd${'\\cellx1'.repeat(cells)}\\pard\\intbl${' x\\cell'.repeat(cells)}\\row\\pard\\par}`;
    const header = (await rtf(source)).split('\n')[0]!;
    expect(header.split('|').length - 2).toBe(cells);
  });

  it('When one list item is continued by a hundred thousand paragraphs, then the item keeps them all', async () => {
    const paragraphs = 100_000;
    const source = `{\\rtf1\\pard\\ls1{\\listtext -\\tab}first\\par${'\\pard\\ls1 more\\par'.repeat(paragraphs)}}`;
    expect((await rtf(source)).match(/more/g)?.length).toBe(paragraphs);
  });

  it('When \\uc asks to skip more fallback characters than follow, then the skip ends at the next control word', async () => {
    expect(await rtf('{\\rtf1\\pard\\uc999999999 \\u945 abc\\par Next\\par}')).toBe('α\n\nNext\n');
  });
});
