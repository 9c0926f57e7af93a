import { convertDocument } from '../../src';

const std = { enhanced: false };
const W = 'http://schemas.microsoft.com/office/word/2003/wordml';

/** A Word 2003 XML document ("Save as XML Document"), written by hand as Word 2003 writes one. */
function wordMl(body: string, extra = ''): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<?mso-application progid="Word.Document"?>\n' +
      `<w:wordDocument xmlns:w="${W}" xmlns:wx="http://schemas.microsoft.com/office/word/2003/auxHint" ` +
      'xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:aml="http://schemas.microsoft.com/aml/2001/core">' +
      '<o:DocumentProperties><o:Title>Field notes</o:Title><o:Author>Ana Ruiz</o:Author></o:DocumentProperties>' +
      '<w:styles><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>' +
      '<w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>' +
      `${extra}<w:body><wx:sect><wx:sub-section>${body}</wx:sub-section></wx:sect></w:body></w:wordDocument>`,
  );
}

const p = (inner: string, pPr = '') => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${inner}</w:p>`;
const r = (text: string, rPr = '') => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t>${text}</w:t></w:r>`;

describe('Word 2003 XML documents', () => {
  it('When a Word 2003 XML document is uploaded as .xml or .doc, then its headings, lists, links, notes, tables and title convert as a DOCX does', async () => {
    const lists =
      '<w:lists><w:listDef w:listDefId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:nfc w:val="0"/>' +
      '<w:lvlText w:val="%1."/></w:lvl></w:listDef><w:list w:ilfo="1"><w:ilst w:val="0"/></w:list></w:lists>';
    const item = (text: string) =>
      p(
        r(text),
        '<w:listPr><w:ilvl w:val="0"/><w:ilfo w:val="1"/><wx:t wx:val="1."/><wx:font wx:val="Arial"/></w:listPr>',
      );
    const body =
      p(r('Survey'), '<w:pStyle w:val="Heading1"/>') +
      p(r('Birds seen ') + r('at dawn', '<w:b/>') + '<w:r><w:footnote>' + p(r('Before six.')) + '</w:footnote></w:r>') +
      item('Count the nests') +
      item('Note the weather') +
      p('<w:hlink w:dest="https://example.org/birds">' + r('the bird list') + '</w:hlink>' + r(' online')) +
      p(
        r('Kept ') +
          '<aml:annotation aml:id="1" w:type="Word.Insertion"><aml:content>' +
          r('new ') +
          '</aml:content></aml:annotation>' +
          '<aml:annotation aml:id="2" w:type="Word.Deletion"><aml:content><w:r><w:delText>old </w:delText></w:r></aml:content></aml:annotation>' +
          r('words') +
          '<aml:annotation aml:id="3" w:type="Word.Comment"><aml:content>' +
          p(r('A reviewer remark')) +
          '</aml:content></aml:annotation>',
      ) +
      '<w:tbl><w:tr><w:tc>' +
      p(r('Species')) +
      '</w:tc><w:tc>' +
      p(r('Count')) +
      '</w:tc></w:tr>' +
      '<w:tr><w:tc>' +
      p(r('Wren')) +
      '</w:tc><w:tc>' +
      p(r('3')) +
      '</w:tc></w:tr></w:tbl>';
    const expected =
      '# Survey\n\nBirds seen **at dawn**[^1]\n\n1. Count the nests\n2. Note the weather\n\n' +
      '[the bird list](https://example.org/birds) online\n\nKept new words\n\n' +
      '| Species | Count |\n| --- | --- |\n| Wren | 3 |\n\n[^1]: Before six.\n';
    for (const ext of ['xml', 'doc']) {
      const { markdown, metadata } = await convertDocument(wordMl(body, lists), ext, std);
      expect(markdown).toBe(expected);
      expect([metadata.title, metadata.author]).toEqual(['Field notes', 'Ana Ruiz']);
    }
  });

  it('When a Word 2003 XML document has no body, then it fails with a clear message', async () => {
    const bodiless = Buffer.from(`<?xml version="1.0"?><w:wordDocument xmlns:w="${W}"><w:styles/></w:wordDocument>`);
    await expect(convertDocument(bodiless, 'xml', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message: 'The Word XML document has no body.',
    });
  });
});
