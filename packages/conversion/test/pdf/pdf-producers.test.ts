import { parsePdf2Xml } from '../../src/readers/pdf/poppler';

/** pdftohtml's XML of one page holding these text elements (top, left, width, text), written by hand. */
function pageXml(texts: Array<[number, number, number, string]>): string {
  const elements = texts.map(
    ([top, left, width, text]) =>
      `<text top="${top}" left="${left}" width="${width}" height="14" font="0">${text}</text>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<pdf2xml producer="poppler" version="22.12.0">
<page number="1" position="absolute" top="0" left="0" height="842" width="595">
	<fontspec id="0" size="12" family="LMRoman10" color="#000000"/>
${elements.join('\n')}
</page>
</pdf2xml>`;
}

const itemTexts = (xml: string): string[] => parsePdf2Xml(xml)[0]!.items.map((i) => i.text);

describe('PDFs from producers other than browsers and office suites', () => {
  it('When Ghostscript rewrote a PDF and its f-ligatures read as CJK (昀椀), then they are read as the letters', () => {
    const xml = pageXml([
      [100, 72, 400, 'The 昀椀rst o昀케ce was a昀툀uent and 昀氀ew sta昀昀.'],
      [120, 72, 400, '昀椀 is never read alone; 晨昀椀光 stays Chinese.'],
    ]);
    expect(itemTexts(xml)).toEqual([
      'The first office was affluent and flew staff.',
      '昀椀 is never read alone; 晨昀椀光 stays Chinese.',
    ]);
  });
});
