import { convertDocument, ConversionError } from '../../src';
import type { Block, Inline } from '../../src/document/model';
import { renderMarkdown } from '../../src/writers/markdown';
import { hostileDocuments, MARKUP_TEXTS, UNSAFE_TARGETS } from './hostile-documents';
import { liveScript, scriptFindings } from './script-scan';

const std = { enhanced: false };
const text = (t: string): Inline => ({ type: 'text', text: t });

describe('Markdown that cannot run script', () => {
  it('When hostile documents of every format are converted, then no rendering of any output and no metadata can run script', async () => {
    const live: string[] = [];
    for (const doc of await hostileDocuments()) {
      // A document refused as not of its format (a .md with a NUL) has no output to run.
      const converted = await convertDocument(doc.bytes, doc.extension, std).catch((err: unknown) => {
        if (err instanceof ConversionError) return undefined;
        throw err;
      });
      if (!converted) continue;
      const { markdown, metadata } = converted;
      const findings = [...liveScript(markdown), ...scriptFindings(metadata.title), ...scriptFindings(metadata.author)];
      for (const f of findings) live.push(`${doc.format} × ${doc.payload}: ${f}`);
    }
    expect(live).toEqual([]);
    // Every format × every payload converted in turn: 70 s at a load average of 16 on 2 cores.
  }, 300_000);

  it('When the model holds every unsafe target as a link and an image, then their text stays and none is live', () => {
    const blocks: Block[] = Object.values(UNSAFE_TARGETS).map((url) => ({
      type: 'paragraph',
      text: [text('See '), { type: 'link', url, children: [text('click')] }, { type: 'image', alt: 'pic', src: url }],
    }));
    const md = renderMarkdown(blocks);
    expect(liveScript(md)).toEqual([]);
    expect(md.match(/click/g)).toHaveLength(Object.keys(UNSAFE_TARGETS).length);
  });

  it('When text, raw Markdown, TeX, note labels and a fence language carry markup, then none of it is live', () => {
    const hostile = Object.values(MARKUP_TEXTS);
    const blocks: Block[] = [
      ...hostile.map((t): Block => ({ type: 'paragraph', text: [text(t)] })),
      ...hostile.map((t): Block => ({ type: 'raw', markdown: t })),
      { type: 'paragraph', text: hostile.map((t): Inline => ({ type: 'math', tex: t })) },
      { type: 'paragraph', text: [text('a <'), text('img src=x onerror=alert(1)>')] },
      { type: 'paragraph', text: [text('x'), { type: 'noteRef', id: '<img src=x onerror=alert(1)>' }] },
      { type: 'notes', notes: [{ id: '1', blocks: [{ type: 'paragraph', text: [text('javascript:alert(1)')] }] }] },
      { type: 'paragraph', text: [text('y [^1]')] },
      { type: 'code', text: '<script>alert(1)</script>', language: 'a`b\n<script>alert(1)</script>' },
      { type: 'table', rows: [[[text('h')]], [hostile.map(text)]] },
    ];
    expect(liveScript(renderMarkdown(blocks))).toEqual([]);
  });

  it('When links go to http, https, ftp, mailto, tel, a relative path or an anchor, then they stay links', () => {
    const urls = [
      'https://example.com/a_b?x=1&y=2',
      'http://e.org',
      'ftp://f.org/x',
      'mailto:a@b.org',
      'tel:+441234',
      'docs/x.md',
      '#top',
    ];
    const md = renderMarkdown([
      { type: 'paragraph', text: urls.map((url): Inline => ({ type: 'link', url, children: [text('go')] })) },
    ]);
    expect(md).toBe(`${urls.map((u) => `[go](${u})`).join('')}\n`);
  });

  it('When plain prose has a lone < and brackets that open nothing, then a .txt comes out byte for byte', async () => {
    const prose = 'Costs < 5 and a<=b, x<3, see [1] or (this) and *that*.\n\n    indented code <3';
    const { markdown } = await convertDocument(Buffer.from(prose), 'txt', std);
    expect(markdown).toBe(`${prose}\n`);
  });

  it('When a .txt holds a script tag and a link, then a renderer shows them as the text they are', async () => {
    const { markdown } = await convertDocument(Buffer.from('<script>x</script> [a](https://e.org)'), 'txt', std);
    expect(markdown).toBe('&lt;script>x&lt;/script> [a]\\(https://e.org)\n');
  });

  it('When an HTML title holds tags, then the title is their text', async () => {
    const html =
      '<html><head><title><b>Annual</b> report <img src=x onerror=alert(1)></title></head><body>x</body></html>';
    const { metadata } = await convertDocument(Buffer.from(html), 'html', std);
    expect(metadata.title).toBe('Annual report');
  });
});
