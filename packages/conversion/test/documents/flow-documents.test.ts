import { strToU8, zipSync } from 'fflate';
import { convertDocument } from '../../src';

const std = { enhanced: false };

function odt(body: string, styles = '', meta = ''): Buffer {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"';
  return Buffer.from(
    zipSync({
      mimetype: strToU8('application/vnd.oasis.opendocument.text'),
      'content.xml': strToU8(
        `<office:document-content ${ns}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
      ),
      'meta.xml': strToU8(`<office:document-meta ${ns}><office:meta>${meta}</office:meta></office:document-meta>`),
    }),
  );
}

describe('ODT', () => {
  it('When an ODT has headings, emphasis, a link, a nested numbered list, a table and a note, then each is kept', async () => {
    const input = odt(
      '<text:h text:outline-level="1">Über uns</text:h>' +
        '<text:p>Plain <text:span text:style-name="B">bold</text:span> and <text:a xlink:href="https://x.test/">link</text:a>.<text:note><text:note-body><text:p>A note.</text:p></text:note-body></text:note></text:p>' +
        '<text:list text:style-name="L1"><text:list-item><text:p>One</text:p><text:list><text:list-item><text:p>One.a</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Two</text:p></text:list-item></text:list>' +
        '<table:table><table:table-row><table:table-cell><text:p>A</text:p></table:table-cell><table:table-cell><text:p>B</text:p></table:table-cell></table:table-row>' +
        '<table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>wide</text:p></table:table-cell><table:covered-table-cell/></table:table-row></table:table>',
      '<style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>' +
        '<text:list-style style:name="L1"><text:list-level-style-number text:level="1"/><text:list-level-style-bullet text:level="2"/></text:list-style>',
      '<dc:title>Team</dc:title><dc:creator>Jürgen</dc:creator><meta:document-statistic meta:page-count="2"/>',
    );
    const { markdown, metadata } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      '# Über uns\n\nPlain **bold** and [link](https://x.test/).[^1]\n\n1. One\n   - One.a\n2. Two\n\n| A | B |\n| --- | --- |\n| wide | wide |\n\n[^1]: A note.\n',
    );
    expect(metadata).toEqual({ title: 'Team', author: 'Jürgen', page_count: 2 });
  });

  it('When content.xml declares entities, then the file is refused without expanding them', async () => {
    const input = Buffer.from(zipSync({ 'content.xml': strToU8('<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>') }));
    await expect(convertDocument(input, 'odt', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message: expect.stringContaining('declares XML entities'),
    });
  });
});

describe('EPUB', () => {
  it('When an EPUB has two chapters, then they come in spine order with the OPF title and creator', async () => {
    const chapter = (t: string, p: string) =>
      strToU8(`<html><head><title>${t}</title></head><body><h1>${t}</h1><p>${p}</p></body></html>`);
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/epub+zip'),
        'META-INF/container.xml': strToU8(
          '<container><rootfiles><rootfile full-path="OEBPS/book.opf"/></rootfiles></container>',
        ),
        'OEBPS/book.opf': strToU8(
          '<package xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Poems</dc:title><dc:creator>Ana Lía</dc:creator></metadata>' +
            '<manifest><item id="nav" href="nav.xhtml" properties="nav"/><item id="b" href="b.xhtml"/><item id="a" href="a.xhtml"/></manifest>' +
            '<spine><itemref idref="nav"/><itemref idref="a"/><itemref idref="b"/></spine></package>',
        ),
        'OEBPS/nav.xhtml': chapter('Contents', 'toc'),
        'OEBPS/a.xhtml': chapter('First', 'Uno.'),
        'OEBPS/b.xhtml': chapter('Second', 'Dos.'),
      }),
    );
    const { markdown, metadata } = await convertDocument(input, 'epub', std);
    expect(markdown).toBe('- **Title:** Poems\n- **Authors:** Ana Lía\n\n# First\n\nUno.\n\n# Second\n\nDos.\n');
    expect(metadata).toEqual({ title: 'Poems', author: 'Ana Lía', page_count: 2 });
  });

  it('When the EPUB has no package document, then it fails clearly', async () => {
    const input = Buffer.from(zipSync({ mimetype: strToU8('application/epub+zip') }));
    await expect(convertDocument(input, 'epub', std)).rejects.toMatchObject({
      message: 'The EPUB file has no package document (OPF).',
    });
  });
});

describe('RTF', () => {
  it('When RTF has bold and italic runs, code-page bytes, Unicode escapes and a table, then all are decoded', async () => {
    const rtf =
      "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Arial;}}{\\info{\\title Rapport}{\\author Ren\\'e9}}" +
      "\\pard Caf\\'e9 {\\b bold} and {\\i italic}.\\par" +
      '\\pard \\uc1\\u26085?\\u26412?\\par' +
      '\\trowd\\cellx1000\\cellx2000\\intbl A\\cell B\\cell\\row\\trowd\\cellx1000\\cellx2000\\intbl 1\\cell 2\\cell\\row' +
      '\\pard After.\\par}';
    const { markdown, metadata } = await convertDocument(Buffer.from(rtf, 'latin1'), 'rtf', std);
    expect(markdown).toBe('Café **bold** and *italic*.\n\n日本\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n\nAfter.\n');
    expect(metadata).toEqual({ title: 'Rapport', author: 'René', page_count: 0 });
  });

  it('When the file is not RTF, then it fails with corrupt_file', async () => {
    await expect(convertDocument(Buffer.from('hello'), 'rtf', std)).rejects.toMatchObject({ code: 'corrupt_file' });
  });
});
