import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const BODY =
  'We describe a method for reading the structure of printed documents and measure it on a set of reports that were not used to build it. The results show that the method holds on documents of other kinds.';

describe('PDF paper title block', () => {
  it('When a paper sets its authors larger than the body with affiliation marks, then the title is the heading and the names are not', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(18).text('Reading Structure from Printed Reports', 72, 72, { width: 450, align: 'center' });
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(12).text('Alice Martin∗   Bob Chen†   Carol Diaz‡', 72, 110, { width: 450, align: 'center' });
      doc.font('Helvetica').fontSize(12).text('Dmitri Volkov1,2   Eva Lund#', 72, 128, { width: 450, align: 'center' });
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(10).text('∗Example University   †Sample Institute   ‡Test Laboratory', 72, 150, { width: 450, align: 'center' });
      doc.font('Helvetica-Bold').fontSize(13).text('Abstract', 72, 190);
      doc.font('Helvetica').fontSize(10).text(BODY, 72, 210, { width: 450 });
      doc.font('Helvetica-Bold').fontSize(13).text('1 Introduction', 72, 280);
      doc.font('Helvetica').fontSize(10).text(BODY, 72, 300, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', { enhanced: false }, limits);
    const headings = markdown.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual(['# Reading Structure from Printed Reports', '## Abstract', '## 1 Introduction']);
    expect(markdown).toContain('Alice Martin∗ Bob Chen† Carol Diaz‡');
    expect(markdown).toContain('Dmitri Volkov1,2 Eva Lund#');
  });
});
