import { parsePdf2Xml } from '../../src/readers/pdf/poppler';

// pdftohtml -xml's shape, written by hand: one element per line, attributes in poppler's order.
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<pdf2xml producer="poppler" version="23.02.0">
<page number="1" position="absolute" top="0" left="0" height="842" width="595">
	<fontspec id="0" size="12" family="ABCDEF+Helvetica-Bold" color="#000000"/>
	<fontspec id="1" size="10" family="Times" color="#000000"/>
<text top="100" left="72" width="120" height="14" font="0">A bold title</text>
<text top="130" left="72" width="200" height="12" font="1">Plain <b>strong</b> and <i>leaning</i> words</text>
<text top="150" left="72" width="100" height="12" font="1">   indented &amp; &#233;t&#xE9; &lt;x&gt;</text>
<text top="170" left="72" width="40" height="12" font="1"><b>   </b></text>
<text top="190" left="300" width="60" height="12" font="1">\u05dd\u05d5\u05dc\u05e9 (1)</text>
</page>
<page number="2" position="absolute" top="0" left="0" height="400" width="300">
<text top="10" left="5" width="50" height="9" font="1">ﬁne\u00a0print</text>
</page>
</pdf2xml>`;

describe("pdftohtml's XML read into pages of positioned text", () => {
  it('When a page holds fonts, styled runs, entities, leading spaces, right-to-left text and spaces only, then each item is read as before', () => {
    const pages = parsePdf2Xml(XML);
    expect(pages.map((p) => [p.number, p.width, p.height, p.items.length])).toEqual([
      [1, 595, 842, 5],
      [2, 300, 400, 1],
    ]);
    const [title, styled, indented, spaces, rtl] = pages[0]!.items;
    expect(title).toEqual({
      italic: false,
      text: 'A bold title',
      x: 72,
      y: 842 - 100 - 14,
      width: 120,
      size: 12,
      bold: true,
      font: 'Helvetica-Bold bold',
      rtl: false,
    });
    expect(styled!.text).toBe('Plain strong and leaning words');
    expect(styled!.runs).toEqual([
      { text: 'Plain ', bold: false, italic: false },
      { text: 'strong', bold: true, italic: false },
      { text: ' and ', bold: false, italic: false },
      { text: 'leaning', bold: false, italic: true },
      { text: ' words', bold: false, italic: false },
    ]);
    // Three spaces of a 10 pt proportional font push the letters 8.1 pt right.
    expect(indented).toMatchObject({ spaceBefore: true, text: 'indented & été <x>', x: 72 + 8.1, width: 100 - 8.1 });
    // Spaces alone stay an item of their own, not indented (no letter to push right).
    expect(spaces).toMatchObject({ text: '   ', x: 72, bold: true });
    expect(spaces!.spaceBefore).toBeUndefined();
    expect(rtl).toMatchObject({ rtl: true, text: '(1) שלום' });
    expect(rtl!.runs).toBeUndefined();
    // Ligatures and non-breaking spaces read as plain letters and spaces.
    expect(pages[1]!.items[0]).toMatchObject({ text: 'fine print', y: 400 - 10 - 9, size: 10 });
  });

  it("When a font is first declared on a later page, then that page's items take its size and style", () => {
    const pages = parsePdf2Xml(`<pdf2xml producer="poppler" version="23.02.0">
<page number="1" position="absolute" top="0" left="0" height="842" width="595">
	<fontspec id="0" size="10" family="Times" color="#000000"/>
<text top="100" left="72" width="120" height="12" font="0">Body text</text>
</page>
<page number="2" position="absolute" top="0" left="0" height="842" width="595">
<text top="100" left="72" width="120" height="12" font="0">More body text</text>
	<fontspec id="1" size="16" family="Helvetica-BoldOblique" color="#000000"/>
<text top="130" left="72" width="120" height="18" font="1">A heading</text>
</page>
</pdf2xml>`);
    expect(pages[1]!.items.map((i) => [i.text, i.size, i.font])).toEqual([
      ['More body text', 10, 'Times'],
      ['A heading', 16, 'Helvetica-BoldOblique bold italic'],
    ]);
  });
});

describe("pdftohtml's XML of TeX's typewriter face", () => {
  it('When pdftohtml spells out a word of a monospaced face letter by letter, then the item holds the word; a proportional face keeps its spaced letters', () => {
    const pages = parsePdf2Xml(`<?xml version="1.0" encoding="UTF-8"?>
<pdf2xml producer="poppler" version="22.12.0">
<page number="1" position="absolute" top="0" left="0" height="842" width="595">
	<fontspec id="0" size="9" family="RGZAFB+CMTT9" color="#000000"/>
	<fontspec id="1" size="10" family="CMR10" color="#000000"/>
<text top="366" left="135" width="44" height="7" font="0">f u n c t i o n</text>
<text top="399" left="135" width="129" height="7" font="0">c o n s o l e . log ( add (3 , 5) ) ;</text>
<text top="420" left="135" width="129" height="9" font="1">A B C of gardening</text>
</page>
</pdf2xml>`);
    expect(pages[0]!.items.map((i) => i.text)).toEqual([
      'function',
      'console . log ( add (3 , 5) ) ;',
      'A B C of gardening',
    ]);
  });
});
