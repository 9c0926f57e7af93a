import { closeConversionWorkers, convertIsolated } from '../../src';
import { parsePdf2Xml } from '../../src/readers/pdf/poppler';
import { handWrittenPageXml, makePdf as pdf, ruledGrid } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };

const pageXml = (texts: Array<[number, number, number, string]>): string => handWrittenPageXml(texts, 'LMRoman10');
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

  it('When a table set without rules has its header row drawn as one run (TeX, booktabs), then the header is its first row', async () => {
    // The header drawn as one run, its columns three spaces apart (about TeX's 12 pt), so poppler gives one item.
    const rows = [
      ['Arrangement', 'Days per week', 'Approval'],
      ['Occasional', 'Up to one', 'Line manager'],
      ['Regular', 'Two or three', 'Department head'],
      ['Full remote', 'Five', 'Human resources'],
    ];
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Core hours run from ten in the morning until three in the afternoon.', 72, 100, { lineBreak: false });
      const header = rows[0]!.join('   ');
      doc.text(header, 72, 130, { lineBreak: false });
      const xs = rows[0]!.map((cell) => 72 + doc.widthOfString(header.slice(0, header.indexOf(cell))));
      rows
        .slice(1)
        .forEach((row, r) => row.forEach((cell, c) => doc.text(cell, xs[c]!, 150 + 14 * r, { lineBreak: false })));
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Core hours run from ten in the morning until three in the afternoon.\n\n' +
        '| Arrangement | Days per week | Approval |\n| --- | --- | --- |\n| Occasional | Up to one | Line manager |\n' +
        '| Regular | Two or three | Department head |\n| Full remote | Five | Human resources |\n',
    );
  });

  it('When a page draws its footer before its text (ReportLab page templates), then a ruled table stays where it stands', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(8);
      doc.text('Quarterly report', 72, 800, { lineBreak: false });
      doc.text('Page 1', 480, 800, { lineBreak: false });
      doc.fontSize(10).text('The following table lists the spending for each region.', 72, 100, { lineBreak: false });
      ruledGrid(
        doc,
        [150, 250, 350],
        [140, 160, 180, 200],
        [
          ['Region', 'Hardware'],
          ['North', '120'],
          ['South', '98'],
        ],
      );
      doc.text('Figures are in thousands of euros.', 72, 240, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Quarterly report Page 1\n\nThe following table lists the spending for each region.\n\n' +
        '| Region | Hardware |\n| --- | --- |\n| North | 120 |\n| South | 98 |\n\nFigures are in thousands of euros.\n',
    );
  });

  it('When troff prints a page number between dashes at the top of a page ("- 2 -"), then it is not part of the text', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(11);
      doc.text('Employees become eligible after completing their probationary period.', 72, 700, { lineBreak: false });
      doc.addPage();
      doc.text('- 2 -', 285, 48, { lineBreak: false });
      doc.text('Managers may refuse a request when the role requires physical presence.', 72, 100, {
        lineBreak: false,
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Employees become eligible after completing their probationary period.\n\n' +
        'Managers may refuse a request when the role requires physical presence.\n',
    );
  });

  it('When a bold heading at the body size stands over a numbered list (troff ms), then it is not read as a table header', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(11);
      doc.text('Questions about this report go to the infrastructure office.', 72, 100, { lineBreak: false });
      doc.font('Times-Bold').text('Next Steps', 72, 130, { lineBreak: false });
      doc.font('Times-Roman');
      ['Finalise the procurement of the fibre switches', 'Train the support officers', 'Publish the handbook'].forEach(
        (item, i) => {
          doc.text(`${i + 1}.`, 72, 150 + 18 * i, { lineBreak: false });
          doc.text(item, 94, 150 + 18 * i, { lineBreak: false });
        },
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toContain('| Next | Steps |');
    expect(markdown).toContain('1. Finalise the procurement of the fibre switches\n2. Train the support officers\n');
  });
});
