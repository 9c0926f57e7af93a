import { closeConversionWorkers, convertDocument } from '../../src';
import { MAX_MARKDOWN_NESTING } from '../../src/readers/shared/nesting-limits';

afterAll(() => closeConversionWorkers());

/** Hostile nesting far beyond any limit: 100,000 openers. */
const HOSTILE_DEPTH = 100_000;

async function md(source: string): Promise<string> {
  return (await convertDocument(Buffer.from(source), 'md', { enhanced: false })).markdown;
}

describe('Markdown reader', () => {
  it('When a Markdown file holds an HTML table, then it becomes a pipe table', async () => {
    const source = 'Before\n\n<table>\n<tr><th>Name</th><th>Age</th></tr>\n<tr><td>Ann</td><td>7</td></tr>\n</table>\n';
    expect(await md(source)).toBe('Before\n\n| Name | Age |\n| --- | --- |\n| Ann | 7 |\n');
  });

  it('When a Markdown file holds an HTML list split by a blank line, then it becomes one Markdown list', async () => {
    const source = '<ul>\n  <li>one</li>\n\n  <li>two\n    <ul><li>inner</li></ul>\n  </li>\n</ul>\n';
    expect(await md(source)).toBe('- one\n- two\n  - inner\n');
  });

  it('When a nested list is indented with tabs, then it renders nested with spaces', async () => {
    expect(await md('- a\n\t- b\n\t\t- c\n- d\n')).toBe('- a\n  - b\n    - c\n- d\n');
  });

  it('When a Markdown file opens with YAML front matter, then its title is the metadata title and the block stays', async () => {
    const result = await convertDocument(Buffer.from('---\ntitle: "Field notes"\n---\n\n# Other\n'), 'md', {
      enhanced: false,
    });
    expect({ markdown: result.markdown, metadata: result.metadata }).toEqual({
      markdown: '---\ntitle: "Field notes"\n---\n\n# Other\n',
      metadata: { title: 'Field notes', author: '', page_count: 1 },
    });
  });

  it('When a Markdown file holds GitHub alerts and wiki links, then they come back as written, not escaped', async () => {
    const source = '> [!NOTE]\n> Read this first.\n\nSee [[Other Page]] and [[Target|alias]].\n';
    expect(await md(source)).toBe(source);
  });

  it('When brackets nest around a link, a footnote mark or before a parenthesis, then they are still escaped', async () => {
    expect(await md('Text \\[[^1]\\] and \\[[a]\\](b) end\n')).toBe('Text \\[\\[^1\\]\\] and \\[\\[a\\]\\](b) end\n');
  });

  it('When a Markdown file opens with TOML front matter, then the block stays as written and its title is the metadata title', async () => {
    const source = '+++\ntitle = "Field notes"\ntags = ["a", "b"]\n+++\n\n# Other\n';
    const result = await convertDocument(Buffer.from(source), 'md', { enhanced: false });
    expect([result.markdown, result.metadata.title]).toEqual([source, 'Field notes']);
  });

  it('When a Markdown file has no front matter, then a setext level-1 heading is the title', async () => {
    const result = await convertDocument(Buffer.from('Intro\n=====\n\ntext\n'), 'md', { enhanced: false });
    expect([result.markdown, result.metadata.title]).toEqual(['# Intro\n\ntext\n', 'Intro']);
  });

  it('When a Markdown file has inline and display math, then the TeX survives unescaped', async () => {
    expect(await md('Energy $E=mc^2$ here.\n\n$$\n\\int_0^1 x\\,dx\n$$\n')).toBe(
      'Energy $E=mc^2$ here.\n\n$$\\int_0^1 x\\,dx$$\n',
    );
  });

  it('When a Markdown file has footnotes, then references and notes keep their labels', async () => {
    expect(await md('Claim[^src] and more.\n\n[^src]: The source.\n')).toBe(
      'Claim[^src] and more.\n\n[^src]: The source.\n',
    );
  });

  it('When a Markdown file has a task list, then the boxes keep their state', async () => {
    expect(await md('- [x] done\n- [ ] open\n')).toBe('- [x] done\n- [ ] open\n');
  });

  it('When a fenced code block holds Markdown-like text, then it is kept verbatim', async () => {
    expect(await md('```js\n  let a = *b*;   \n# not a heading\n```\n')).toBe(
      '```js\n  let a = *b*;   \n# not a heading\n```\n',
    );
  });

  it('When links are written as references, then they become inline links to the defined address', async () => {
    expect(await md('See [the docs][d].\n\n[d]: https://docs.test/a "Docs"\n')).toBe(
      'See [the docs](https://docs.test/a).\n',
    );
  });

  it('When a GFM table aligns its columns, then the table keeps its cells', async () => {
    expect(await md('| a | b |\n|:--|--:|\n| 1 | 2 |\n')).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |\n');
  });

  it('When inline HTML raises, lowers or breaks text and holds a comment, then the model nodes are written and the comment dropped', async () => {
    expect(await md('H<sub>2</sub>O and x<sup>2</sup><!-- note -->\nline<br>next\n')).toBe(
      'H<sub>2</sub>O and x<sup>2</sup>\nline\\\nnext\n',
    );
  });

  it('When a Markdown file holds an HTML comment block, then it is left out', async () => {
    expect(await md('a\n\n<!--\nhidden\n-->\n\nb\n')).toBe('a\n\nb\n');
  });

  it('When a line ends with two spaces or a backslash, then the hard break is kept', async () => {
    expect(await md('one  \ntwo\\\nthree\n')).toBe('one\\\ntwo\\\nthree\n');
  });

  it('When an image has an address, then the image keeps it', async () => {
    expect(await md('![Logo](img/logo.png)\n')).toBe('![Logo](img/logo.png)\n');
  });

  it('When quotes nest 100,000 deep, then the quotes stop at the nesting limit and the text is kept', async () => {
    const out = await md(`${'>'.repeat(HOSTILE_DEPTH)} deep\n`);
    const markers = /^(?:> )*/.exec(out)![0].length / 2;
    const text = `\\${'>'.repeat(HOSTILE_DEPTH - MAX_MARKDOWN_NESTING)} deep\n`;
    expect([markers, out.endsWith(text)]).toEqual([MAX_MARKDOWN_NESTING, true]);
  });

  it('When 100,000 brackets never close, then they are written as escaped text', async () => {
    expect(await md(`${'['.repeat(HOSTILE_DEPTH)}x\n`)).toBe(`${'\\['.repeat(HOSTILE_DEPTH)}x\n`);
  });

  it('When lists nest 50,000 deep, then the lists stop at the nesting limit and the text is kept', async () => {
    const out = await md(`${'- '.repeat(HOSTILE_DEPTH / 2)}x\n`);
    const lists = MAX_MARKDOWN_NESTING / 2;
    const text = `\\-${' -'.repeat(HOSTILE_DEPTH / 2 - lists - 1)} x\n`;
    expect([out.split('\n').length - 1, out.endsWith(text)]).toEqual([lists, true]);
  });
});
