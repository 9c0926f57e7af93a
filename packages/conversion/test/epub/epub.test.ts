import { strToU8, zipSync } from 'fflate';
import { convertDocument } from '../../src';

const std = { enhanced: false };
const page = (title: string, body: string) =>
  strToU8(
    `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`,
  );

function epub(files: Record<string, Uint8Array>, opf: string): Buffer {
  return Buffer.from(
    zipSync({
      mimetype: strToU8('application/epub+zip'),
      'META-INF/container.xml': strToU8(
        '<container><rootfiles><rootfile full-path="OPS/content.opf"/></rootfiles></container>',
      ),
      'OPS/content.opf': strToU8(opf),
      ...files,
    }),
  );
}

/** The package of a book of one chapter, `href` under OPS/. */
const oneChapterOpf = (href: string) =>
  `<package><metadata/><manifest><item id="a" href="${href}"/></manifest><spine><itemref idref="a"/></spine></package>`;

/** A book of one chapter (`body`) styled by one stylesheet (`css`), with the OPF's `metadata`. */
const styledBook = (css: string, body: string, metadata = '<metadata/>') =>
  epub(
    { 'OPS/s1.xhtml': page('', body), 'OPS/s.css': strToU8(css) },
    `<package xmlns:dc="http://purl.org/dc/elements/1.1/">${metadata}<manifest><item id="css" href="s.css" media-type="text/css"/>` +
      '<item id="a" href="s1.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>',
  );

describe('EPUB', () => {
  it('When an EPUB 2 book lists its contents page in the guide, then that page is skipped and chapters keep their structure', async () => {
    const input = epub(
      {
        'OPS/toc.xhtml': page('Contents', '<h1>Contents</h1><p><a href="ch%201.xhtml">Ein Anfang</a></p>'),
        'OPS/ch 1.xhtml': page(
          'Eins',
          '<h1>Ein Anfang</h1><p>Grüße <em>aus</em> Köln.</p><ul><li>eins<ul><li>zwei</li></ul></li></ul>',
        ),
        'OPS/ch2.xhtml': page(
          'Zwei',
          '<h2>Tabelle</h2><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>',
        ),
      },
      '<package xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Buch</dc:title><dc:creator>Jörg</dc:creator></metadata>' +
        '<manifest><item id="toc" href="toc.xhtml"/><item id="c1" href="ch%201.xhtml"/><item id="c2" href="ch2.xhtml"/></manifest>' +
        '<spine><itemref idref="toc"/><itemref idref="c1"/><itemref idref="c2"/></spine>' +
        '<guide><reference type="toc" href="toc.xhtml"/></guide></package>',
    );
    const { markdown, metadata } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      '- **Title:** Buch\n- **Authors:** Jörg\n\n# Ein Anfang\n\nGrüße *aus* Köln.\n\n- eins\n  - zwei\n\n## Tabelle\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n',
    );
    expect(metadata).toEqual({ title: 'Buch', author: 'Jörg', page_count: 2 });
  });

  it('When the guide names as contents a page that also holds the title page and the first chapter (Project Gutenberg), then that page is read', async () => {
    const input = epub(
      {
        'OPS/h-0.xhtml': page(
          'Book',
          '<h1>A Winter Book</h1><p>This ebook is for the use of anyone anywhere.</p>' +
            '<h2 id="toc">Contents</h2><p><a href="#ch1">The Sun</a></p><p><a href="h-1.xhtml">The Ice</a></p>' +
            '<h2 id="ch1">The Sun</h2><p>It was cold, and the snow lay deep in the valley.</p>',
        ),
        'OPS/h-1.xhtml': page('Ice', '<h2>The Ice</h2><p>The lake froze.</p>'),
      },
      '<package><metadata/><manifest><item id="h0" href="h-0.xhtml"/><item id="h1" href="h-1.xhtml"/></manifest>' +
        '<spine><itemref idref="h0"/><itemref idref="h1"/></spine>' +
        '<guide><reference type="toc" title="CONTENTS" href="h-0.xhtml#toc"/></guide></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      '# A Winter Book\n\nThis ebook is for the use of anyone anywhere.\n\n## Contents\n\nThe Sun\n\nThe Ice\n\n' +
        '## The Sun\n\nIt was cold, and the snow lay deep in the valley.\n\n## The Ice\n\nThe lake froze.\n',
    );
  });

  it('When two chapters each have a footnote, then the notes are numbered across the book and never share a label', async () => {
    const chapter = (text: string, note: string) =>
      page(
        text,
        `<p>${text}<a epub:type="noteref" href="#n1">1</a>.</p><aside epub:type="footnote" id="n1"><p>${note}</p></aside>`,
      );
    const input = epub(
      { 'OPS/a.xhtml': chapter('Alpha', 'Note A.'), 'OPS/b.xhtml': chapter('Beta', 'Note B.') },
      '<package><metadata/><manifest><item id="a" href="a.xhtml"/><item id="b" href="b.xhtml"/></manifest>' +
        '<spine><itemref idref="a"/><itemref idref="b"/></spine></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe('Alpha[^1].\n\n[^1]: Note A.\n\nBeta[^2].\n\n[^2]: Note B.\n');
  });

  it('When an EPUB 2 chapter marks its notes only by class (pandoc, kramdown), then referenced items become [^n] notes and an unreferenced class-marked list stays a list', async () => {
    const chapter = (text: string, note: string) =>
      page(
        text,
        `<p>${text}<a href="#fn1" class="footnote-ref" id="fnref1">1</a>.</p>` +
          `<div class="footnotes footnotes-end-of-document"><hr /><ol><li id="fn1"><p>${note}<a href="#fnref1" class="footnote-back">↩︎</a></p></li></ol></div>`,
      );
    const input = epub(
      {
        'OPS/a.xhtml': chapter('Alpha', 'Note A.'),
        'OPS/b.xhtml': chapter('Beta', 'Note B.'),
        'OPS/c.xhtml': page(
          'Gamma',
          '<p>Gamma.</p><div class="footnotes"><ol><li id="x1">Not pointed at.</li></ol></div>',
        ),
      },
      '<package version="2.0"><metadata/><manifest><item id="a" href="a.xhtml"/><item id="b" href="b.xhtml"/><item id="c" href="c.xhtml"/></manifest>' +
        '<spine toc="ncx"><itemref idref="a"/><itemref idref="b"/><itemref idref="c"/></spine></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      'Alpha[^1].\n\n[^1]: Note A.\n\nBeta[^2].\n\n[^2]: Note B.\n\nGamma.\n\n1. Not pointed at.\n',
    );
  });

  it("When note marks are plain links (InDesign) to marked notes in the same or another page, then they become [^n] notes without the notes' numbers linking back", async () => {
    const input = epub(
      {
        'OPS/text/ch1.xhtml': page(
          'One',
          '<p>Robin.<a class="_idFootnoteLink" href="notes.xhtml#fn-0" id="fn-0-back">1</a> Wren.<a class="_idFootnoteLink" href="ch1.xhtml#fn-1" id="fn-1-back">2</a> ' +
            'See <a href="ch2.xhtml#top">chapter 2</a>.</p><aside epub:type="footnote" id="fn-1"><p><a href="ch1.xhtml#fn-1-back">2</a>\tTroglodytes.</p></aside>',
        ),
        'OPS/text/notes.xhtml': page(
          'Notes',
          '<aside class="_idFootnote" epub:type="footnote" id="fn-0"><p><a class="_idFootnoteAnchor" href="ch1.xhtml#fn-0-back">1</a>\tErithacus.</p></aside>',
        ),
      },
      '<package><metadata/><manifest><item id="a" href="text/ch1.xhtml"/><item id="n" href="text/notes.xhtml"/></manifest>' +
        '<spine><itemref idref="a"/><itemref idref="n"/></spine></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe('Robin.[^1] Wren.[^2] See chapter 2.\n\n[^2]: Troglodytes.\n\n[^1]: Erithacus.\n');
  });

  it('When only fonts are obfuscated in encryption.xml, then the book still converts', async () => {
    const input = epub(
      {
        'META-INF/encryption.xml': strToU8(
          '<encryption><EncryptedData><CipherData><CipherReference URI="OPS/fonts/a.otf"/></CipherData></EncryptedData></encryption>',
        ),
        'OPS/a.xhtml': page('A', '<p>Readable.</p>'),
      },
      oneChapterOpf('a.xhtml'),
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe('Readable.\n');
  });

  it('When chapters are encrypted, then it fails with encrypted_file', async () => {
    const input = epub(
      {
        'META-INF/encryption.xml': strToU8(
          '<encryption><EncryptedData><CipherData><CipherReference URI="OPS/a.xhtml"/></CipherData></EncryptedData></encryption>',
        ),
        'OPS/a.xhtml': strToU8('binary'),
      },
      oneChapterOpf('a.xhtml'),
    );
    await expect(convertDocument(input, 'epub', std)).rejects.toMatchObject({ code: 'encrypted_file' });
  });

  it('When encryption.xml lists a chapter whose bytes are plain XHTML, or ciphertext outside the reading order, then the book converts; an enciphered chapter still fails with encrypted_file', async () => {
    const listing = strToU8(
      '<encryption><EncryptedData><CipherData><CipherReference URI="OPS/a.xhtml"/></CipherData></EncryptedData></encryption>',
    );
    const clear = epub(
      { 'META-INF/encryption.xml': listing, 'OPS/a.xhtml': page('A', '<p>In the clear.</p>') },
      oneChapterOpf('a.xhtml'),
    );
    expect((await convertDocument(clear, 'epub', std)).markdown).toBe('In the clear.\n');
    // AES output: bytes of every value, one of them a '<' at the start by chance.
    const cipher = Uint8Array.from({ length: 400 }, (_, i) => (i === 0 ? 0x3c : (i * 151 + 7) % 256));
    const locked = epub({ 'META-INF/encryption.xml': listing, 'OPS/a.xhtml': cipher }, oneChapterOpf('a.xhtml'));
    await expect(convertDocument(locked, 'epub', std)).rejects.toMatchObject({ code: 'encrypted_file' });
    // Ciphertext in a file outside the reading order (an obfuscated resource) leaves the chapters readable.
    const aside = strToU8(
      '<encryption><EncryptedData><CipherData><CipherReference URI="OPS/data.xml"/></CipherData></EncryptedData></encryption>',
    );
    const outside = epub(
      { 'META-INF/encryption.xml': aside, 'OPS/a.xhtml': page('A', '<p>Readable.</p>'), 'OPS/data.xml': cipher },
      oneChapterOpf('a.xhtml'),
    );
    expect((await convertDocument(outside, 'epub', std)).markdown).toBe('Readable.\n');
  });

  it('When a chapter links to another file of the book, then the link keeps its text only, and links out of the book stay', async () => {
    const input = epub(
      {
        'OPS/a.xhtml': page(
          'A',
          '<p>See <a href="b.xhtml#s2">section 2</a>, <a href="#top">the top</a> and <a href="https://example.org/x">the site</a>.</p>',
        ),
      },
      oneChapterOpf('a.xhtml'),
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe('See section 2, the top and [the site](https://example.org/x).\n');
  });

  it('When a fixed-layout book draws each page as SVG text, then the text is read in page order', async () => {
    const svgPage = (lines: string[]) =>
      page(
        'p',
        `<div class="page"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 500"><text>${lines
          .map((l, i) => `<tspan x="0" y="${i * 12}">${l}</tspan>`)
          .join('')}</text></svg></div>`,
      );
    const input = epub(
      {
        'OPS/p1.xhtml': svgPage(['Il en avait souvent rêvé, au moins', 'depuis la communale.']),
        'OPS/p2.xhtml': svgPage(['Dans la petite école de Bothoa,', 'quand le maître accrochait les cartes.']),
      },
      '<package><metadata/><manifest><item id="p1" href="p1.xhtml" properties="svg"/><item id="p2" href="p2.xhtml" properties="svg"/></manifest>' +
        '<spine><itemref idref="p1"/><itemref idref="p2"/></spine></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      'Il en avait souvent rêvé, au moins depuis la communale.\n\nDans la petite école de Bothoa, quand le maître accrochait les cartes.\n',
    );
  });

  it('When a chapter names its sections and boxes like page chrome (id "sec-nav", class "sidebar", "menu", "toc"), then they are read', async () => {
    const body =
      '<section id="sec-nav"><h2>2.2 Navigation</h2><p>Readers move through the spine.</p></section>' +
      '<aside class="sidebar"><p>Box: a note beside the text.</p></aside>' +
      '<div class="menu"><p>Soup, then fish.</p></div>' +
      '<nav class="toc"><ol><li><a href="#sec-nav">2.2 Navigation</a></li></ol></nav>';
    const input = epub({ 'OPS/a.xhtml': page('A', body) }, oneChapterOpf('a.xhtml'));
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      '## 2.2 Navigation\n\nReaders move through the spine.\n\nBox: a note beside the text.\n\nSoup, then fish.\n\n1. 2.2 Navigation\n',
    );
    // The same page as a web page keeps its chrome rule: the named sections and boxes are left out.
    const web = await convertDocument(Buffer.from(`<html><body>${body}<p>Body.</p></body></html>`), 'html', std);
    expect(web.markdown).toBe('Body.\n');
  });

  it('When a chapter opens with its own contents list in a <nav>, then the list is kept, while the navigation document and hidden parts stay out', async () => {
    const navDoc = page(
      'Contents',
      '<nav epub:type="toc"><h1>Contents</h1><ol><li><a href="part1.xhtml">Part 1</a></li></ol></nav>',
    );
    const part = page(
      'Part 1',
      '<h1>Part 1</h1><nav epub:type="toc" id="part1-toc"><h2>In this part</h2><ol>' +
        '<li><a href="#s1">1.1 Scope</a></li><li><a href="#s2">1.2 Terms</a><ol><li><a href="#s2a">1.2.1 Book</a></li></ol></li></ol></nav>' +
        '<div role="navigation"><ul><li><a href="part2.xhtml">Next: Part 2</a></li></ul></div>' +
        '<div aria-hidden="true"><p>Decoration.</p></div>' +
        '<section id="s1"><h2>1.1 Scope</h2><p>What the part covers.</p></section>',
    );
    const input = epub(
      { 'OPS/nav.xhtml': navDoc, 'OPS/part1.xhtml': part },
      '<package><metadata/><manifest><item id="nav" href="nav.xhtml" properties="nav"/><item id="p1" href="part1.xhtml"/></manifest>' +
        '<spine><itemref idref="nav"/><itemref idref="p1"/></spine></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      '# Part 1\n\n## In this part\n\n1. 1.1 Scope\n2. 1.2 Terms\n   1. 1.2.1 Book\n\n- Next: Part 2\n\n## 1.1 Scope\n\nWhat the part covers.\n',
    );
    // A web page keeps its rule: <nav> and navigation roles are page chrome.
    const web = await convertDocument(Buffer.from(part), 'html', std);
    expect(web.markdown).toBe('# Part 1\n\n## 1.1 Scope\n\nWhat the part covers.\n');
  });

  it('When the OPF gives title, creators, publisher, language and description, then the facts list opens the book without the language tag', async () => {
    const input = epub(
      { 'OPS/a.xhtml': page('A', '<p>Text.</p>') },
      '<package xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Buch</dc:title><dc:creator>Jörg</dc:creator>' +
        '<dc:creator>Ana</dc:creator><dc:publisher>Verlag</dc:publisher><dc:language>de-DE</dc:language>' +
        '<dc:description>&lt;p&gt;Ein &lt;b&gt;kurzes&lt;/b&gt; Buch.&lt;/p&gt;</dc:description></metadata>' +
        '<manifest><item id="a" href="a.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      '- **Title:** Buch\n- **Authors:** Jörg, Ana\n- **Publisher:** Verlag\n- **Description:** Ein kurzes Buch.\n\nText.\n',
    );
  });

  it('When chapters mark notes kept in an endnotes file, then the marks and the notes become [^n] notes sharing labels, and the back links go', async () => {
    const mark = (n: number) => `<a href="notes.xhtml#note-${n}" id="noteref-${n}" epub:type="noteref">${n}</a>`;
    const input = epub(
      {
        'OPS/text/a.xhtml': page('A', `<p>Alpha${mark(1)} and beta${mark(2)}.</p>`),
        'OPS/text/b.xhtml': page(
          'B',
          `<p>Gamma${mark(3)}, then <a href="notes.xhtml#plain" epub:type="noteref">a mark to a paragraph</a>.</p>`,
        ),
        'OPS/text/notes.xhtml': page(
          'Notes',
          '<section epub:type="endnotes"><h2>Endnotes</h2><ol>' +
            [1, 2, 3]
              .map(
                (n) =>
                  `<li id="note-${n}"><p>Note ${n}. <a href="a.xhtml#noteref-${n}" epub:type="backlink">↩</a></p></li>`,
              )
              .join('') +
            '</ol></section><p id="plain">A plain paragraph.</p>',
        ),
      },
      '<package><metadata/><manifest><item id="a" href="text/a.xhtml"/><item id="b" href="text/b.xhtml"/><item id="n" href="text/notes.xhtml"/></manifest>' +
        '<spine><itemref idref="a"/><itemref idref="b"/><itemref idref="n"/></spine></package>',
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      'Alpha[^1] and beta[^2].\n\nGamma[^3], then a mark to a paragraph.\n\n## Endnotes\n\nA plain paragraph.\n\n' +
        '[^1]: Note 1.\n\n[^2]: Note 2.\n\n[^3]: Note 3.\n',
    );
  });

  it('When a note mark names its own page in its address (ch1.xhtml#fn1 from ch1.xhtml), then it is a note like #fn1', async () => {
    const input = epub(
      {
        'OPS/ch1.xhtml': page(
          'A',
          '<p>Alpha<a epub:type="noteref" href="ch1.xhtml#fn1">*</a>.</p><aside epub:type="footnote" id="fn1"><p>Note A.</p></aside>',
        ),
      },
      oneChapterOpf('ch1.xhtml'),
    );
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe('Alpha[^1].\n\n[^1]: Note A.\n');
  });

  it('When a book marks its headings only by bold, larger classes (LibreOffice export), then they are headings ranked by size (bold in another face at body size below them) and the placeholder title and author go', async () => {
    const css =
      ".para0 {\n  margin: 0.33in 0px 0in 0px;\n}\n.span0 {\n  font-family: 'Calibri';\n  font-size: 16.0000pt;\n  font-weight: bold;\n}\n" +
      '.span2 {\n  font-size: 14.0000pt;\n  font-weight: bold;\n}\n.span1 {\n}\n.span3 {\n  font-weight: bold;\n}\n' +
      ".span4 {\n  color: #4f81bd;\n  font-family: 'Calibri';\n  font-size: 12.0000pt;\n  font-weight: bold;\n}\n";
    const p = (span: string, text: string) => `<p class="para0"><span class="${span}">${text}</span></p>`;
    const body =
      p('span0', 'Board Minutes') +
      p('span1', 'The board met in March.') +
      p('span2', 'Decisions') +
      p('span4', 'Budget') +
      p('span3', 'Approved.') +
      p('span1', 'The budget was approved.') +
      `<table><tr><td>${p('span2', 'Item')}</td><td>${p('span1', 'Cost')}</td></tr><tr><td>${p('span1', 'Rent')}</td><td>${p('span1', '12')}</td></tr></table>`;
    const input = styledBook(
      css,
      body,
      '<metadata><dc:title>Unknown Title</dc:title><dc:creator>Unknown Author</dc:creator></metadata>',
    );
    const { markdown, metadata } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      '# Board Minutes\n\nThe board met in March.\n\n## Decisions\n\n### Budget\n\n**Approved.**\n\nThe budget was approved.\n\n| **Item** | Cost |\n| --- | --- |\n| Rent | 12 |\n',
    );
    expect(metadata).toEqual({ title: '', author: '', page_count: 1 });
  });

  it('When a book styles bold, larger classes but its paragraphs are long or all in that type, then none becomes a heading', async () => {
    const css = '.big { font-size: 1.5em; font-weight: 700 }';
    const long = 'A long bold paragraph that runs on. '.repeat(8).trim();
    const input = styledBook(css, `<p class="big">${long}</p><p class="big">Short bold line</p>`);
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(`${long}\n\nShort bold line\n`);
  });

  it("When a book's headings are larger but not bold (Word's Title and Heading 1 and 2 through LibreOffice), then they are headings, and a note's number linking back to its mark goes", async () => {
    const css =
      '.span0 { font-size: 28.0000pt; }\n.span1 { color: #2e74b5; font-size: 16.0000pt; }\n' +
      '.span3 { color: #2e74b5; font-size: 13.0000pt; }\n.span5 { font-size: 13.0000pt; }\n.span2 {\n}\n';
    const p = (span: string, text: string) => `<p class="para0"><span class="${span}">${text}</span></p>`;
    const body =
      p('span0', 'Service Agreement') +
      p('span1', 'Parties') +
      '<p class="para0"><span class="span2">Made between the parties</span><sup id="calledF1"><a epub:type="noteref" href="#dataF1">1</a></sup><span class="span2">.</span></p>' +
      p('span3', 'Fees') +
      p('span5', 'A slightly larger plain line.') +
      p('span2', 'Fees are due monthly, as the schedule sets out in its second part.') +
      '<aside epub:type="footnote" id="dataF1"><p class="para0"><span class="span2"><sup><a href="#calledF1">1</a></sup>Source: survey.</span></p></aside>';
    const input = styledBook(css, body);
    const { markdown } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe(
      '# Service Agreement\n\n## Parties\n\nMade between the parties[^1].\n\n### Fees\n\nA slightly larger plain line.\n\n' +
        'Fees are due monthly, as the schedule sets out in its second part.\n\n[^1]: Source: survey.\n',
    );
  });
  it("When the container is missing or names the package document in the wrong case, then the archive's .opf is read", async () => {
    const opf =
      '<package xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Loose</dc:title></metadata>' +
      '<manifest><item id="a" href="a.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>';
    const chapter = page('A', '<h1>Start</h1><p>Words of the book.</p>');
    const withoutContainer = Buffer.from(
      zipSync({
        mimetype: strToU8('application/epub+zip'),
        'OEBPS/Content.opf': strToU8(opf),
        'OEBPS/a.xhtml': chapter,
      }),
    );
    const wrongCase = Buffer.from(
      zipSync({
        mimetype: strToU8('application/epub+zip'),
        'META-INF/container.xml': strToU8(
          '<container><rootfiles><rootfile full-path="oebps/content.opf"/></rootfiles></container>',
        ),
        'OEBPS/Content.opf': strToU8(opf),
        'OEBPS/a.xhtml': chapter,
      }),
    );
    for (const input of [withoutContainer, wrongCase]) {
      expect((await convertDocument(input, 'epub', std)).markdown).toBe(
        '- **Title:** Loose\n\n# Start\n\nWords of the book.\n',
      );
    }
  });
});
