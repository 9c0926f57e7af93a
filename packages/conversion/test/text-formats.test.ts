import { closeConversionWorkers, convertDocument, convertIsolated, ConversionError } from '../src';

afterAll(() => closeConversionWorkers());

const std = { enhanced: false };

describe('text family', () => {
  it('When a CSV uses semicolons and quoted fields, then it becomes one GFM table with the quoted cell whole', async () => {
    const csv = Buffer.from('name;note\n"Smith; John";"said ""hi"""\nÅsa;ok\n');
    const { markdown } = await convertDocument(csv, 'csv', std);
    expect(markdown).toBe('| name | note |\n| --- | --- |\n| Smith; John | said "hi" |\n| Åsa | ok |\n');
  });

  it('When a semicolon CSV opens with title lines above its header, then the semicolon is still the delimiter', async () => {
    const csv = Buffer.from('Account statement\nCreated 01.03.2026\n\nDate;Amount;Purpose\n01.02.2026;-12,50;Bakery\n');
    const { markdown } = await convertDocument(csv, 'csv', std);
    expect(markdown).toBe(
      '| Account statement |  |  |\n| --- | --- | --- |\n| Created 01.03.2026 |  |  |\n| Date | Amount | Purpose |\n| 01.02.2026 | -12,50 | Bakery |\n',
    );
  });

  it('When every line of a CSV ends with a delimiter or starts with an empty field, then those empty edge columns are left out', async () => {
    const trailing = await convertDocument(Buffer.from('Date;Amount;\n01.02.2026;-12,50;\n'), 'csv', std);
    const leading = await convertDocument(Buffer.from(',a,,b\n,1,,2\n'), 'csv', std);
    expect([trailing.markdown, leading.markdown]).toEqual([
      '| Date | Amount |\n| --- | --- |\n| 01.02.2026 | -12,50 |\n',
      '| a |  | b |\n| --- | --- | --- |\n| 1 |  | 2 |\n',
    ]);
  });

  it('When a CSV is tab separated with ragged rows, then rows are padded to the widest', async () => {
    const { markdown } = await convertDocument(Buffer.from('a\tb\tc\n1\t2\n'), 'csv', std);
    expect(markdown).toBe('| a | b | c |\n| --- | --- | --- |\n| 1 | 2 |  |\n');
  });

  it('When a cell holds a pipe, then it is escaped so the table keeps its columns', async () => {
    const { markdown } = await convertDocument(Buffer.from('a,b\nx|y,z\n'), 'csv', std);
    expect(markdown).toBe('| a | b |\n| --- | --- |\n| x\\|y | z |\n');
  });

  it('When JSON is given, then it is pretty-printed in a fenced json block', async () => {
    const { markdown } = await convertDocument(Buffer.from('{"a":[1,2],"b":"ü"}'), 'json', std);
    expect(markdown).toBe('```json\n{\n  "a": [\n    1,\n    2\n  ],\n  "b": "ü"\n}\n```\n');
  });

  it('When JSON is invalid, then the conversion fails with a clear corrupt_file error', async () => {
    await expect(convertDocument(Buffer.from('{"a":'), 'json', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it('When a .json file holds JSON Lines (one record a line), then the records are kept as a json block instead of failing', async () => {
    const { markdown } = await convertDocument(
      Buffer.from('{"id":1,"msg":"start"}\n{"id":2,"msg":"disk full"}\r\n\n[3,"retry"]\n'),
      'json',
      std,
    );
    expect(markdown).toBe('```json\n{"id":1,"msg":"start"}\n{"id":2,"msg":"disk full"}\n[3,"retry"]\n```\n');
    await expect(convertDocument(Buffer.from('{"id":1}\n{"id":2,}\n'), 'json', std)).rejects.toMatchObject({
      code: 'corrupt_file',
    });
  });

  it('When a .json file holds pretty-printed records one after another, then each record is kept, in order, as a json block', async () => {
    const records =
      '{\n  "id": "job-0",\n  "note": "braces } and [ in text"\n}\n{\n  "id": "job-1",\n  "tags": ["a", "b"]\n}\n[1, 2]\n';
    const { markdown } = await convertDocument(Buffer.from(records), 'json', std);
    expect(markdown).toBe(
      '```json\n{\n  "id": "job-0",\n  "note": "braces } and [ in text"\n}\n{\n  "id": "job-1",\n  "tags": [\n    "a",\n    "b"\n  ]\n}\n[\n  1,\n  2\n]\n```\n',
    );
    for (const broken of ['{"id": 1}\n{"id": 2,}\n', '{"id": 1} trailing\n{"id": 2}\n', '{"id": 1}\n{"id": 2\n']) {
      await expect(convertDocument(Buffer.from(broken), 'json', std)).rejects.toMatchObject({ code: 'corrupt_file' });
    }
  });

  it("When a CSV starts with Excel's sep= line, then that names the delimiter and is not a row", async () => {
    const csv = 'sep=;\r\nName;Amount\r\n"Doe, J.";"1.234,56"\r\nRoe;12,00\r\n';
    const { markdown } = await convertDocument(Buffer.from(csv), 'csv', std);
    expect(markdown).toBe('| Name | Amount |\n| --- | --- |\n| Doe, J. | 1.234,56 |\n| Roe | 12,00 |\n');
  });

  it('When XML is well-formed, then it is fenced as xml and its title is the metadata title', async () => {
    const xml = '<?xml version="1.0"?>\n<doc><title>Ölçü</title><p>x</p></doc>';
    const result = await convertDocument(Buffer.from(xml), 'xml', std);
    expect(result.markdown).toBe('```xml\n' + xml + '\n```\n');
    expect(result.metadata).toEqual({ title: 'Ölçü', author: '', page_count: 1 });
  });

  it('When XML declares an entity bomb and is broken, then it fails without expanding anything', async () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><l>&b;';
    await expect(convertDocument(Buffer.from(bomb), 'xml', std)).rejects.toBeInstanceOf(ConversionError);
  });

  it('When HTML has a title, scripts and a table, then Markdown keeps content and table and drops scripts', async () => {
    const html =
      '<html><head><title>Report</title><meta name="author" content="Ana"><style>p{}</style></head>' +
      '<body><script>alert(1)</script><h1>Heading</h1><p>Some <em>text</em> and <a href="https://x.test/">a link</a>.</p>' +
      '<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>';
    const result = await convertDocument(Buffer.from(html), 'html', { enhanced: false });
    expect(result.markdown).toContain('# Heading');
    expect(result.markdown).toContain('Some *text* and [a link](https://x.test/).');
    expect(result.markdown).toMatch(/\| A \| B \|\n\| -+ \| -+ \|\n\| 1 \| 2 \|/);
    expect(result.markdown).not.toContain('alert');
    expect(result.metadata).toEqual({ title: 'Report', author: 'Ana', page_count: 1 });
  });

  it('When a text file holds ASCII grid tables (a database client, pandoc), then they become tables and the text around stays', async () => {
    const border = '+------+-----+';
    const client = [border, '| Name | Age |', border, '| Ann  | 7   |', '| Bob  | 12  |', border].join('\n');
    const grid = [
      '+-------+------+',
      '| Fruit | Cost |',
      '+=======+======+',
      '| Red   | 1.34 |',
      '| apple |      |',
      '+-------+------+',
      '| Lime  | 2    |',
      '+-------+------+',
    ].join('\n');
    const text = `Report\n\n${client}\n\nMiddle +-- text\n${grid}\n\n+--- not | a table\n`;
    const { markdown } = await convertDocument(Buffer.from(text), 'txt', std);
    expect(markdown).toBe(
      'Report\n\n| Name | Age |\n| --- | --- |\n| Ann | 7 |\n| Bob | 12 |\n\nMiddle +-- text\n\n' +
        '| Fruit | Cost |\n| --- | --- |\n| Red apple | 1.34 |\n| Lime | 2 |\n\n+--- not | a table\n',
    );
  });

  it('When a text file holds a 60,000-line grid that never closes, then it stays text and is read at once', async () => {
    const text =
      Array.from({ length: 60_000 }, (_, i) => (i % 2 ? '| a | b |' : '+---+---+')).join('\n') + '\n| end |\n';
    const started = Date.now();
    const { markdown } = await convertDocument(Buffer.from(text), 'txt', std);
    expect([markdown.startsWith('+---+---+\n| a | b |'), Date.now() - started < 5000]).toEqual([true, true]);
  });

  it('When a text file is Latin-1, then accents are decoded correctly', async () => {
    const { markdown } = await convertDocument(
      Buffer.from('Café crème et naïve façade, déjà vu.\n', 'latin1'),
      'txt',
      std,
    );
    expect(markdown.startsWith('Café crème')).toBe(true);
  });

  it('When a text file is empty, then the Markdown is empty and metadata still has every key', async () => {
    const result = await convertDocument(Buffer.alloc(0), 'md', std);
    expect(result).toEqual({ markdown: '', metadata: { title: '', author: '', page_count: 1 }, blocks: [] });
  });

  it('When the extension has no converter, then the error names the extension', async () => {
    await expect(convertDocument(Buffer.from('x'), 'exe', std)).rejects.toMatchObject({ code: 'unsupported_format' });
  });

  it('When converting in isolation, then the result equals the in-thread conversion', async () => {
    const input = Buffer.from('# Title\n\nBody\n');
    const isolated = await convertIsolated(input, 'md', std, { timeoutMs: 30_000, maxMemoryMb: 256 });
    // The model itself stays in the worker (isolated-convert.ts); everything else is the same.
    const { blocks: _model, ...inThread } = await convertDocument(input, 'md', std);
    expect(isolated).toEqual(inThread);
  });

  it('When a conversion exceeds its deadline, then it fails with timeout and the next conversion still works', async () => {
    const limits = { timeoutMs: 1, maxMemoryMb: 256 };
    await expect(convertIsolated(Buffer.from('a,b\n'.repeat(200_000)), 'csv', std, limits)).rejects.toMatchObject({
      code: 'timeout',
    });
    const next = await convertIsolated(Buffer.from('ok'), 'txt', std, { timeoutMs: 30_000, maxMemoryMb: 256 });
    expect(next.markdown).toBe('ok\n');
  });

  it('When optimize_tokens is set, then blank-line runs and table padding shrink and counts are o200k tokens', async () => {
    const input = Buffer.from('# T\n\n\n\n\nword    word\n\n|  a   |  b  |\n| --- | --- |\n|  1   |  2  |\n');
    const result = await convertDocument(input, 'md', { enhanced: false, optimizeTokens: true });
    expect(result.markdown).toBe('# T\n\nword word\n\n|a|b|\n|-|-|\n|1|2|\n');
    expect(result.tokenOptimization!.original_tokens).toBeGreaterThan(result.tokenOptimization!.optimized_tokens);
    const { original_tokens: o, optimized_tokens: n } = result.tokenOptimization!;
    expect(result.tokenOptimization!.reduction_percent).toBe(Math.round((10000 * (o - n)) / o) / 100);
  });

  describe('text in UTF-32 or in UTF-16 without a BOM', () => {
    const csv = 'id,city,note\n1,Москва,première\n2,Αθήνα,😀 ok\n3,Paris,fine\n';
    const expected =
      '| id | city | note |\n| --- | --- | --- |\n| 1 | Москва | première |\n| 2 | Αθήνα | 😀 ok |\n| 3 | Paris | fine |\n';
    /** The text as UTF-32 code points in the given byte order, with a BOM or not. */
    const utf32 = (text: string, bigEndian: boolean, bom: boolean): Buffer => {
      const points = [...(bom ? '\ufeff' : ''), ...text].map((ch) => ch.codePointAt(0)!);
      const out = Buffer.alloc(points.length * 4);
      points.forEach((p, i) => (bigEndian ? out.writeUInt32BE(p, i * 4) : out.writeUInt32LE(p, i * 4)));
      return out;
    };
    const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();

    it.each([
      ['little-endian with a BOM', utf32(csv, false, true)],
      ['big-endian with a BOM', utf32(csv, true, true)],
      ['little-endian without a BOM', utf32(csv, false, false)],
      ['big-endian without a BOM', utf32(csv, true, false)],
    ])('When a CSV is in UTF-32 %s, then it is read as text', async (_, bytes) => {
      const { markdown } = await convertDocument(bytes, 'csv', std);
      expect(markdown).toBe(expected);
    });

    it.each([
      ['little-endian', Buffer.from(csv, 'utf16le')],
      ['big-endian', utf16be(csv)],
    ])(
      'When a CSV is in UTF-16 %s without a BOM, then letters outside Latin-1 are read as they are',
      async (_, bytes) => {
        const { markdown } = await convertDocument(bytes, 'csv', std);
        expect(markdown).toBe(expected);
      },
    );
  });
});

describe('HTML tables', () => {
  it('When a table has colspan and rowspan, then each covered cell repeats the merged value', async () => {
    const html =
      '<table><tr><th>A</th><th>B</th><th>C</th></tr>' +
      '<tr><td colspan="2">wide</td><td rowspan="2">tall</td></tr>' +
      '<tr><td>1</td><td><p>two</p><p>paras</p></td></tr><tr><td><ul><li>x</li><li>y</li></ul></td><td>z</td></tr></table>';
    const { markdown } = await convertDocument(Buffer.from(html), 'html', { enhanced: false });
    expect(markdown).toBe(
      '| A | B | C |\n| --- | --- | --- |\n| wide | wide | tall |\n| 1 | two paras | tall |\n| x - y | z |  |\n',
    );
  });

  it('When a row holds only a group cell spanning down beside gaps, then that row is not shown and the group repeats below', async () => {
    const html =
      '<table><tr><th>Year</th><th>Month</th><th>Cost</th></tr><tr><th rowspan="3">2025</th></tr>' +
      '<tr><td>Jan</td><td>1</td></tr><tr><td>Feb</td><td>2</td></tr></table>';
    const { markdown } = await convertDocument(Buffer.from(html), 'html', { enhanced: false });
    expect(markdown).toBe('| Year | Month | Cost |\n| --- | --- | --- |\n| 2025 | Jan | 1 |\n| 2025 | Feb | 2 |\n');
  });

  it('When a one-cell table frames another table, then the frame is dropped and the inner table kept', async () => {
    const html =
      '<table><tr><td><table><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>';
    const { markdown } = await convertDocument(Buffer.from(html), 'html', { enhanced: false });
    expect(markdown).toBe('| x | y |\n| --- | --- |\n| 1 | 2 |\n');
  });
});

describe('more text-family behaviour', () => {
  it('When a CSV is Shift_JIS encoded, then the Japanese text is decoded', async () => {
    const { markdown } = await convertDocument(
      Buffer.from(
        new Uint8Array([
          0x96, 0xbc, 0x91, 0x4f, 0x2c, 0x94, 0x4e, 0x97, 0xee, 0x0a, 0x8d, 0xb2, 0x93, 0xa1, 0x2c, 0x33, 0x30, 0x0a,
        ]),
      ),
      'csv',
      { enhanced: false },
    );
    expect(markdown).toBe('| 名前 | 年齢 |\n| --- | --- |\n| 佐藤 | 30 |\n');
  });

  it('When a Latin-1 CSV would also decode as GB18030, then its accented letters are kept', async () => {
    const csv = Buffer.from('Ville,Région\r\nSète,Occitanie\r\nÉvian,Auvergne-Rhône-Alpes\r\n', 'latin1');
    const { markdown } = await convertDocument(csv, 'csv', { enhanced: false });
    expect(markdown).toBe(
      '| Ville | Région |\n| --- | --- |\n| Sète | Occitanie |\n| Évian | Auvergne-Rhône-Alpes |\n',
    );
  });

  it('When an HTML page has navigation, a table of contents and a language menu, then only the content remains', async () => {
    const html =
      '<html><body><nav><a href="/">Home</a><a href="/about">About</a></nav>' +
      '<div id="toc"><button>Toggle the table of contents</button></div>' +
      '<div class="language-menu">154 languages</div>' +
      '<h1>Ducks</h1><p>Ducks are birds.</p></body></html>';
    const { markdown } = await convertDocument(Buffer.from(html), 'html', { enhanced: false });
    expect(markdown).toBe('# Ducks\n\nDucks are birds.\n');
  });

  it('When an XML file is an RSS feed, then it becomes a titled list of entries instead of raw XML', async () => {
    const rss =
      '<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><description>Daily</description>' +
      '<item><title>First</title><link>https://x.test/1</link><pubDate>Mon, 01 Jan 2026</pubDate><description>&lt;p&gt;Hello &lt;b&gt;there&lt;/b&gt;&lt;/p&gt;</description></item>' +
      '</channel></rss>';
    const { markdown, metadata } = await convertDocument(Buffer.from(rss), 'xml', { enhanced: false });
    expect(markdown).toBe('# News\n\nDaily\n\n## [First](https://x.test/1)\n\n*Mon, 01 Jan 2026*\n\nHello **there**\n');
    expect(metadata.title).toBe('News');
  });

  it('When an XML file is an RSS 1.0 (RDF) feed, then its channel gives the title beside the items; other RDF stays data', async () => {
    const rdf =
      '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">' +
      '<channel rdf:about="https://x.test/"><title>Field notes</title><link>https://x.test/</link><description>Weekly</description></channel>' +
      '<item rdf:about="https://x.test/1"><title>Frost</title><link>https://x.test/1</link><dc:date>2026-01-05</dc:date><description>Cover the beds.</description></item></rdf:RDF>';
    const feed = await convertDocument(Buffer.from(rdf), 'xml', { enhanced: false });
    expect(feed.markdown).toBe(
      '# Field notes\n\nWeekly\n\n## [Frost](https://x.test/1)\n\n*2026-01-05*\n\nCover the beds.\n',
    );
    expect(feed.metadata.title).toBe('Field notes');
    const foaf =
      '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:foaf="http://xmlns.com/foaf/0.1/">' +
      '<foaf:Person rdf:about="#me"><foaf:name>Alice Example</foaf:name></foaf:Person></rdf:RDF>';
    const data = await convertDocument(Buffer.from(foaf), 'xml', { enhanced: false });
    expect(data.markdown).toContain('<foaf:name>Alice Example</foaf:name>');
  });

  it('When an Atom entry holds XHTML content (type="xhtml"), then its paragraphs, lists and code stay apart', async () => {
    const atom =
      '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Notes</title><entry><title>Release</title>' +
      '<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>New <strong>features</strong>:</p><ul><li>Tables</li><li>Notes</li></ul><pre>npm i x</pre></div></content></entry></feed>';
    const { markdown } = await convertDocument(Buffer.from(atom), 'xml', { enhanced: false });
    expect(markdown).toBe('# Notes\n\n## Release\n\nNew **features**:\n\n- Tables\n- Notes\n\n```\nnpm i x\n```\n');
  });

  it('When feed entries have an author and a summary beside their full text, then both are kept; a summary that is an excerpt of the full text is not', async () => {
    const atom =
      '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>' +
      '<entry><title>Shards</title><author><name>Priya Nair</name></author><updated>2026-05-01</updated>' +
      '<summary>Why we split one table.</summary><content type="html">&lt;p&gt;We split the &lt;b&gt;jobs&lt;/b&gt; table.&lt;/p&gt;</content></entry>' +
      '<entry><title>Cron</title><summary>Jobs run on the queue [&amp;#8230;] The post Cron appeared first on Blog.</summary><content type="html">&lt;p&gt;Jobs run on the queue.&lt;/p&gt;&lt;p&gt;More.&lt;/p&gt;</content></entry></feed>';
    const { markdown } = await convertDocument(Buffer.from(atom), 'xml', { enhanced: false });
    expect(markdown).toBe(
      '# Blog\n\n## Shards\n\nPriya Nair\n\n*2026-05-01*\n\nWhy we split one table.\n\nWe split the **jobs** table.\n\n## Cron\n\nJobs run on the queue.\n\nMore.\n',
    );
  });
});
