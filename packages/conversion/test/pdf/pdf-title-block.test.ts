import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const BODY =
  'We describe a method for reading the structure of printed documents and measure it on a set of reports that were not used to build it. The results show that the method holds on documents of other kinds.';

describe('PDF paper title block', () => {
  it('When a paper sets its authors larger than the body with affiliation marks, then the title is the heading and the names are not', async () => {
    const input = await pdf((doc) => {
      doc
        .font('Helvetica-Bold')
        .fontSize(18)
        .text('Reading Structure from Printed Reports', 72, 72, { width: 450, align: 'center' });
      doc
        .font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')
        .fontSize(12)
        .text('Alice Martin∗   Bob Chen†   Carol Diaz‡', 72, 110, { width: 450, align: 'center' });
      doc.font('Helvetica').fontSize(12).text('Dmitri Volkov1,2   Eva Lund#', 72, 128, { width: 450, align: 'center' });
      doc
        .font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')
        .fontSize(10)
        .text('∗Example University   †Sample Institute   ‡Test Laboratory', 72, 150, { width: 450, align: 'center' });
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

  /** ACM's and IEEE's title block: names without marks, each over its affiliation, place and email. */
  const AUTHORS = [
    ['Alice Martin', 'Example University', 'Lyon, France', 'alice@example.org'],
    ['Bob Chen', 'Sample Institute', 'Taipei, Taiwan', 'bob@example.org'],
    ['Carol Diaz', 'Test Laboratory', 'Madrid, Spain', 'carol@example.org'],
  ];
  function paper(rowByRow: boolean) {
    return pdf((doc) => {
      doc
        .font('Helvetica-Bold')
        .fontSize(14.4)
        .text('Reading Structure from Printed Reports', 54, 72, { width: 504, align: 'center' });
      const cell = (k: number, r: number) =>
        doc
          .font('Helvetica')
          .fontSize(r ? 10 : 12)
          .text(AUTHORS[k]![r]!, 54 + k * 168, r ? 114 + r * 12 : 110, { width: 168, align: 'center' });
      // LaTeX sets the names' row, then each row under it; a word processor writes one author after another.
      if (rowByRow) for (let r = 0; r < 4; r++) for (let k = 0; k < 3; k++) cell(k, r);
      else for (let k = 0; k < 3; k++) for (let r = 0; r < 4; r++) cell(k, r);
      doc.font('Helvetica-Bold').fontSize(10.5).text('ABSTRACT', 54, 185);
      doc.font('Times-Roman').fontSize(9).text(`${BODY} ${BODY}`, 54, 200, { width: 240 });
      doc.font('Helvetica-Bold').fontSize(10.5).text('1 INTRODUCTION', 54, 300);
      doc.font('Times-Roman').fontSize(9).text(`${BODY} ${BODY}`, 54, 315, { width: 240 });
    });
  }

  it.each([
    ['one author after another', false],
    ['row by row', true],
  ])(
    'When authors without marks stand over their affiliations and emails (%s), then the names are not headings',
    async (_, rowByRow) => {
      const { markdown } = await convertIsolated(await paper(rowByRow), 'pdf', { enhanced: false }, limits);
      const headings = markdown.split('\n').filter((l) => l.startsWith('#'));
      expect(headings).toEqual(['# Reading Structure from Printed Reports', '## ABSTRACT', '## 1 INTRODUCTION']);
      for (const [name] of AUTHORS) expect(markdown).toContain(name!);
    },
  );

  it('When a short title of capitalised words stands over the names, then it stays the heading', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(16).text('Deep Table Models', 54, 72, { width: 504, align: 'center' });
      doc.font('Helvetica').fontSize(12).text('Alice Martin', 54, 100, { width: 504, align: 'center' });
      doc.fontSize(10).text('alice@example.org', 54, 116, { width: 504, align: 'center' });
      doc.font('Times-Roman').fontSize(9).text(`${BODY} ${BODY}`, 54, 150, { width: 400 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', { enhanced: false }, limits);
    expect(markdown.split('\n').filter((l) => l.startsWith('#'))).toEqual(['# Deep Table Models']);
  });

  it("When a manual's title page lists its authors in bold, the last with its address in parentheses, then the names are not headings", async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(24).text('Libexample', 72, 72, { lineBreak: false });
      doc
        .font('Helvetica')
        .fontSize(11)
        .text('A library for reading example files, for version 2.1, 3 May 2024', 72, 110, { lineBreak: false });
      doc.font('Helvetica-Bold').fontSize(14).text('Ada Moreau', 72, 420, { lineBreak: false });
      doc.text('Ravi Kumar', 72, 438, { lineBreak: false });
      doc.text('Mei Lin (help-libexample@example.org)', 72, 456, { lineBreak: false });
      doc.addPage();
      doc.font('Times-Roman').fontSize(11).text(`${BODY} ${BODY}`, 72, 72, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', { enhanced: false }, limits);
    expect(markdown).not.toMatch(/^#+ .*(Ada|Ravi|Mei)/m);
    expect(markdown).toMatch(/Ada Moreau.*Ravi Kumar.*Mei Lin/s);
  });

  it('When a title is one word ending with a digit (a product such as "Libtasn1"), then it is still the heading', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(21).text('Libexample2', 72, 72, { lineBreak: false });
      doc.font('Helvetica').fontSize(11).text('A library for reading example files', 72, 100, { lineBreak: false });
      doc.text(`${BODY} ${BODY}`, 72, 130, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', { enhanced: false }, limits);
    expect(markdown.startsWith('# Libexample2\n')).toBe(true);
  });
});
