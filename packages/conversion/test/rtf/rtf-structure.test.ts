import { convertDocument } from '../../src';
import { bof, ducksSeenChart, eof, workbookStorage } from '../biff8';

const rtf = async (source: string) =>
  (await convertDocument(Buffer.from(source, 'latin1'), 'rtf', { enhanced: false })).markdown;

/** A Word-style stylesheet: Normal, two headings, Title, Subtitle and a localized style with only an outline level. */
const STYLES =
  '{\\stylesheet{\\ql \\snext0 Normal;}{\\s1\\outlinelevel0\\sbasedon0 heading 1;}{\\s2\\sbasedon0 heading 2;}' +
  '{\\*\\cs10 \\additive Default Paragraph Font;}{\\s15\\sbasedon0 Title;}{\\s16\\sbasedon0 Subtitle;}' +
  '{\\s30\\outlinelevel1\\sbasedon0 \\u220?berschrift 2;}{\\s31\\sbasedon30 Mine;}}';

/** Word's list tables: \ls1 bullets (level 0) over "o" bullets (level 1), \ls2 numbers from 4 over letters. */
const LISTS =
  "{\\*\\listtable{\\list\\listtemplateid1{\\listlevel\\levelnfc23\\levelstartat1{\\leveltext\\'01\\u-3913 ?;}}" +
  "{\\listlevel\\levelnfc23{\\leveltext\\'01o;}}\\listid10}" +
  "{\\list\\listtemplateid2{\\listlevel\\levelnfc0\\levelstartat4{\\leveltext\\'02\\'00.;}}" +
  "{\\listlevel\\levelnfc4\\levelstartat1{\\leveltext\\'02\\'01.;}}\\listid20}}" +
  '{\\*\\listoverridetable{\\listoverride\\listid10\\listoverridecount0\\ls1}{\\listoverride\\listid20\\listoverridecount0\\ls2}}';

const doc = (body: string, header = '') => `{\\rtf1\\ansi\\ansicpg1252\\deff0${header}\n${body}}`;

describe('RTF paragraph styles', () => {
  it('When a paragraph cites a "heading 2" style by \\s2 without an outline level of its own, then it is a level-2 heading', async () => {
    expect(await rtf(doc('\\pard\\s2 Scope\\par', STYLES))).toBe('## Scope\n');
  });

  it('When a style has only an outline level and another style is based on it, then paragraphs of the derived style are headings of that level', async () => {
    expect(await rtf(doc('\\pard\\s31 Deep\\par\\pard\\s30 Also\\par', STYLES))).toBe('## Deep\n\n## Also\n');
  });

  it('When paragraphs use the Title and Subtitle styles, then they are headings of level 1 and 2', async () => {
    expect(await rtf(doc('\\pard\\s15 Report\\par\\pard\\s16 Draft\\par\\pard Body\\par', STYLES))).toBe(
      '# Report\n\n## Draft\n\nBody\n',
    );
  });

  it('When a paragraph style is named Quote, then the paragraph is a block quote, as in DOCX', async () => {
    const styles = '{\\stylesheet{\\s0 Normal;}{\\s5\\sbasedon0 Quote;}}';
    expect(await rtf(doc('\\pard\\s5 Said.\\par\\pard Plain.\\par', styles))).toBe('> Said.\n\nPlain.\n');
  });

  it("When a paragraph style is LibreOffice's Quotations, then the paragraph is a block quote", async () => {
    const styles = '{\\stylesheet{\\s0 Normal;}{\\s7\\sbasedon0 Quotations;}}';
    expect(await rtf(doc('\\pard\\s7 Said.\\par\\pard Plain.\\par', styles))).toBe('> Said.\n\nPlain.\n');
  });

  it('When paragraph styles carry localised heading names, then they are headings of their number', async () => {
    const styles = '{\\stylesheet{\\s0 Normal;}{\\s2\\sbasedon0 Titre 2;}{\\s3\\sbasedon0 \\u220?berschrift 3;}}';
    expect(await rtf(doc('\\pard\\s2 M\\u233?thode\\par\\pard\\s3 Ablauf\\par\\pard Text.\\par', styles))).toBe(
      '## M\u00e9thode\n\n### Ablauf\n\nText.\n',
    );
  });

  it('When a heading is numbered through \\listtext, then the number leads the heading text', async () => {
    expect(await rtf(doc('\\pard\\s1\\ls2 {\\listtext 4.\\tab}Method\\par', STYLES + LISTS))).toBe('# 4. Method\n');
  });
});

describe('RTF lists', () => {
  it("When Word's list table says bullets and letters, then \\listtext glyphs are not shown and nesting follows \\ilvl", async () => {
    const body =
      "\\pard\\ls1\\ilvl0 {\\listtext\\f3 \\'b7\\tab}Tea\\par\\pard\\ls1\\ilvl1 {\\listtext o\\tab}Green\\par" +
      '\\pard\\ls2\\ilvl0 {\\listtext 4.\\tab}Four\\par\\pard\\ls2\\ilvl1 {\\listtext a.\\tab}Sub\\par';
    expect(await rtf(doc(body, LISTS))).toBe('- Tea\n  - Green\n\n4. Four\n   1. Sub\n');
  });

  it("When list paragraphs have no \\listtext at all, then the list table's format and \\levelstartat number them", async () => {
    expect(await rtf(doc('\\pard\\ls2\\ilvl0 Four\\par\\pard\\ls2\\ilvl0 Five\\par', LISTS))).toBe(
      '4. Four\n5. Five\n',
    );
  });

  it('When a marker numbers more than its own level ("2.1."), then the item keeps it as text in a bullet list', async () => {
    expect(await rtf(doc('\\pard\\ls2\\ilvl1 {\\listtext 2.1.\\tab}Scope\\par', LISTS))).toBe('- 2.1. Scope\n');
  });

  it('When a list paragraph without \\listtext follows an item that had one, then it is a second paragraph of that item', async () => {
    const body =
      '\\pard\\ls1 {\\listtext \\u8226 \\tab}First, one.\\par\\pard\\ls1 First, two.\\par\\pard\\ls1 {\\listtext \\u8226 \\tab}Second.\\par';
    expect(await rtf(doc(body, LISTS))).toBe('- First, one.\n\n  First, two.\n- Second.\n');
  });

  it('When legacy \\pn numbering is in force and only the first paragraph has \\pntext, then every paragraph until \\pard is a numbered item', async () => {
    const body =
      '\\pard{\\pntext 1.\\tab}{\\*\\pn\\pnlvlbody\\pndec\\pnstart1{\\pntxta .}}A\\par B\\par C\\par' +
      "\\pard{\\pntext\\f1\\'b7\\tab}{\\*\\pn\\pnlvlblt\\pnf1{\\pntxtb\\'b7}}D\\par E\\par";
    expect(await rtf(doc(body))).toBe('1. A\n2. B\n3. C\n\n- D\n- E\n');
  });

  it('When a generator types the marker before a tab (\\bullet\\tab, 1.\\tab) without list markup, then the paragraphs are list items without the typed marker', async () => {
    const body =
      '{\\pard \\li360\\fi-360 \\bullet \\tx360\\tab one\\par}{\\pard \\li360\\fi-360 \\bullet \\tx360\\tab two\\par}' +
      '{\\pard \\li360\\fi-360 1.\\tx360\\tab first\\par}{\\pard \\li360\\fi-360 2.\\tx360\\tab second\\par}';
    expect(await rtf(doc(body))).toBe('- one\n- two\n\n1. first\n2. second\n');
  });

  it('When \\listtext markers are symbol words (\\bullet) and there is no list table, then the items are bullets', async () => {
    const item = (text: string) => `{\\pard \\li360\\fi-360\\ls1\\ilvl0 {\\listtext\\tab \\bullet\\tab}${text}\\par}`;
    expect(await rtf(doc(item('one') + item('two')))).toBe('- one\n- two\n');
  });

  it('When typed-marker list paragraphs are indented further (\\li), then they nest under the item before them', async () => {
    const item = (indent: number, marker: string, text: string) =>
      `{\\pard \\li${indent}\\fi-360 ${marker}\\tx360\\tab ${text}\\par}`;
    const body =
      item(360, '\\bullet ', 'one') +
      item(720, '\\endash ', 'nested') +
      item(360, '\\bullet ', 'two') +
      '{\\pard After.\\par}';
    expect(await rtf(doc(body))).toBe('- one\n  - nested\n- two\n\nAfter.\n');
  });

  it('When a TextEdit list writes its markers as {\\listtext<tab>\\uc0\\u8226 <tab>} and ends paragraphs with a backslash, then the items are bullets without the glyph', async () => {
    const cocoa =
      '{\\rtf1\\ansi\\ansicpg1252\\cocoartf2761\n{\\fonttbl\\f0\\fswiss\\fcharset0 Helvetica;}\n' +
      '{\\*\\expandedcolortbl;;}\n\\pard\\tx220\\li720\\fi-720\\pardirnatural\\partightenfactor0\n' +
      '\\ls1\\ilvl0\\f0\\fs24 \\cf0 {\\listtext\t\\uc0\\u8226 \t}Passport\\\n{\\listtext\t\\uc0\\u8226 \t}Tickets\\\n' +
      '\\pard\\pardirnatural\\partightenfactor0\n\\cf0 It\\uc0\\u8217 s \\expnd0\\expndtw0\\kerning0 done.}';
    expect(await rtf(cocoa)).toBe('- Passport\n- Tickets\n\nIt’s done.\n');
  });
});

describe('RTF tables', () => {
  it('When cells are merged across (\\clmgf/\\clmrg) and down (\\clvmgf/\\clvmrg), then the merged text repeats in every cell it covers, as in DOCX', async () => {
    const body =
      '\\trowd\\clvmgf\\cellx2000\\clmgf\\cellx4000\\clmrg\\cellx6000\\pard\\intbl A\\cell B\\cell \\cell\\row' +
      '\\trowd\\clvmrg\\cellx2000\\cellx4000\\cellx6000\\pard\\intbl \\cell C\\cell D\\cell\\row\\pard\\par';
    expect(await rtf(doc(body))).toBe('| A | B | B |\n| --- | --- | --- |\n| A | C | D |\n');
  });

  it('When a row has a wider cell whose right edge skips a column line of other rows, then its text spans those columns', async () => {
    const body =
      '\\trowd\\cellx3000\\cellx9000\\pard\\intbl Name\\cell Value\\cell\\row' +
      '\\trowd\\cellx3000\\cellx6000\\cellx9000\\pard\\intbl a\\cell b\\cell c\\cell\\row\\pard\\par';
    expect(await rtf(doc(body))).toBe('| Name | Value | Value |\n| --- | --- | --- |\n| a | b | c |\n');
  });

  it('When a cell holds a nested table (\\itap2, \\nestcell, \\nestrow) with a \\nonesttables fallback, then the outer cell has the inner cells as text and no fallback', async () => {
    const body =
      '\\trowd\\cellx3000\\cellx6000\\pard\\intbl\\itap1 Outer\\cell' +
      '\\pard\\intbl\\itap2 X\\nestcell Y\\nestcell{\\*\\nesttableprops\\trowd\\cellx1000\\cellx2000\\nestrow}' +
      '{\\nonesttables FALLBACK\\par}\\pard\\intbl\\itap1 \\cell\\row\\pard\\itap0 After\\par';
    expect(await rtf(doc(body))).toBe('| Outer | X Y |\n| --- | --- |\n\nAfter\n');
  });

  it('When two tables are separated by an empty paragraph, then they stay two tables', async () => {
    const row = (a: string) => `\\trowd\\cellx2000\\cellx4000\\pard\\intbl ${a}\\cell ${a}2\\cell\\row`;
    expect(await rtf(doc(`${row('a')}\\pard\\par${row('b')}\\pard\\par`))).toBe(
      '| a | a2 |\n| --- | --- |\n\n| b | b2 |\n| --- | --- |\n',
    );
  });

  it('When pandoc writes a table (cells in groups, \\pard\\intbl inside each), then it is one table', async () => {
    const cell = (t: string) => `{\\intbl {\\pard\\intbl \\ql \\f0 \\sa0 ${t}\\par}\n\\cell}\n`;
    const row = (a: string, b: string) =>
      `{\n\\trowd \\trgaph120\n\\cellx4320\\cellx8640\n\\trkeep\\intbl\n{\n${cell(a)}${cell(b)}}\n\\intbl\\row}\n`;
    expect(await rtf(doc(`${row('Col A', 'Col B')}${row('1', '2')}{\\pard \\ql After\\par}`))).toBe(
      '| Col A | Col B |\n| --- | --- |\n| 1 | 2 |\n\nAfter\n',
    );
  });

  it('When a footnote in a table cell resets paragraph properties with \\pard, then the cell text after it stays in the cell', async () => {
    const body =
      '\\trowd\\cellx2000\\cellx4000\\pard\\intbl A{\\footnote\\pard\\plain Note.}x\\cell B\\cell\\row\\pard\\par';
    expect(await rtf(doc(body))).toBe('| A[^1]x | B |\n| --- | --- |\n\n[^1]: Note.\n');
  });
});

describe('RTF text and destinations', () => {
  it('When a paragraph holds an embedded MS Graph chart (\\object with \\objdata, as Word writes it), then its title, kind and data follow the paragraph instead of its result picture', async () => {
    const chart = ducksSeenChart();
    const storage = workbookStorage(Buffer.concat([bof(0x0005), eof(), chart]));
    const u32 = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
    const name = (text: string) => (text ? Buffer.concat([u32(text.length + 1), Buffer.from(`${text}\0`)]) : u32(0));
    // An OLE 1.0 object: version, format 2 (embedded), class, topic and item names, then the storage.
    const ole1 = Buffer.concat([
      u32(0x0501),
      u32(2),
      name('MSGraph.Chart.8'),
      name(''),
      name(''),
      u32(storage.length),
      storage,
    ]);
    const hex = ole1.toString('hex').replace(/(.{128})/g, '$1\n');
    const body =
      `\\pard Counts rose {\\object\\objemb{\\*\\objclass MSGraph.Chart.8}{\\*\\objdata ${hex}}` +
      '{\\result {\\pict\\wmetafile8 0100}}}again.\\par \\pard End.\\par';
    expect(await rtf(doc(body))).toBe(
      'Counts rose again.\n\n**Ducks seen**\n\n*Line chart*\n\n|  | Mallard |\n| --- | --- |\n| 2021 | 120 |\n| 2022 | 130 |\n\nEnd.\n',
    );
  });

  it('When headers and footers hold text and a PAGE field, then none of it reaches the body', async () => {
    const body =
      '{\\header \\pard Confidential {\\field{\\*\\fldinst PAGE}{\\fldrslt 7}}\\par}{\\footerr \\pard Footer\\par}\\pard Body\\par';
    expect(await rtf(doc(body))).toBe('Body\n');
  });

  it('When \\* destinations hold generator, theme, colour map, data store and latent styles, then none of their text appears', async () => {
    const body =
      '{\\*\\generator Riched20 10.0;}{\\*\\themedata 504b0304}{\\*\\colorschememapping 3c3f786d}' +
      '{\\*\\datastore 0105}{\\*\\latentstyles\\lsdstimax376{\\lsdlockedexcept Normal;}}{\\*\\unknownthing text}\\pard Body\\par';
    expect(await rtf(doc(body))).toBe('Body\n');
  });

  it('When a writer leaves out the \\* on bookmark, generator and theme destinations, then their text still does not appear', async () => {
    expect(
      await rtf(doc('{\\generator Tool 1.0;}{\\themedata 504b}\\pard A{\\bkmkstart here}{\\bkmkend here}B\\par')),
    ).toBe('AB\n');
  });

  it('When a field is not a hyperlink, then its result text is kept and its instruction is not', async () => {
    expect(await rtf(doc('\\pard Due {\\field{\\*\\fldinst DATE \\\\@ "d MMMM"}{\\fldrslt 1 May}}.\\par'))).toBe(
      'Due 1 May.\n',
    );
  });

  it('When a comment (\\atnauthor, \\annotation) is anchored in the text, then it is a note "Comment by <author>: …" as in DOCX', async () => {
    const body =
      '\\pard Costs{\\*\\atnid AS}{\\*\\atnauthor Ann Smith}\\chatn{\\*\\annotation{\\*\\atnref 1}\\pard\\plain {\\chatn }Check this.} rose.\\par';
    expect(await rtf(doc(body))).toBe('Costs[^c1] rose.\n\n[^c1]: Comment by Ann Smith: Check this.\n');
  });

  it('When pandoc writes a footnote as \\*\\footnote, then it is a note', async () => {
    expect(
      await rtf(
        doc('{\\pard Claim{\\super\\chftn}{\\*\\footnote\\chftn\\~\\plain\\pard {\\pard Source.\\par}}.\\par}'),
      ),
    ).toBe('Claim[^1].\n\n[^1]: Source.\n');
  });

  it('When a picture has a shppict version with a description and a nonshppict fallback, then one image placeholder carries the description and no hex', async () => {
    const body =
      '\\pard See {\\*\\shppict{\\pict{\\*\\picprop{\\sp{\\sn wzDescription}{\\sv A bar chart}}{\\sp{\\sn wzName}{\\sv Picture 1}}}' +
      '\\pngblip 89504e470d0a}}{\\nonshppict{\\pict\\wmetafile8 0100090000}} here.\\par';
    expect(await rtf(doc(body))).toBe('See ![A bar chart](#) here.\n');
  });

  it('When a floating picture is a shape (\\shp with its pib property) and a text box, then the picture is one placeholder and the box text follows its paragraph', async () => {
    const body =
      '\\pard A{\\shp{\\*\\shpinst{\\sp{\\sn pib}{\\sv {\\pict\\pngblip 89504e47}}}{\\sp{\\sn wzName}{\\sv Picture 2}}}' +
      '{\\shprslt{\\*\\do\\dobxcolumn{\\pict\\wmetafile8 0100}}}}B\\par{\\shp{\\*\\shpinst{\\shptxt \\pard Boxed\\par}}}\\pard C\\par';
    expect(await rtf(doc(body))).toBe('A ![image](#) B\n\nC\n\nBoxed\n');
  });

  it('When a text box is anchored in the middle of a paragraph (LibreOffice writes it in a SHAPE field), then its paragraphs follow that paragraph', async () => {
    const body =
      '\\pard Planting starts in April.{\\field{\\*\\fldinst SHAPE }{\\fldrslt{\\shp{\\*\\shpinst{\\sp{\\sn shapeType}{\\sv 1}}' +
      '{\\shptxt \\pard Opening hours\\par \\pard Saturday 9:00\\par}}}}} Bring gloves.\\par\\pard Seedlings are shared.\\par';
    expect(await rtf(doc(body))).toBe(
      'Planting starts in April. Bring gloves.\n\nOpening hours\n\nSaturday 9:00\n\nSeedlings are shared.\n',
    );
  });

  it('When a table of contents links its entries to bookmarks (HYPERLINK "#_Toc1"), then the entries are plain text', async () => {
    const body =
      '\\pard {\\field{\\*\\fldinst HYPERLINK "#_Toc1" }{\\fldrslt Introduction\\tab 2}}\\par' +
      '\\pard See {\\field{\\*\\fldinst HYPERLINK "https://example.org/policy" }{\\fldrslt the policy}}.\\par';
    expect(await rtf(doc(body))).toBe('Introduction 2\n\nSee [the policy](https://example.org/policy).\n');
  });

  it('When a field result is starred ({\\*\\fldrslt …}, as AbiWord writes links), then the link text is kept', async () => {
    const body =
      '\\pard Visit the {\\field{\\*\\fldinst {HYPERLINK "https://example.org/sites"}}{\\*\\fldrslt{project portal}}} today.\\par';
    expect(await rtf(doc(body))).toBe('Visit the [project portal](https://example.org/sites) today.\n');
  });

  it('When a paragraph style is named like code (e.g. "HTML Preformatted"), then the paragraph is a code block, as in DOCX', async () => {
    const styles = '{\\stylesheet{\\s0 Normal;}{\\s7\\sbasedon0 HTML Preformatted;}}';
    expect(await rtf(doc('\\pard\\s7 ls -la\\par', styles))).toBe('```\nls -la\n```\n');
  });

  it('When TextEdit embeds a picture as a \\NeXTGraphic attachment, then it is one image placeholder without its file name or attachment character', async () => {
    const body =
      "\\pard Look: {{\\NeXTGraphic Pasted Graphic.png \\width4000 \\height3000 \\appleattachmentpadding0\n}\\'ac} done.\\par";
    expect(await rtf(doc(body))).toBe('Look: ![image](#) done.\n');
  });

  it('When a paragraph is all in a monospaced font and reads like code, then consecutive such paragraphs are one code block', async () => {
    const fonts = '{\\fonttbl{\\f0\\fswiss Helvetica;}{\\f1\\fmodern Courier New;}}';
    expect(await rtf(doc('\\pard\\f1 let x = 1;\\par\\pard\\f1 print(x)\\par\\pard\\f0 Prose.\\par', fonts))).toBe(
      '```\nlet x = 1;\nprint(x)\n```\n\nProse.\n',
    );
  });

  it('When short monospaced lines without code characters stand before and after monospaced code, then they join its block, and a monospaced sentence does not', async () => {
    const fonts = '{\\fonttbl{\\f0\\fswiss Helvetica;}{\\f1\\fmodern Courier New;}}';
    const body =
      '\\pard\\f1 #!/bin/sh\\par\\pard\\f1 for x in $(ls); do\\par\\pard\\f1 {  }echo x\\par\\pard\\f1 done\\par' +
      '\\pard\\f1 A note in a typewriter face.\\par\\pard\\f1 done\\par\\pard\\f0 Prose.\\par';
    expect(await rtf(doc(body, fonts))).toBe(
      '```\n#!/bin/sh\nfor x in $(ls); do\n  echo x\ndone\n```\n\nA note in a typewriter face.\n\ndone\n\nProse.\n',
    );
  });

  it('When tracked changes delete (\\deleted) and insert (\\revised) text, then the document reads as changed', async () => {
    expect(await rtf(doc('\\pard Price {\\deleted\\revauthdel1 10}{\\revised\\revauth1 12} EUR.\\par'))).toBe(
      'Price 12 EUR.\n',
    );
  });

  it('When text is hidden (\\v), set in capitals (\\caps) or uses \\~, \\emdash and \\tab, then it reads as shown', async () => {
    expect(await rtf(doc('\\pard a{\\v secret}b {\\caps up} x\\~y\\emdash z\\tab w\\par'))).toBe(
      'ab UP x\u00a0y—z w\n',
    );
  });
});

describe('RTF code pages', () => {
  it("When the header says \\ansicpg932, then \\'hh byte pairs decode as Shift-JIS", async () => {
    expect(await rtf("{\\rtf1\\ansi\\ansicpg932 \\'93\\'fa\\'96\\'7b\\par}")).toBe('日本\n');
  });

  it("When the header says \\ansicpg1250, then \\'hh bytes decode as Central European", async () => {
    expect(await rtf("{\\rtf1\\ansi\\ansicpg1250 \\'e8\\'e1st\\par}")).toBe('část\n');
  });

  it("When the header names the Mac character set (\\mac) without \\ansicpg, then \\'hh bytes decode as Mac Roman", async () => {
    expect(await rtf("{\\rtf1\\mac caf\\'8e\\par}")).toBe('café\n');
  });

  it('When the default font (\\deffN) has a Cyrillic charset, then text before any \\f decodes as Windows-1251', async () => {
    expect(
      await rtf("{\\rtf1\\ansi\\deff1{\\fonttbl{\\f0 Arial;}{\\f1\\fcharset204 Arial Cyr;}}\\'cc\\'e8\\'f0\\par}"),
    ).toBe('Мир\n');
  });
});
