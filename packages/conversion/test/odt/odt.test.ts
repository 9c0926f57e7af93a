import { strToU8, zipSync } from 'fflate';
import { convertDocument } from '../../src';

const std = { enhanced: false };
const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"';

function odt(body: string, styles = '', meta = ''): Buffer {
  return Buffer.from(
    zipSync({
      mimetype: strToU8('application/vnd.oasis.opendocument.text'),
      'content.xml': strToU8(
        `<office:document-content ${NS}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
      ),
      'meta.xml': strToU8(`<office:document-meta ${NS}><office:meta>${meta}</office:meta></office:document-meta>`),
    }),
  );
}

const cell = (inner: string) => `<table:table-cell>${inner}</table:table-cell>`;
const row = (...cells: string[]) => `<table:table-row>${cells.join('')}</table:table-row>`;

describe('ODT', () => {
  it('When table cells hold lists and a nested table, then each cell stays one line with markers and nested cells', async () => {
    const input = odt(
      '<table:table>' +
        row(cell('<text:p>Column A</text:p>'), cell('<text:p>Column B</text:p>')) +
        row(
          cell(
            '<text:p>Intro:</text:p><text:list><text:list-item><text:p>one</text:p></text:list-item><text:list-item><text:p>two</text:p></text:list-item></text:list>',
          ),
          cell('<table:table>' + row(cell('<text:p>x</text:p>'), cell('<text:p>y</text:p>')) + '</table:table>'),
        ) +
        '</table:table>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('| Column A | Column B |\n| --- | --- |\n| Intro: - one - two | x y |\n');
  });

  it('When spans are bold, italic or struck through by automatic styles, then the emphasis is kept', async () => {
    const input = odt(
      '<text:p>A <text:span text:style-name="T1">gone</text:span> and <text:span text:style-name="T2">slanted</text:span> word, ünïcödé.</text:p>',
      '<style:style style:name="T1" style:family="text"><style:text-properties style:text-line-through-style="solid"/></style:style>' +
        '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('A ~~gone~~ and *slanted* word, ünïcödé.\n');
  });

  it('When the document has no text, then the Markdown is empty and the page count comes from meta.xml', async () => {
    const input = odt('', '', '<meta:document-statistic meta:page-count="1"/>');
    const { markdown, metadata } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('');
    expect(metadata).toEqual({ title: '', author: '', page_count: 1 });
  });

  it('When the file is not a zip package, then it fails with corrupt_file', async () => {
    await expect(convertDocument(Buffer.from('not a zip'), 'odt', std)).rejects.toMatchObject({ code: 'corrupt_file' });
  });
});

describe('ODP', () => {
  it('When a slide has no title, then its own name is the heading, and a slide with neither is numbered', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`;
    const box = (cls: string, text: string) =>
      `<draw:frame presentation:class="${cls}"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:body><office:presentation>` +
            `<draw:page draw:name="Opening">${box('title', 'Welcome')}${box('subtitle', 'Hello')}</draw:page>` +
            `<draw:page draw:name="Budget">${box('notitle', 'Numbers follow')}</draw:page>` +
            `<draw:page>${box('notitle', 'The end')}</draw:page>` +
            '</office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Welcome\n\n- Hello\n\n# Budget\n\nNumbers follow\n\n# Slide 3\n\nThe end\n');
  });

  it('When a paragraph has a note and a bold span holding an asterisk, then the note is a footnote and the asterisk is escaped once', async () => {
    const input = odt(
      '<text:p>Yield <text:span text:style-name="B">5*2</text:span><text:note text:note-class="footnote"><text:note-body><text:p>See <text:span text:style-name="B">table</text:span>.</text:p></text:note-body></text:note> rises.</text:p>',
      '<style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('Yield **5\\*2**[^1] rises.\n\n[^1]: See **table**.\n');
  });

  it('When slide text holds Markdown characters and bold, then it is escaped once and the bold kept', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:automatic-styles><style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>` +
            '<office:body><office:presentation><draw:page draw:name="One"><draw:frame presentation:class="notitle"><draw:text-box>' +
            '<text:p>a_b [x] <text:span text:style-name="B">bold</text:span></text:p></draw:text-box></draw:frame></draw:page>' +
            '</office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# One\n\na_b \\[x\\] **bold**\n');
  });
});
