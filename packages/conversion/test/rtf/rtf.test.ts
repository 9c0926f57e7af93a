import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { convertDocument, countTokens } from '../../src';

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

  it("When a bold run written wholly in \\'hh bytes ends at \\b0, then the whole run is bold", async () => {
    const { markdown } = await rtf("{\\rtf1\\ansi\\ansicpg1251 \\b \\'ef\\'f0\\'ee\\b0  \\'e8 x\\par}");
    expect(markdown).toBe('**про** и x\n');
  });

  it('When a heading style is bold and italic, then the heading carries no emphasis markers', async () => {
    const { markdown } = await rtf(
      '{\\rtf1\\ansi{\\stylesheet{\\s2\\b\\i heading 2;}}\\pard\\s2\\b\\i Itinerary\\par\\pard\\plain\\s2\\b Plain {\\i part}\\par}',
    );
    expect(markdown).toBe('## Itinerary\n\n## Plain *part*\n');
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
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard # not a heading *nor* [link](x)\\par}');
    expect(markdown).toBe('\\# not a heading \\*nor\\* \\[link\\](x)\n');
  });

  it('When the RTF has no text, then the Markdown is empty and metadata is blank', async () => {
    const { markdown, metadata } = await rtf('{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}}');
    expect(markdown).toBe('');
    expect(metadata).toEqual({ title: '', author: '', page_count: 0 });
  });

  it('When bold, italic, underline and strike runs nest across groups, then each marker opens once around whole words', async () => {
    const { markdown } = await rtf(
      '{\\rtf1\\ansi\\pard Plain {\\b bold {\\i both}}{\\b  again} {\\ul under} {\\i\\strike gone} and \\b on\\b0  off.\\par}',
    );
    expect(markdown).toBe('Plain **bold *both* again** under *~~gone~~* and **on** off.\n');
  });

  it('When a HYPERLINK field holds formatted text beside a bookmark link, then the URL field is a link around its nodes and the bookmark is text', async () => {
    const { markdown } = await rtf(
      '{\\rtf1\\ansi\\pard Go {\\field{\\*\\fldinst HYPERLINK "https://example.org/x_y"}{\\fldrslt {\\b the} site}} or {\\field{\\*\\fldinst HYPERLINK \\\\l "top"}{\\fldrslt top}}.\\par}',
    );
    expect(markdown).toBe('Go [**the** site](https://example.org/x_y) or top.\n');
  });

  it('When a footnote has two paragraphs and formatting, then it is a note reference and a notes block with both paragraphs', async () => {
    const { markdown } = await rtf(
      '{\\rtf1\\ansi\\pard Claim{\\super\\chftn}{\\footnote\\pard\\plain {\\super\\chftn} See {\\i the book}.\\par Second *part*.} and more{\\super\\chftn}{\\footnote\\pard\\plain {\\super\\chftn} Short.}.\\par}',
    );
    expect(markdown).toBe(
      'Claim[^1] and more[^2].\n\n[^1]: See *the book*.\n\n    Second \\*part\\*.\n\n[^2]: Short.\n',
    );
  });

  it('When runs are raised or lowered by \\super, \\sub, \\up and \\dn, then <sup>/<sub> are kept until \\nosupersub, \\plain, \\up0 or the group ends; a raised note mark stays a reference', async () => {
    const { markdown } = await rtf(
      '{\\rtf1\\ansi\\pard x{\\super 2} H{\\sub 2}O, a\\super b\\nosupersub c, d{\\up6 e}{\\dn4 f}g\\up3 h\\up0 i, ' +
        'j\\sub k\\plain l, {\\b m{\\super 3}} claim{\\super\\chftn{\\footnote\\pard {\\super\\chftn} Note.}}.\\par' +
        '\\trowd\\cellx1000\\pard\\intbl Gas\\cell\\row\\trowd\\cellx1000\\pard\\intbl CO{\\sub 2}\\cell\\row}',
    );
    expect(markdown).toBe(
      'x<sup>2</sup> H<sub>2</sub>O, a<sup>b</sup>c, d<sup>e</sup><sub>f</sub>g<sup>h</sup>i, j<sub>k</sub>l, **m<sup>3</sup>** claim[^1].\n\n' +
        '| Gas |\n| --- |\n| CO<sub>2</sub> |\n\n[^1]: Note.\n',
    );
  });

  it('When a table has formatted cells, a two-paragraph cell and a pipe, then the table keeps the emphasis and the cell is one line', async () => {
    const { markdown } = await rtf(
      '{\\rtf1\\ansi\\trowd\\cellx1000\\cellx2000\\pard\\intbl {\\b Name}\\cell {\\i Value}\\cell\\row' +
        '\\trowd\\cellx1000\\cellx2000\\pard\\intbl a|b\\cell one\\par two\\cell\\row\\pard After.\\par}',
    );
    expect(markdown).toBe('| **Name** | *Value* |\n| --- | --- |\n| a\\|b | one two |\n\nAfter.\n');
  });

  it('When a paragraph has a \\line break, then it is a hard line break', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard First line\\line second line\\par}');
    expect(markdown).toBe('First line\\\nsecond line\n');
  });

  it('When a footnote holds another footnote, then each note keeps its own text', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard A{\\footnote Outer{\\footnote Inner.} end.} B.\\par}');
    expect(markdown).toBe('A[^1] B.\n\n[^1]: Outer[^2] end.\n\n[^2]: Inner.\n');
  });

  it('When the file ends inside a footnote, then the note keeps the text read so far', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard Text{\\footnote Cut note');
    expect(markdown).toBe('Text[^1]\n\n[^1]: Cut note\n');
  });

  it('When optimize_tokens is set, then the writer compacts the table, drops its header bold and a thrice-repeated line, and counts against the plain conversion', async () => {
    const source = Buffer.from(
      '{\\rtf1\\ansi\\pard\\outlinelevel0 {\\b Title}\\par\\pard Confidential\\par' +
        '\\trowd\\cellx1000\\cellx2000\\pard\\intbl {\\b Name}\\cell {\\b Value}\\cell\\row' +
        '\\trowd\\cellx1000\\cellx2000\\pard\\intbl a\\cell 1\\cell\\row' +
        '\\pard Confidential\\par\\pard | keep me |\\par\\pard Confidential\\par}',
      'latin1',
    );
    const plain = await convertDocument(source, 'rtf', std);
    expect(plain.markdown).toBe(
      '# Title\n\nConfidential\n\n| **Name** | **Value** |\n| --- | --- |\n| a | 1 |\n\nConfidential\n\n| keep me |\n\nConfidential\n',
    );
    const optimized = await convertDocument(source, 'rtf', { ...std, optimizeTokens: true });
    expect(optimized.markdown).toBe('# Title\n\nConfidential\n\n|Name|Value|\n|-|-|\n|a|1|\n\n| keep me |\n');
    expect(optimized.tokenOptimization).toEqual({
      original_tokens: countTokens(plain.markdown),
      optimized_tokens: countTokens(optimized.markdown),
      reduction_percent: expect.any(Number),
    });
  });

  it('When the file is not RTF, then it fails with corrupt_file', async () => {
    await expect(rtf('hello')).rejects.toMatchObject({ code: 'corrupt_file' });
    await expect(rtf('hello {\\b world}')).rejects.toMatchObject({ code: 'corrupt_file' });
  });

  it('When the file is an RTF body without the {\\rtf1 header (pandoc without --standalone), then it is read as RTF', async () => {
    const body =
      '{\\pard \\ql \\f0 \\sa180 \\li0 \\fi0 \\outlinelevel0 \\b \\fs36 \\u220?ber K\\u246?ln\\par}\n' +
      '{\\pard \\ql \\f0 \\sa180 \\li0 \\fi0 Some {\\i emph} text \\u8212- done.\\par}\n' +
      '{\n\\trowd \\trgaph120\n\\cellx4320\\cellx8640\n\\trkeep\\intbl\n{\n' +
      '{{\\pard\\intbl \\ql \\f0 \\sa0 \\li0 \\fi0 A\\par}\n\\cell}\n{{\\pard\\intbl \\ql \\f0 \\sa0 \\li0 \\fi0 B\\par}\n\\cell}\n}\n' +
      '\\intbl\\row}\n';
    const { markdown } = await rtf(body);
    expect(markdown).toBe('# Über Köln\n\nSome *emph* text — done.\n\n| A | B |\n| --- | --- |\n');
  });

  it('When the RTF is truncated mid-group, then the text read so far is kept', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi\\pard Complete.\\par\\pard {\\b Cut');
    expect(markdown).toBe('Complete.\n\n**Cut**\n');
  });

  it('When runs cite character styles that are bold or raised only in the style sheet, then they are strong or superscript', async () => {
    const input = Buffer.from(
      '{\\rtf1\\ansi{\\stylesheet{\\s0 Normal;}{\\*\\cs15 \\additive\\b Strong;}{\\*\\cs16 \\additive\\super Exponent;}' +
        '{\\s1\\sbasedon0 {\\*\\keycode \\shift n}Body;}}\\pard\\plain\\s1 A {\\cs15 key} word, e{\\cs16 x}.\\par}',
      'latin1',
    );
    const { markdown } = await convertDocument(input, 'rtf', std);
    expect(markdown).toBe('A **key** word, e<sup>x</sup>.\n');
  });

  it("When runs cite a code character style (LibreOffice's Source Text, pandoc's Source_Text kept by LibreOffice, one based on Verbatim Char), then they are inline code with their spaces", async () => {
    const input = Buffer.from(
      '{\\rtf1\\ansi{\\stylesheet{\\s0 Normal;}{\\*\\cs15\\snext15 Source Text;}{\\*\\cs16\\snext16 Source_Text;}' +
        '{\\*\\cs17\\snext17 Verbatim Char;}{\\*\\cs18\\sbasedon17\\snext18\\b KeywordTok;}{\\*\\cs19\\snext19 Emphasis;}}' +
        '\\pard\\plain Run {\\cs15 fixctl  --audit} or {\\cs16 make} then {\\cs18 def}, {\\cs19 not code}.\\par}',
      'latin1',
    );
    const { markdown } = await convertDocument(input, 'rtf', std);
    expect(markdown).toBe('Run `fixctl  --audit` or `make` then **`def`**, not code.\n');
  });

  it('When a code paragraph is indented by a run of its own (LibreOffice writes "{    }" before the line), then the indentation is kept', async () => {
    const input = Buffer.from(
      '{\\rtf1\\ansi{\\stylesheet{\\s0 Normal;}{\\s44 Preformatted Text;}}' +
        '\\pard\\plain\\s44{def total(orders):}\\par\\pard\\plain\\s44{    }{return  sum(o)}\\line{\\tab x}\\par' +
        '\\pard\\plain Prose  with   spaces.\\par}',
      'latin1',
    );
    const { markdown } = await convertDocument(input, 'rtf', std);
    expect(markdown).toBe('```\ndef total(orders):\n    return  sum(o)\n x\n```\n\nProse with spaces.\n');
  });

  it("When paragraphs are in LibreOffice's List Heading / List Contents or Word's Block Text styles, then they are a definition list and a quote", async () => {
    const input = Buffer.from(
      '{\\rtf1\\ansi{\\stylesheet{\\s0 Normal;}{\\s1 List Heading;}{\\s2 List Contents;}{\\s3 Block Text;}}' +
        '\\pard\\plain\\s1 Boiler\\par\\pard\\plain\\s2 A closed vessel.\\par\\pard\\plain\\s2 Heats water.\\par' +
        '\\pard\\plain\\s3 Less is more.\\par\\pard\\plain\\s1 Alone\\par}',
      'latin1',
    );
    const { markdown } = await convertDocument(input, 'rtf', std);
    expect(markdown).toBe('- **Boiler**\n  - A closed vessel.\n  - Heats water.\n\n> Less is more.\n\nAlone\n');
  });
  it("When text is in the Symbol font (bytes, letters, and Word's private-use \\u codes), then its Greek letters and signs are read, not Latin ones", async () => {
    const { markdown } = await rtf(
      "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times;}{\\f5\\ftech\\fcharset2 Symbol;}}\\pard x {\\f5 \\'b3} 5, {\\f5 a+b}, {\\f5\\u61538\\'3f} and caf\\'e9\\par}",
    );
    expect(markdown).toBe('x ≥ 5, α+β, β and café\n');
  });

  it('When text is in Wingdings (bytes, letters, private-use \\u codes), then its check marks and boxes read as such and its pictures stay out', async () => {
    const { markdown } = await rtf(
      "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times;}{\\f3\\fnil\\fcharset2 Wingdings;}}\\pard Done {\\f3 \\'fc}, boxed {\\f3\\u61694\\'3f}, good {\\f3 C}work\\par}",
    );
    expect(markdown).toBe('Done ✓, boxed ☑, good work\n');
  });
});

describe('RTF lists typed as text', () => {
  it('When paragraphs open with a typed bullet and a space (no tab), then they are a list without the bullets', async () => {
    const { markdown } = await rtf('{\\rtf1\\ansi Pack:\\par \\bullet  Tent\\par \\u9679? Stove\\par Go.\\par}');
    expect(markdown).toBe('Pack:\n\n- Tent\n- Stove\n\nGo.\n');
  });
});
