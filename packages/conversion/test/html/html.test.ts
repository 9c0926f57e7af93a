import iconv from 'iconv-lite';
import { convertDocument } from '../../src';

const std = { enhanced: false };
const html = async (source: string) => convertDocument(Buffer.from(source, 'utf8'), 'html', std);

describe('HTML', () => {
  it('When a page has a title, nested lists, a spanned header and a data-URI image, then each is kept as Markdown', async () => {
    const { markdown, metadata } = await html(
      '<html><head><title>Café &amp; Co</title><meta name="author" content="Zoë"></head><body>' +
        '<h1>Menü</h1><ul><li>Tea<ul><li>Green</li></ul></li><li>Coffee</li></ul>' +
        '<table><thead><tr><th colspan="2">Price</th></tr></thead><tbody><tr><td>1 €</td><td>2 €</td></tr></tbody></table>' +
        '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="Logo"></p></body></html>',
    );
    expect(markdown).toBe(
      '# Menü\n\n- Tea\n  - Green\n- Coffee\n\n| Price | Price |\n| --- | --- |\n| 1 € | 2 € |\n\n![Logo](#)\n',
    );
    expect(metadata).toEqual({ title: 'Café & Co', author: 'Zoë', page_count: 1 });
  });

  it('When a colspan or rowspan has characters after its number (3" or 2px), then the cell spans as browsers read it', async () => {
    const { markdown } = await html(
      '<table><tr><td>A1</td><td>B1</td><td>C1</td><td>D1</td></tr>' +
        '<tr><td colspan=\'3"\'>Wide</td><td rowspan="2px">Tall</td></tr><tr><td>A3</td><td>B3</td><td>C3</td></tr></table>',
    );
    expect(markdown).toBe(
      '| A1 | B1 | C1 | D1 |\n| --- | --- | --- | --- |\n| Wide | Wide | Wide | Tall |\n| A3 | B3 | C3 | Tall |\n',
    );
  });

  it('When text follows a picture without a space (a caption typed after it), then a space sets them apart; punctuation, pictures side by side and symbols drawn as pictures stay as they are', async () => {
    const { markdown } = await html(
      '<p><img alt="The harbour" src="a.png">Figure 1: The harbour at dawn</p>' +
        '<p>Icons <img alt="gear" src="g.png"><img alt="cog" src="c.png">, then <img alt="x" src="x.png"> text.</p>' +
        '<p>CaLLM<img alt="™" src="tm.png"> and a<img alt="diagram" src="d.png">b.</p>',
    );
    expect(markdown).toBe(
      '![The harbour](#) Figure 1: The harbour at dawn\n\nIcons ![gear](#)![cog](#), then ![x](#) text.\n\n' +
        'CaLLM![™](#) and a ![diagram](#) b.\n',
    );
  });

  it('When code sits in a bare pre with a language class, then it becomes a fenced block in that language', async () => {
    const { markdown } = await html(
      '<div class="highlight highlight-source-rust"><pre>\n    fn main() {\n        println!("&lt;hi&gt;");\n    }\n</pre></div><p>Run <kbd>cargo run</kbd> with <var>n</var>.</p>',
    );
    expect(markdown).toBe('```rust\nfn main() {\n    println!("<hi>");\n}\n```\n\nRun `cargo run` with *n*.\n');
  });

  it('When code lines are broken by <br> or wrapped in a block each, then each stays its own line and line numbers are left out', async () => {
    const { markdown } = await html(
      '<pre>one<br>two<br/>  three</pre>' +
        '<pre><code class="language-js"><div class="line"><span class="linenos">1</span>a = 1</div><div class="line"><span class="linenos">2</span>b = 2</div></code></pre>',
    );
    expect(markdown).toBe('```\none\ntwo\n  three\n```\n\n```js\na = 1\nb = 2\n```\n');
  });

  it('When pandoc highlighted the code (class "sourceCode python", numbered lines too), then the fence names the language', async () => {
    const { markdown } = await html(
      '<div class="sourceCode" id="cb1"><pre class="sourceCode python"><code class="sourceCode python"><span id="cb1-1"><span class="im">import</span> os</span></code></pre></div>' +
        '<div class="sourceCode"><pre class="sourceCode numberSource sql numberLines"><code class="sourceCode sql">SELECT 1</code></pre></div>' +
        '<div class="sourceCode"><pre class="sourceCode"><code class="sourceCode">plain</code></pre></div>',
    );
    expect(markdown).toBe('```python\nimport os\n```\n\n```sql\nSELECT 1\n```\n\n```\nplain\n```\n');
  });

  it('When a Google Docs export writes each list level as its own flat list (lst-kix_ID-N) and the title as p.title, then the levels nest and the title is a heading', async () => {
    const list = (tag: string, id: string, level: number, items: string[]) =>
      `<${tag} class="c8 lst-kix_${id}-${level} start">${items.map((i) => `<li class="c1"><span class="c0">${i}</span></li>`).join('')}</${tag}>`;
    const { markdown } = await html(
      '<body class="doc-content"><p class="c3 title"><span class="c0">Team Handbook</span></p><p class="c3 subtitle"><span>2024</span></p>' +
        list('ul', 'abc', 0, ['Get a laptop', 'Join the chat']) +
        list('ul', 'abc', 1, ['Engineering']) +
        list('ul', 'abc', 2, ['Alerts']) +
        list('ul', 'abc', 0, ['Read the wiki']) +
        list('ul', 'xyz', 1, ['Another list']) +
        '<p>Between.</p>' +
        list('ul', 'abc', 1, ['After a paragraph']) +
        '</body>',
    );
    expect(markdown).toBe(
      '# Team Handbook\n\n## 2024\n\n- Get a laptop\n- Join the chat\n  - Engineering\n    - Alerts\n- Read the wiki\n\n' +
        '- Another list\n\nBetween.\n\n- After a paragraph\n',
    );
  });

  it('When runs are bold or italic only by their class in the head <style> or their style attribute (Google Docs), then they are strong and emphasis', async () => {
    const { markdown } = await html(
      '<html><head><style>.c0{font-weight:400;font-style:normal}.c2{font-weight:700}.c4{font-style:italic}p.c9,.c5{font-weight:bold;font-style:italic}</style></head><body>' +
        '<h1><span class="c2">Heading</span></h1>' +
        '<p><span class="c0">Plain, </span><span class="c2">bold</span><span class="c0">, </span><span class="c4">italic</span>' +
        '<span class="c0">, </span><span class="c5">both</span><span class="c0"> and </span><span style="font-weight: 600">inline</span>' +
        '<span class="c2 c0"> unbolded</span>.</p></body></html>',
    );
    expect(markdown).toBe('# Heading\n\nPlain, **bold**, *italic*, ***both*** and **inline** unbolded.\n');
  });

  it('When runs are struck through only by their class or style attribute (Google Docs, shop prices), then they are strike-through', async () => {
    const { markdown } = await html(
      '<html><head><style>.c7{text-decoration:line-through}.c8{color:#1155cc;text-decoration:underline}.c1{font-weight:700}</style></head><body>' +
        '<p><span>The </span><span class="c7">old plan</span><span> is dropped, </span><span class="c1 c7">this too</span>' +
        '<span>; was </span><span style="text-decoration-line: line-through">$20</span><span>, see </span>' +
        '<span class="c8">the link</span>.</p></body></html>',
    );
    expect(markdown).toBe('The ~~old plan~~ is dropped, **~~this too~~**; was ~~$20~~, see the link.\n');
  });

  it('When a description list is given, then terms become bold items with their descriptions nested', async () => {
    const { markdown } = await html(
      '<dl><dt>Coffee</dt><dd>Black hot drink</dd><dt><b>Milk</b></dt><dd>White</dd><dd>Cold</dd></dl>',
    );
    expect(markdown).toBe('- **Coffee**\n  - Black hot drink\n- **Milk**\n  - White\n  - Cold\n');
  });

  it('When links go through a search engine redirect or a script, then the destination is kept and the script link dropped', async () => {
    const target = Buffer.from('https://en.wikipedia.org/wiki/Microsoft').toString('base64url');
    const { markdown } = await html(
      `<p><a href="https://www.bing.com/ck/a?!&amp;&amp;p=abc&amp;u=a1${target}&amp;ntb=1">Microsoft</a> <a href="javascript:void(0)">Feedback</a></p>`,
    );
    expect(markdown).toBe('[Microsoft](https://en.wikipedia.org/wiki/Microsoft) Feedback\n');
  });

  it('When a table is marked presentational, then its cells are read as the page blocks they hold, row by row', async () => {
    const { markdown } = await html(
      '<table role="presentation"><tr><td><h2>News</h2><ul><li>One</li><li>Two</li></ul></td>' +
        '<td><p>Side</p><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></td></tr></table>',
    );
    expect(markdown).toBe('## News\n\n- One\n- Two\n\nSide\n\n| k | v |\n| --- | --- |\n| a | 1 |\n');
  });

  it('When headings carry permalink anchors and notes carry back links, then those symbol-only links are left out', async () => {
    const { markdown } = await html(
      '<h2 id="setup">Setup<a class="hash-link" href="#setup">&#8203;</a></h2><h3>API<a href="#api" title="Permalink">¶</a></h3>' +
        '<p>Fact.<sup><a href="#fn1" id="r1">1</a></sup> <a href="#top">Back to top</a></p>' +
        '<ol><li id="fn1">Note. <a href="#r1" class="footnote-back">↩︎</a></li></ol>',
    );
    expect(markdown).toBe('## Setup\n\n### API\n\nFact.[1](#fn1) [Back to top](#top)\n\n1. Note.\n');
  });

  it('When a table cell holds a nested table, then its cells are flattened with spaces between them', async () => {
    const { markdown } = await html(
      '<table><tr><th>A</th><th>B</th></tr><tr><td><table><tr><td>x1</td><td>x2</td></tr></table></td><td>y</td></tr></table>',
    );
    expect(markdown).toBe('| A | B |\n| --- | --- |\n| x1 x2 | y |\n');
  });

  it('When tables without header cells lay out a page (text in one column, beside spacer and icon columns), then their cells are read as blocks', async () => {
    const { markdown } = await html(
      '<table id="main"><tr><td><table class="item"><tr><td class="rank"></td><td><img src="up.gif"></td><td><a href="https://x.test">Show HN: a converter</a></td></tr>' +
        '<tr><td colspan="2"></td><td>142 points by alice</td></tr></table></td></tr>' +
        '<tr><td><table><tr><td><img src="s.gif" width="40"></td><td><div class="comment"><p>How does it compare?</p></div></td></tr></table></td></tr></table>' +
        '<table><tr><td><b>Name</b></td><td><b>Role</b></td></tr><tr><td>Ana</td><td>CFO</td></tr></table>',
    );
    expect(markdown).toBe(
      '[Show HN: a converter](https://x.test)\n\n142 points by alice\n\nHow does it compare?\n\n| **Name** | **Role** |\n| --- | --- |\n| Ana | CFO |\n',
    );
  });

  it('When hidden elements and scripts are present, then their text is not in the Markdown', async () => {
    const { markdown } = await html(
      '<p>Shown</p><p hidden>Secret</p><div style="display:none">Gone</div><script>var x = 1;</script>',
    );
    expect(markdown).toBe('Shown\n');
  });

  it('When the document is empty, then the Markdown is empty', async () => {
    const { markdown, metadata } = await html('<html><body></body></html>');
    expect(markdown).toBe('');
    expect(metadata).toEqual({ title: '', author: '', page_count: 1 });
  });
});

describe('HTML structure', () => {
  it('When elements nest 100,000 deep, then the page converts without overflowing the stack and keeps its text', async () => {
    const depth = 100_000;
    const { markdown } = await html(
      `${'<div><span>'.repeat(depth / 2)}deep text${'</span></div>'.repeat(depth / 2)}<p>after</p>`,
    );
    expect(markdown).toBe('deep text\n\nafter\n');
  });

  it('When inline formatting nests and repeats, then each marker opens once and HTML white space collapses', async () => {
    const { markdown } = await html(
      '<p>  <em>one <strong>two</strong></em>\n <b><b>three</b></b>  <i>fo<i>ur</i></i> <del>five</del><br>- six</p>',
    );
    expect(markdown).toBe('*one **two*** **three** *four* ~~five~~\\\n\\- six\n');
  });

  it('When a list is written straight inside a list and an ordered list has a start, then nesting and numbering are kept', async () => {
    const { markdown } = await html('<ol start="3"><li>c</li><ol><li>c1</li></ol><li>d</li></ol>');
    expect(markdown).toBe('3. c\n   1. c1\n4. d\n');
  });
});

describe('HTML page chrome', () => {
  it('When a page is only a header, then its heading is kept and the logo nested in the header is still left out', async () => {
    const { markdown } = await html(
      '<body><div class="nav-header"><span class="nav-logo"><img src="l.svg" alt="Company logo"></span>' +
        '<h2><a href="/home">Home</a></h2></div></body>',
    );
    expect(markdown).toBe('## [Home](/home)\n');
  });

  it('When a page is only chrome nested in chrome, then everything it has is kept rather than nothing', async () => {
    const { markdown } = await html('<nav><div class="menu"><a href="/a">Only link</a></div></nav>');
    expect(markdown).toBe('[Only link](/a)\n');
  });

  it('When a tab strip has a menu class, then its tab names are kept as a list beside the panel', async () => {
    const { markdown } = await html(
      '<main><div class="tab-menu"><ul id="tabs_menu" role="tablist"><li role="tab">Overview</li><li role="tab">History</li></ul></div>' +
        '<div role="tabpanel"><p>Panel text</p></div></main>',
    );
    expect(markdown).toBe('- Overview\n- History\n\nPanel text\n');
  });

  it('When footer and banner roles sit inside the main content, then they are content; outside it they are chrome', async () => {
    const { markdown } = await html(
      '<body><header role="banner">Site name</header><main><div role="banner"><p>Result title</p></div>' +
        '<div role="contentinfo"><p>Result text</p></div></main><div role="contentinfo">© Site</div></body>',
    );
    expect(markdown).toBe('Result title\n\nResult text\n');
  });

  it('When a page without main or article has a page header and footer (elements, or divs with those ids), then they are left out and a section footer stays', async () => {
    const { markdown } = await html(
      '<body><div id="header"><a href="/">Garden Club</a></div><header><p>Since 1990</p></header>' +
        '<div id="content"><h1>Spring planting</h1><section><p>Plant bulbs.</p><footer><p>Figures from 2009.</p></footer></section></div>' +
        '<div id="footer"><p>Copyright 2009 Garden Club.</p></div><footer><p>Powered by a blog engine.</p></footer></body>',
    );
    expect(markdown).toBe('# Spring planting\n\nPlant bulbs.\n\nFigures from 2009.\n');
  });

  it("When a theme puts the page's footer (with its contentinfo) inside a section, then it is still chrome; a section's own footer stays", async () => {
    const { markdown } = await html(
      '<section class="wrap"><div role="main"><h1>Install</h1><p>Run it.</p><section><p>Part.</p><footer><p>Section note.</p></footer></section></div>' +
        '<footer><div role="navigation"><a href="prev.html">Previous</a></div><div role="contentinfo"><p>© 2026 Frob.</p></div>Built with Sphinx.</footer></section>',
    );
    expect(markdown).toBe('# Install\n\nRun it.\n\nPart.\n\nSection note.\n');
  });

  it('When a page header holds a heading, then it is content', async () => {
    const { markdown } = await html('<body><header><h2>Field notes</h2></header><p>Plant bulbs.</p></body>');
    expect(markdown).toBe('## Field notes\n\nPlant bulbs.\n');
  });

  it('When a page is only a footer, then its text is kept', async () => {
    const { markdown } = await html('<body><footer><p>Contact: office@example.com</p></footer></body>');
    expect(markdown).toBe('Contact: office@example.com\n');
  });

  it('When articles nest inside articles, then each is read once, in order', async () => {
    const { markdown } = await html(
      '<body><p>Chrome</p><article><p>A</p><article><p>B</p></article></article><article><p>C</p></article></body>',
    );
    expect(markdown).toBe('A\n\nB\n\nC\n');
  });
});

describe('HTML size', () => {
  it('When one element holds 200,000 paragraphs and a paragraph 200,000 spans, then the page converts whole', async () => {
    const n = 200_000;
    const { markdown } = await html(`<div>${'<p>x</p>'.repeat(n)}</div><p>${'<span>y </span>'.repeat(n)}</p>`);
    const lines = markdown.split('\n\n');
    expect(lines).toHaveLength(n + 1);
    expect(lines[n]).toBe(`${'y '.repeat(n).trim()}\n`);
  });
});

describe('HTML inline and Word kinds', () => {
  it('When text has superscripts and subscripts, then they stay <sup>/<sub> and a note mark that is only a link stays a link; <q> keeps its quotation marks', async () => {
    const { markdown } = await html(
      '<p>H<sub>2</sub>O, x<sup>2</sup> + y<sup>n-1</sup> and a claim<sup class="reference"><a href="#n1">[1]</a></sup>, <q>quoted</q>.</p>',
    );
    expect(markdown).toBe('H<sub>2</sub>O, x<sup>2</sup> + y<sup>n-1</sup> and a claim[[1]](#n1), “quoted”.\n');
  });

  it('When a superscript has spaces at its edges, nests, holds a back link only or sits in a table cell, then spaces stay outside, tags nest, the back link goes and the cell keeps it', async () => {
    const { markdown } = await html(
      '<h2 id="h">Area<a href="#h"><sup>¶</sup></a></h2><p>e<sup> x<sup>2</sup> </sup>and <b>m<sup>3</sup></b></p>' +
        '<table><tr><th>Gas</th></tr><tr><td>CO<sub>2</sub></td></tr></table>',
    );
    expect(markdown).toBe(
      '## Area\n\ne <sup>x<sup>2</sup></sup> and **m<sup>3</sup>**\n\n| Gas |\n| --- |\n| CO<sub>2</sub> |\n',
    );
  });

  it('When Word saved lists as paragraphs with drawn markers, then they become nested lists without the markers and the Title style a heading', async () => {
    const item = (list: string, level: number, marker: string, text: string) =>
      `<p class=MsoListParagraph style='text-indent:-18.0pt;mso-list:${list} level${level} lfo1'><![if !supportLists]>` +
      `<span style='font-family:Symbol'><span style='mso-list:Ignore'>${marker}<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span>` +
      `<![endif]>${text}<o:p></o:p></p>\n`;
    const { markdown } = await html(
      '<html><body><div class=WordSection1><p class=MsoTitle>Plan<o:p></o:p></p><p class=MsoNormal>Intro<o:p></o:p></p>' +
        item('l0', 1, '·', 'One') +
        '<p class=MsoNormal><o:p>&nbsp;</o:p></p>' +
        item('l0', 2, 'o', 'One <b>inner</b>') +
        item('l0', 1, '·', 'Two') +
        item('l1', 1, '3.', 'Third step') +
        item('l1', 1, '4.', 'Fourth step') +
        '<p class=MsoNormal>After<o:p></o:p></p></div></body></html>',
    );
    expect(markdown).toBe(
      '# Plan\n\nIntro\n\n- One\n  - One **inner**\n- Two\n\n3. Third step\n4. Fourth step\n\nAfter\n',
    );
  });

  it('When Word saved footnotes and endnotes, then their marks become note references and the notes come last', async () => {
    const ref = (kind: string, n: number) =>
      `<a style='mso-${kind}-id:${kind === 'footnote' ? 'ftn' : 'edn'}${n}' href="#_${kind === 'footnote' ? 'ftn' : 'edn'}${n}" name="_${kind === 'footnote' ? 'ftn' : 'edn'}ref${n}"><span class=MsoFootnoteReference>[${n}]</span></a>`;
    const note = (kind: string, n: number, text: string) => {
      const id = `${kind === 'footnote' ? 'ftn' : 'edn'}${n}`;
      return `<div style='mso-element:${kind}' id=${id}><p class=MsoFootnoteText><a style='mso-${kind}-id:${id}' href="#_${id.replace(/\d/, 'ref$&')}" name="_${id}">[${n}]</a> ${text}</p></div>`;
    };
    const { markdown } = await html(
      `<body><div class=WordSection1><p class=MsoNormal>Claim${ref('endnote', 1)} and fact${ref('footnote', 1)}.</p></div>` +
        `<div style='mso-element:footnote-list'><br clear=all><hr align=left size=1 width="33%">${note('footnote', 1, 'A <i>source</i>.')}</div>` +
        `<div style='mso-element:endnote-list'><br clear=all><hr align=left size=1 width="33%">${note('endnote', 1, 'Later.')}</div></body>`,
    );
    expect(markdown).toBe('Claim[^1] and fact[^2].\n\n[^1]: Later.\n\n[^2]: A *source*.\n');
  });

  it('When notes are marked as EPUB or DPUB-ARIA footnotes and referenced, then they become [^n] notes; unreferenced ones stay in place', async () => {
    const { markdown } = await html(
      '<p>Book text<a epub:type="noteref" href="#n1">1</a>, web text<a href="#fn1" role="doc-noteref"><sup>2</sup></a>, elsewhere<a href="#zz">3</a>.</p>' +
        '<aside epub:type="footnote" id="n1"><p>Aside note.</p></aside><aside epub:type="footnote" id="n9"><p>Never referenced.</p></aside>' +
        '<section role="doc-endnotes"><ol><li id="fn1"><p>End <em>note</em>.<a href="#r" role="doc-backlink">back</a></p></li></ol></section>',
    );
    expect(markdown).toBe(
      'Book text[^1], web text[^2], elsewhere[3](#zz).\n\nNever referenced.\n\n[^1]: Aside note.\n\n[^2]: End *note*.\n',
    );
  });
});

describe('HTML chrome beside an article', () => {
  it('When a page without main or article has ads, related links, a ticker, a most-read box, a sign-up form and pagination, then only the story is left', async () => {
    const { markdown } = await html(
      '<div id="masthead"><a href="/">Daily Post</a></div><div class="breaking-news-ticker">BREAKING: storm</div>' +
        '<div class="story"><h1>Tram approved</h1><p>The council voted 31 to 9.</p>' +
        '<div class="related-articles"><h3>Related</h3><ul><li><a href="/a">Bus fares</a></li></ul></div></div>' +
        '<div class="most-read"><ol><li>Chef opens restaurant</li></ol></div><div class="ad-slot">Advertisement</div>' +
        '<div class="newsletter-signup"><p>Never miss a story</p></div><div class="widget-area"><p>About me</p></div>' +
        '<div class="action-bar"><a href="/reply">Post Reply</a></div><ul class="pagination"><li>1</li><li>2</li></ul>',
    );
    expect(markdown).toBe('# Tram approved\n\nThe council voted 31 to 9.\n');
  });

  it('When Sphinx wraps highlighted code in a highlight-LANG div around a highlight div, then the fence names LANG', async () => {
    const { markdown } = await html(
      '<div class="highlight-console notranslate"><div class="highlight"><pre><span class="gp">$ </span>pip install x\n</pre></div></div>',
    );
    expect(markdown).toBe('```console\n$ pip install x\n```\n');
  });
});

describe('HTML articles named after what sits beside them', () => {
  const post =
    '<h3>Silicon notes</h3><p>We took the package apart and measured every bond wire under the microscope.</p>' +
    '<p>The die is a mixed-signal part with an on-chip regulator, which explains the extra pads.</p>';

  it('When a theme names the box holding the post after a sidebar or a widget, then the post is kept and the small chrome beside it is still left out', async () => {
    const { markdown } = await html(
      '<body><div class="l-sidebar-fixed"><div class="widget Blog">' +
        post +
        '<div class="share-buttons"><p>Share this post</p></div></div></div>' +
        '<div class="sidebar"><p>About the author</p></div><div class="widget Archive"><p>2014 (3)</p></div></body>',
    );
    expect(markdown).toBe(
      '### Silicon notes\n\nWe took the package apart and measured every bond wire under the microscope.\n\n' +
        'The die is a mixed-signal part with an on-chip regulator, which explains the extra pads.\n',
    );
  });

  it('When a page keeps an article of its own and a longer comment thread sits in a box named navigation, then the thread is still left out', async () => {
    const article = '<p>' + 'The council debated the budget for the harbour and the schools. '.repeat(20) + '</p>';
    const thread =
      '<ul class="forum">' +
      '<li><p>I disagree with this reading of the budget, and here is why at length.</p></li>'.repeat(40) +
      '</ul>';
    const { markdown } = await html(
      `<body><div id="contenu">${article}</div><div id="navigation">${thread}</div></body>`,
    );
    expect(markdown).not.toContain('I disagree');
    expect(markdown).toContain('The council debated the budget');
  });

  it('When an article has text of its own and a named box in it holds more (a captioned gallery), then the box is still left out', async () => {
    const story = 'Shares in the club fell after it missed the league for a second year running. '.repeat(14);
    const caption = '<li>One long caption about a football club, its revenue, its owners and its fans at home.</li>';
    const { markdown } = await html(
      `<article><p>${story.trim()}</p><div class="gallery-widget"><ul>${caption.repeat(30)}</ul></div></article>`,
    );
    expect(markdown).toBe(`${story.trim()}\n`);
  });

  it("When the box holding an article's text is named after a share bar or a sidebar, then it is read", async () => {
    const { markdown } = await html(
      '<body><article class="post"><h1>Lounge access</h1><div class="entry themeform share"><p>The railway ends lounge access for saver fares.</p>' +
        '<p>A new catering concept follows in spring.</p></div></article></body>',
    );
    expect(markdown).toBe(
      '# Lounge access\n\nThe railway ends lounge access for saver fares.\n\nA new catering concept follows in spring.\n',
    );
  });

  it('When a page builder wraps every block of an article in a widget (Elementor), then the article is read', async () => {
    const block = (text: string) =>
      `<div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container"><p>${text}</p></div></div>`;
    const { markdown } = await html(
      '<main><article><h1>Hub 2018</h1>' +
        block('The Future Strategists Hub was a programme for young leaders across the region.') +
        block('It ran for six months, with workshops in four cities and a final forum.') +
        '</article></main>',
    );
    expect(markdown).toBe(
      '# Hub 2018\n\nThe Future Strategists Hub was a programme for young leaders across the region.\n\n' +
        'It ran for six months, with workshops in four cities and a final forum.\n',
    );
  });

  it('When the only articles are comments and teaser cards beside a post that is in none, then the post is read', async () => {
    const post = 'In an interview the coach explained the new training plan for the season. '.repeat(16).trim();
    const { markdown } = await html(
      `<body><div class="entry"><h1>Interview</h1><p>${post}</p></div>` +
        '<article class="comment-body"><p>Great read, the part about the new training plan was the best.</p></article>'.repeat(
          8,
        ) +
        '<article class="ee-post"><h3><a href="/a">Other story</a></h3></article></body>',
    );
    expect(markdown).toContain(post);
  });

  it('When the only articles are teaser cards beside a post that is in none, then the main landmark is read instead, post first', async () => {
    const { markdown } = await html(
      '<body><div id="header"><a href="/">Civil Liberties</a></div><div id="content" role="main"><div class="description">' +
        post +
        '</div><div class="related">' +
        '<article><h3><a href="/a">Staying safe online</a></h3><p>2018</p></article>' +
        '<article><h3><a href="/b">Questions for the hearing</a></h3><p>2018</p></article></div></div></body>',
    );
    expect(markdown).toBe(
      '### Silicon notes\n\nWe took the package apart and measured every bond wire under the microscope.\n\n' +
        'The die is a mixed-signal part with an on-chip regulator, which explains the extra pads.\n\n' +
        '### [Staying safe online](/a)\n\n2018\n\n### [Questions for the hearing](/b)\n\n2018\n',
    );
  });

  it('When a main landmark wraps an article and a sidebar, then the article alone is read', async () => {
    const { markdown } = await html(
      '<body><div role="main"><article><p>Le texte de l’article.</p></article><div class="newsletter"><p>Recevoir la newsletter</p></div>' +
        '<p>Direct : les dernières nouvelles</p></div></body>',
    );
    expect(markdown).toBe('Le texte de l’article.\n');
  });
});

describe('HTML without a body', () => {
  it('When a page never closes its head nor opens its body, then what follows the head is read as the body', async () => {
    const { markdown } = await html(
      '<html><head><meta charset="utf-8"><title>Wages</title><style>p{}</style>' +
        '<div class="content"><h1>Good wages are not enough</h1><p>The centre held a round table.</p></div></html>',
    );
    expect(markdown).toBe('# Good wages are not enough\n\nThe centre held a round table.\n');
    const text = await html('<head><title>Note</title>Plain words after the title.</head>');
    expect(text.markdown).toBe('Plain words after the title.\n');
  });
});

describe('HTML declared and real encodings', () => {
  it('When a page declares gb2312 but its bytes are UTF-8, then the bytes win; real GB2312 bytes still follow the declaration', async () => {
    const page =
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head><body><p>腾讯科技新闻</p></body></html>';
    const saved = await convertDocument(Buffer.from(page, 'utf8'), 'html', std);
    expect(saved.markdown).toBe('腾讯科技新闻\n');
    const legacy = await convertDocument(iconv.encode(page, 'gb2312'), 'html', std);
    expect(legacy.markdown).toBe('腾讯科技新闻\n');
  });

  it('When a page declares windows-1252 and is plain ASCII, then the declaration is followed', async () => {
    const { markdown } = await convertDocument(
      Buffer.from('<meta charset="windows-1252"><p>Plain &eacute;t&eacute;</p>', 'latin1'),
      'html',
      std,
    );
    expect(markdown).toBe('Plain été\n');
  });
});

describe('HTML task lists', () => {
  it('When list items start with checkboxes (GitHub, markdown-it, pandoc), then they become task items ticked as the boxes are', async () => {
    const { markdown } = await html(
      '<ul class="contains-task-list"><li class="task-list-item"><input type="checkbox" checked disabled> Book the hut</li>' +
        '<li><label><input type="checkbox" disabled=""> Buy a map</label></li><li>Plain <input type="checkbox"> later</li></ul>',
    );
    expect(markdown).toBe('- [x] Book the hut\n- [ ] Buy a map\n- Plain later\n');
  });

  it('When a Notion export draws to-do boxes as classed divs, then the items are task items ticked as drawn', async () => {
    const { markdown } = await html(
      '<ul class="to-do-list"><li><div class="checkbox checkbox-on"></div> <span class="to-do-children-checked">Write migration</span></li>' +
        '<li><div class="checkbox checkbox-off"></div> <span>Review PR</span></li><li><div class="checkbox"></div> Plain</li></ul>',
    );
    expect(markdown).toBe('- [x] Write migration\n- [ ] Review PR\n- Plain\n');
  });
});

describe('HTML headings', () => {
  it('When a heading is only a link back to the contents (docutils toc-backref), then its text is kept; a MediaWiki edit link beside it is not', async () => {
    const { markdown } = await html(
      '<div class="section"><h1><a class="toc-backref" href="#toc-entry-1">Introduction</a></h1><p>Text.</p></div>' +
        '<h2><span class="mw-headline">Taxonomy</span><span class="mw-editsection">[<a href="?action=edit">edit</a>]</span></h2>',
    );
    expect(markdown).toBe('# [Introduction](#toc-entry-1)\n\nText.\n\n## Taxonomy\n');
  });
});

describe('HTML lists drawn as text', () => {
  it('When paragraphs start with typed bullets or with numbers counting up (InDesign, layout tools), then they are lists without the typed markers', async () => {
    const { markdown } = await html(
      '<p class="Bullet">•\tOrange-red <b>breast</b></p><p class="Bullet">•\tGrey back</p><p>Then feed them:</p>' +
        '<p class="Numbered">3.\tPut out mealworms.</p><p class="Numbered">4)\tKeep water.</p>' +
        '<p>– Hello, she said.</p><p>1. A lone numbered paragraph.</p><p>2026. A year.</p>',
    );
    expect(markdown).toBe(
      '- Orange-red **breast**\n- Grey back\n\nThen feed them:\n\n3. Put out mealworms.\n4. Keep water.\n\n– Hello, she said.\n\n1\\. A lone numbered paragraph.\n\n2026\\. A year.\n',
    );
  });

  it('When a paragraph opens with a glyph that stands again before another choice (a form\'s "○ Yes ○ No"), then it is not a list item', async () => {
    const { markdown } = await html('<p>□ Paid □ Unpaid</p><p>• One</p>');
    expect(markdown).toBe('□ Paid □ Unpaid\n\n- One\n');
  });
});

describe('HTML rules above notes', () => {
  it('When a rule separates the notes (pandoc inside and before the notes section, markdown-it before it), then it goes with them; other rules stay', async () => {
    const pandoc =
      '<p>A<a href="#fn1" role="doc-noteref">1</a></p><hr /><section class="footnotes" role="doc-endnotes"><hr /><ol><li id="fn1" role="doc-endnote"><p>Note A.</p></li></ol></section>';
    const markdownIt =
      '<p>B<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup></p><hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list"><li id="fn2" class="footnote-item"><p>Note B.</p></li></ol></section>';
    expect((await html(pandoc)).markdown).toBe('A[^1]\n\n[^1]: Note A.\n');
    expect((await html('<p>One</p><hr><p>Two</p>')).markdown).toBe('One\n\n---\n\nTwo\n');
    expect((await html(markdownIt)).markdown).toBe('B[^1]\n\n[^1]: Note B.\n');
  });
});

describe('HTML docutils footnotes', () => {
  it('When docutils wrote footnotes as label-and-text tables (HTML 4 writer), then they are [^n] notes without their labels', async () => {
    const { markdown } = await html(
      '<p>Retention <a class="footnote-reference" href="#footnote-1" id="footnote-reference-1">[1]</a> is described below.</p>' +
        '<table class="docutils footnote" frame="void" id="footnote-1" rules="none"><colgroup><col class="label" /><col /></colgroup><tbody valign="top">' +
        '<tr><td class="label"><a class="fn-backref" href="#footnote-reference-1">[1]</a></td><td>How long copies are <em>kept</em>.</td></tr></tbody></table>' +
        '<table class="docutils" id="t2"><tr><td>A</td><td>B</td></tr></table>',
    );
    expect(markdown).toBe(
      'Retention [^1] is described below.\n\n| A | B |\n| --- | --- |\n\n[^1]: How long copies are *kept*.\n',
    );
  });
});

describe('HTML lists split by LibreOffice', () => {
  it('When LibreOffice closed a list around its sublist and reopened it (HTML export), then it is one list with the sublist under its item', async () => {
    const { markdown } = await html(
      '<ol><li value="1"><p>Never transmit.</p><li><p>Keep away:</p></ol><ol type="a"><ol type="a"><li value="1"><p>when sending;</p><li><p>when charging.</p></ol></ol>' +
        '<ol start="3"><li><p>Use approved batteries.</p></ol><ul><li>Other list</li></ul>',
    );
    expect(markdown).toBe(
      '1. Never transmit.\n2. Keep away:\n   1. when sending;\n   2. when charging.\n3. Use approved batteries.\n\n- Other list\n',
    );
  });

  it('When list items draw their own markers floated left (LibreOffice XHTML export), then the drawn markers are left out', async () => {
    const { markdown } = await html(
      '<ol><li><p class="P1"><span class="ListLabel_20_10" style="display:block;float:left;min-width:0cm;">1.</span>Never transmit.</p></li>' +
        '<li><p><span style="float:left">2.</span>Keep away:</p></li></ol><ol><li><ol><li><p><span style="float:left">a.</span>when sending.</p></li></ol></li></ol>' +
        '<ol><li><p><span style="float:left">3.</span>Use batteries.</p></li></ol><ul><li><span style="float:left">Note</span> stays</li></ul>',
    );
    expect(markdown).toBe(
      '1. Never transmit.\n2. Keep away:\n   1. when sending.\n3. Use batteries.\n\n- Note stays\n',
    );
  });
});

describe('HTML bullet lines', () => {
  it('When one paragraph holds lines that each open with a typed bullet, split by <br>, then they are a list; a paragraph with a plain line among them is not', async () => {
    const { markdown } = await html('<p>• Fast<br>• Small<br/> • <b>Free</b></p><p>Roses<br>• not a list</p>');
    expect(markdown).toBe('- Fast\n- Small\n- **Free**\n\nRoses\\\n• not a list\n');
  });
});

describe('HTML tabbed blocks', () => {
  it('When tab labels are written back to back (MkDocs Material), then their names stay separate words', async () => {
    const { markdown } = await html(
      '<div class="tabbed-set"><input type="radio" checked><input type="radio"><div class="tabbed-labels"><label for="a">pip</label><label for="b">conda</label></div>' +
        '<div class="tabbed-content"><div class="tabbed-block"><pre><code>pip install demo</code></pre></div></div></div><p><label>Name</label>: Ana</p>',
    );
    expect(markdown).toBe('pip conda\n\n```\npip install demo\n```\n\nName: Ana\n');
  });
});

describe('HTML math', () => {
  it('When MathML carries a TeX annotation (pandoc, KaTeX), then the formula is that TeX, not its glyphs run together', async () => {
    const { markdown } = await html(
      '<p>So <math><semantics><mrow><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup><mo>+</mo><mn>1</mn><mo>=</mo><mn>0</mn></mrow>' +
        '<annotation encoding="application/x-tex">e^{i\\pi} + 1 = 0</annotation></semantics></math> holds.</p>' +
        '<p><span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>a</mi></mrow><annotation encoding="application/x-tex">a^2</annotation></semantics></math></span>' +
        '<span class="katex-html" aria-hidden="true"><span class="mord">a</span><span class="mord">2</span></span></span> grows.</p>',
    );
    expect(markdown).toBe('So $e^{i\\pi} + 1 = 0$ holds.\n\n$a^2$ grows.\n');
  });

  it('When MathML has no TeX, then fractions, roots and scripts are written as TeX', async () => {
    const { markdown } = await html(
      '<math display="block"><mrow><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><mrow><msup><mi>b</mi><mn>2</mn></msup>' +
        '<mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></mrow></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac><mo>+</mo><msub><mi>x</mi><mn>10</mn></msub>' +
        '<mo>+</mo><mi>sin</mi><mi>θ</mi></mrow></math>',
    );
    expect(markdown).toBe('$$x=\\frac{-b±\\sqrt{b^2-4ac}}{2a}+x_{10}+\\operatorname{sin}θ$$\n');
  });

  it('When a fraction or an accent starts with a single letter, then the letter is braced, so TeX still reads the command', async () => {
    const { markdown } = await html(
      '<math><mfrac><mi>n</mi><mi>k</mi></mfrac><mo>+</mo><mover accent="true"><mi>x</mi><mo>˙</mo></mover>' +
        '<mo>+</mo><mfrac><mn>1</mn><mi>k</mi></mfrac></math>',
    );
    expect(markdown).toBe('$\\frac{n}k+\\dot{x}+\\frac1k$\n');
  });

  it('When a fraction or an accent starts with a single Greek letter, then it is braced as an ASCII letter is', async () => {
    const { markdown } = await html(
      '<math><mfrac><mi>π</mi><mn>2</mn></mfrac><mo>+</mo><mover accent="true"><mi>θ</mi><mo>˙</mo></mover></math>',
    );
    expect(markdown).toBe('$\\frac{π}2+\\dot{θ}$\n');
  });

  it('When a page keeps MathJax 2 sources in math/tex scripts, then each is the formula and what MathJax drew from it is left out', async () => {
    const { markdown } = await html(
      '<p>Area <span class="MathJax_Preview">πr²</span><span class="MathJax" id="MathJax-Element-1-Frame"><nobr>πr2</nobr></span>' +
        '<script type="math/tex" id="MathJax-Element-1">\\pi r^2</script> and</p><script type="math/tex; mode=display">\\int_0^1 x\\,dx</script><script>var x = "<b>";</script>',
    );
    expect(markdown).toBe('Area $\\pi r^2$ and\n\n$$\\int_0^1 x\\,dx$$\n');
  });
});

describe('HTML math in pandoc spans and hidden MathML', () => {
  it('When a page has MathJax typeset the TeX in its text, then \\(…\\), \\[…\\], $$…$$ and environments are formulas; code, an unclosed opener and lone dollars stay text', async () => {
    const { markdown } = await html(
      '<html><head><script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js"></script></head><body>' +
        '<h2>Getting \\(k\\) heads</h2><p>So \\(\\sqrt{x}+1\\) costs $5 and $6.</p>' +
        '<p>\\[ a &lt; b \\]</p><p>$$\\frac12$$</p><p>\\begin{align} x &amp; = 1 \\\\ y &amp; = 2 \\end{align}</p>' +
        '<p>Open \\( only.</p><pre><code>echo \\(x\\)</code></pre></body></html>',
    );
    expect(markdown).toBe(
      '## Getting $k$ heads\n\nSo $\\sqrt{x}+1$ costs $5 and $6.\n\n$$a < b$$\n\n$$\\frac12$$\n\n' +
        '$$\\begin{align} x & = 1 \\\\ y & = 2 \\end{align}$$\n\nOpen \\\\( only.\n\n```\necho \\(x\\)\n```\n',
    );
  });

  it("When a page's MathJax configuration makes $…$ inline math (Jupyter), then text between single dollars is a formula; without MathJax or KaTeX the TeX stays text", async () => {
    const config =
      '<script type="text/x-mathjax-config">MathJax.Hub.Config({tex2jax: {inlineMath: [["$","$"], ["\\\\(","\\\\)"]]}});</script>';
    const body = '<p>Let $x_1$ be \\(y\\).</p>';
    expect((await html(`<html><head>${config}</head><body>${body}</body></html>`)).markdown).toBe(
      'Let $x_1$ be $y$.\n',
    );
    expect((await html(`<html><head></head><body>${body}</body></html>`)).markdown).toBe('Let $x_1$ be \\\\(y\\\\).\n');
  });

  it('When pandoc wrote math as TeX in math spans (--mathjax, --katex), then each span is a formula without its delimiters; its own italics rendering stays', async () => {
    const { markdown } = await html(
      '<p>A <span class="math inline">\\(e^{i\\pi}\\)</span>, B <span class="math inline">a_1</span>, C <span class="math inline"><em>x</em><sup>2</sup></span>.</p>' +
        '<p><span class="math display">\\[\\frac12\\]</span></p>',
    );
    expect(markdown).toBe('A $e^{i\\pi}$, B $a_1$, C *x*<sup>2</sup>.\n\n$$\\frac12$$\n');
  });

  it('When MathML is hidden for sight beside a picture hidden from screen readers (Wikipedia), then the MathML is the formula and the picture is left out', async () => {
    const { markdown } = await html(
      '<p>So <span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;"><math alttext="{\\displaystyle E=mc^{2}}"><mi>E</mi></math></span>' +
        '<img src="x.svg" aria-hidden="true" alt="{\\displaystyle E=mc^{2}}"></span> holds.<span style="display:none">Hidden text</span></p>',
    );
    expect(markdown).toBe('So ${\\displaystyle E=mc^{2}}$ holds.\n');
  });
});

describe('HTML with token optimization', () => {
  it('When tokens are optimized, then the writer works on the page model: no bold whole headings or header cells, joined bold words, compact tables, code kept', async () => {
    const html =
      '<h2><b>Intro</b></h2><p><b>Net</b> <b>income</b> rose a lot</p>' +
      '<table><tr><th><b>Name</b></th><th>Qty</th></tr><tr><td>Pens</td><td>3</td></tr></table><pre>keep   this</pre>';
    const { markdown, tokenOptimization } = await convertDocument(Buffer.from(html), 'html', {
      ...std,
      optimizeTokens: true,
    });
    expect(markdown).toBe(
      '## Intro\n\n**Net income** rose a lot\n\n|Name|Qty|\n|-|-|\n|Pens|3|\n\n```\nkeep   this\n```\n',
    );
    expect(tokenOptimization!.optimized_tokens).toBeLessThan(tokenOptimization!.original_tokens);
  });

  it('When a page sets its prose as SVG text (a fixed-layout e-book page), then each text element is a paragraph, its lines joined by spaces', async () => {
    const { markdown } = await html(
      '<body><div class="page"><svg viewBox="0 0 300 500"><title>Page 4</title>' +
        '<text transform="matrix(1 0 0 1 40 60)"><tspan x="0" y="0">Il en avait souvent rêvé,</tspan>' +
        '<tspan x="0" y="12">au moins depuis la communale.</tspan></text>' +
        '<text><tspan y="0">Sirop de Liège</tspan><tspan y="0">, éditions Estuaire, 2005.</tspan></text></svg></div></body>',
    );
    expect(markdown).toBe(
      'Il en avait souvent rêvé, au moins depuis la communale.\n\nSirop de Liège, éditions Estuaire, 2005.\n',
    );
  });

  it("When an SVG drawing holds only labels (a chart's axis), then none of its text is read", async () => {
    const { markdown } = await html(
      '<p>Sales by year.</p><svg><text x="0" y="10">2023</text><text x="40" y="10">2024</text>' +
        '<text x="0" y="30">Revenue</text><text x="0" y="50">10 M</text></svg>',
    );
    expect(markdown).toBe('Sales by year.\n');
  });
});
