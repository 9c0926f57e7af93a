import { closeConversionWorkers, convertDocument } from '../../src';
import { MAX_ENTITY_EXPANSION, prepareXml } from '../../src/readers/xml/doctype';

afterAll(() => closeConversionWorkers());

const std = { enhanced: false };
const convert = async (xml: string): Promise<string> => (await convertDocument(Buffer.from(xml), 'xml', std)).markdown;

const DOCBOOK_ARTICLE = `<?xml version="1.0" encoding="utf-8"?>
<article xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" version="5.0">
  <info><title>Field Notes</title><author><personname><firstname>Ann</firstname><surname>Writer</surname></personname></author></info>
  <section>
    <title>Methods</title>
    <para>Rivers carry <emphasis>fine</emphasis> and <emphasis role="bold">coarse</emphasis> sediment<footnote><para>As usually defined.</para></footnote>,
      see <link xlink:href="https://example.org/site">the site</link>.</para>
    <itemizedlist><listitem><para>surface</para></listitem><listitem><para>middle</para></listitem></itemizedlist>
    <section>
      <title>Samples</title>
      <table><title>Load by site</title><tgroup cols="2">
        <thead><row><entry>Site</entry><entry>Load</entry></row></thead>
        <tbody><row><entry>A</entry><entry>high</entry></row></tbody>
      </tgroup></table>
      <programlisting>sieve --mesh 2mm
  sample.csv</programlisting>
    </section>
  </section>
</article>`;

describe('document XML', () => {
  it('When a DocBook article is uploaded, then its title, sections, emphasis, links, lists, tables, code and footnotes come out as Markdown', async () => {
    const { markdown, metadata } = await convertDocument(Buffer.from(DOCBOOK_ARTICLE), 'xml', std);
    expect(markdown).toBe(
      '# Field Notes\n\nAnn Writer\n\n## Methods\n\n' +
        'Rivers carry *fine* and **coarse** sediment[^1], see [the site](https://example.org/site).\n\n' +
        '- surface\n- middle\n\n### Samples\n\n**Load by site**\n\n| Site | Load |\n| --- | --- |\n| A | high |\n\n' +
        '```\nsieve --mesh 2mm\n  sample.csv\n```\n\n[^1]: As usually defined.\n',
    );
    expect(metadata).toEqual({ title: 'Field Notes', author: 'Ann Writer', page_count: 1 });
  });

  it('When a DocBook 4 article declares text entities in its DOCTYPE, then it is read with the entities replaced, not refused', async () => {
    const xml =
      '<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "docbookx.dtd" [\n' +
      '<!ENTITY product "Markwright">\n<!ENTITY copy "&#169;">\n]>\n' +
      '<article><title>&product; guide</title><sect1><title>About</title><para>&product; &copy; 2026.</para></sect1></article>';
    expect(await convert(xml)).toBe('# Markwright guide\n\n## About\n\nMarkwright © 2026.\n');
  });

  it('When a DocBook section has a titled formalpara and a bridgehead, then the title is kept in bold and the bridgehead nests under the section', async () => {
    const xml =
      '<article xmlns="http://docbook.org/ns/docbook"><title>Guide</title><section><title>Setup</title>' +
      '<formalpara><title>Before you start</title><para>Back up the data.</para></formalpara>' +
      '<bridgehead>Options</bridgehead><para>None.</para></section></article>';
    expect(await convert(xml)).toBe(
      '# Guide\n\n## Setup\n\n**Before you start**\n\nBack up the data.\n\n### Options\n\nNone.\n',
    );
  });

  it('When a JATS article is uploaded, then title, authors, abstract, numbered sections, figure captions, notes and references come out', async () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.3 20210610//EN" "JATS-journalpublishing1-3.dtd">
<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
<front><journal-meta><journal-title-group><journal-title>J. Rivers</journal-title></journal-title-group></journal-meta>
<article-meta><title-group><article-title>Sediment in <italic>rivers</italic></article-title></title-group>
<contrib-group><contrib contrib-type="author"><name><surname>Writer</surname><given-names>Ann</given-names></name></contrib></contrib-group>
<abstract><p>We measured load.</p></abstract></article-meta></front>
<body><sec><label>1.</label><title>Introduction</title>
<p>Load rises in floods<xref ref-type="fn" rid="fn1">a</xref> [<xref ref-type="bibr" rid="r1">1</xref>].</p>
<fig id="f1"><label>Figure 1.</label><caption><p>A sediment core.</p></caption><graphic xlink:href="core.png"/></fig>
<table-wrap><label>Table 1.</label><caption><title>Load</title></caption><table><thead><tr><th>Site</th><th>Load</th></tr></thead><tbody><tr><td>A</td><td>high</td></tr></tbody></table></table-wrap>
</sec></body>
<back><fn-group><fn id="fn1"><p>In spring.</p></fn></fn-group>
<ref-list><title>References</title><ref id="r1"><label>1</label><element-citation><person-group><name><surname>Roe</surname><given-names>B</given-names></name></person-group><article-title>Silt</article-title><source>Hydrol.</source><year>2001</year></element-citation></ref></ref-list></back>
</article>`;
    const { markdown, metadata } = await convertDocument(Buffer.from(xml), 'xml', std);
    expect(markdown).toBe(
      '# Sediment in *rivers*\n\nAnn Writer\n\n## Abstract\n\nWe measured load.\n\n## 1. Introduction\n\n' +
        'Load rises in floods[^1] [1].\n\n**Figure 1.**\n\nA sediment core.\n\n**Table 1. Load**\n\n' +
        '| Site | Load |\n| --- | --- |\n| A | high |\n\n## References\n\n[1] Roe B. Silt. Hydrol. 2001\n\n[^1]: In spring.\n',
    );
    expect(metadata).toEqual({ title: 'Sediment in rivers', author: 'Ann Writer', page_count: 1 });
  });

  it('When a TEI text is uploaded, then its header title, divisions, highlighted text, lists and notes come out', async () => {
    const xml = `<?xml version="1.0"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>Letters</title><author>A. Writer</author></titleStmt>
<publicationStmt><p>Unpublished.</p></publicationStmt></fileDesc></teiHeader>
<text><body><div><head>First letter</head><p>Dear <hi rend="italic">friend</hi>,<note place="foot">A cousin.</note> the river rose.</p>
<list><item>boats</item><item>nets</item></list></div></body></text></TEI>`;
    expect(await convert(xml)).toBe(
      '# Letters\n\nA. Writer\n\n## First letter\n\nDear *friend*,[^1] the river rose.\n\n- boats\n- nets\n\n[^1]: A cousin.\n',
    );
  });

  it('When a TEI list is typed unordered and holds a code block, then it stays a bullet list and the code is fenced', async () => {
    const xml =
      '<?xml version="1.0"?>\n<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body>' +
      '<list type="unordered"><item><p>boats</p></item><item><p>nets</p></item></list>' +
      '<ab type="codeblock">cast --net\n  --deep</ab></body></text></TEI>';
    expect(await convert(xml)).toBe('- boats\n- nets\n\n```\ncast --net\n  --deep\n```\n');
  });

  it('When an XHTML page is saved as .xml, then it is read as HTML, not fenced as XML', async () => {
    const xml =
      '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Notes</title></head>' +
      '<body><h1>Notes</h1><p>Some <em>text</em>.</p><ul><li>one</li><li>two</li></ul></body></html>';
    expect(await convert(xml)).toBe('# Notes\n\nSome *text*.\n\n- one\n- two\n');
  });

  it('When data XML declares entities in its DOCTYPE, then it is fenced as written instead of refused', async () => {
    const xml =
      '<?xml version="1.0"?>\n<!DOCTYPE patent SYSTEM "us-patent.dtd" [\n<!ENTITY fig1 SYSTEM "fig1.tif" NDATA TIF>\n]>\n<patent><claim>A widget.</claim></patent>';
    expect(await convert(xml)).toBe('```xml\n' + xml + '\n```\n');
  });

  it('When a DocBook file declares a billion-laughs entity, then it is read without expanding it and without an error', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
    const xml =
      `<?xml version="1.0"?>\n<!DOCTYPE article [\n<!ENTITY lol0 "lol">\n${levels}\n]>\n` +
      '<article><title>Laughs</title><para>Before &lol9; after.</para></article>';
    expect(await convert(xml)).toBe('# Laughs\n\nBefore after.\n');
  });

  it('When a DocBook file references an external entity (file:///etc/passwd), then nothing is loaded and the reference is dropped', async () => {
    const xml =
      '<?xml version="1.0"?>\n<!DOCTYPE article [\n<!ENTITY secret SYSTEM "file:///etc/passwd">\n]>\n' +
      '<article><title>Report</title><para>Start &secret; end.</para></article>';
    expect(await convert(xml)).toBe('# Report\n\nStart end.\n');
  });

  it('When plain-text entities would add more than the expansion budget, then the references past it stay as written', () => {
    const value = 'x'.repeat(1000);
    const refs = MAX_ENTITY_EXPANSION / value.length + 1;
    const xml = `<!DOCTYPE d [<!ENTITY e "${value}">]><d>${'&e;'.repeat(refs)}</d>`;
    const { xml: prepared } = prepareXml(xml);
    expect(prepared.length).toBeLessThan(MAX_ENTITY_EXPANSION + 100);
    expect(prepared.endsWith('&amp;e;</d>')).toBe(true);
  });
});
