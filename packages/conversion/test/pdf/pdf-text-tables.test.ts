import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };

/** Writes each row's cells at the given x positions, one row every `pitch` points from `top`. */
function writeRows(doc: PDFKit.PDFDocument, rows: string[][], xs: number[], pitch = 18, top = 100): void {
  rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (cell) doc.text(cell, xs[c]!, top + r * pitch, { lineBreak: false });
    }),
  );
}

describe('PDF tables set without rules', () => {
  it('When the header row leaves the row-label column empty, then the labels keep a column of their own', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      writeRows(
        doc,
        [
          ['', 'Hours', 'Rate', 'Cost'],
          ['Parts', '', '', '2,100'],
          ['Body labour', '2', '150', '300'],
          ['Paint labour', '1.5', '150', '225'],
        ],
        [72, 250, 310, 370],
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '|  | Hours | Rate | Cost |\n| --- | --- | --- | --- |\n| Parts |  |  | 2,100 |\n| Body labour | 2 | 150 | 300 |\n| Paint labour | 1.5 | 150 | 225 |\n',
    );
  });

  it('When figures are set flush right under their header, then each stays in its column', async () => {
    const rows = [
      ['Item', 'Amount', 'Paid'],
      ['Rent', '1,250.00', 'yes'],
      ['Water', '42.10', 'no'],
      ['Power', '7.00', 'yes'],
    ];
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      rows.forEach((row, r) => {
        doc.text(row[0]!, 72, 100 + r * 18, { lineBreak: false });
        doc.text(row[1]!, 200, 100 + r * 18, { width: 100, align: 'right', lineBreak: false });
        doc.text(row[2]!, 340, 100 + r * 18, { lineBreak: false });
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Item | Amount | Paid |\n| --- | --- | --- |\n| Rent | 1,250.00 | yes |\n| Water | 42.10 | no |\n| Power | 7.00 | yes |\n',
    );
  });

  it('When a value sits off-centre under a wide column of labelled values, then it joins that column', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const xs = [72, 150, 330, 390];
      writeRows(doc, [['Name', 'Gabriel Diaz', 'Year', '2022']], xs);
      // The claim number stands right of where the column's other values start.
      writeRows(doc, [['Claim #', '999', 'Make', 'Jeep']], [72, 250, 330, 390], 18, 118);
      writeRows(doc, [['Email', 'gabriel.diaz@example.com', 'Model', 'Cherokee']], xs, 18, 136);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Name | Gabriel Diaz | Year | 2022 |\n| --- | --- | --- | --- |\n| Claim # | 999 | Make | Jeep |\n| Email | gabriel.diaz@example.com | Model | Cherokee |\n',
    );
  });

  it('When a header and a single row split into the same three or more columns, then they are a table', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      writeRows(
        doc,
        [
          ['Start date', 'End date', 'Shows', 'Amount'],
          ['12/20/24', '12/31/24', '48', '$12,500.00'],
        ],
        [72, 160, 250, 330],
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Start date | End date | Shows | Amount |\n| --- | --- | --- | --- |\n| 12/20/24 | 12/31/24 | 48 | $12,500.00 |\n',
    );
  });

  it('When two lines of running text split into two columns each, then they stay prose', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(10);
      writeRows(
        doc,
        [
          ['The council met on Monday to discuss', 'Meanwhile the school orchestra has won'],
          ['the new bridge across the northern bank.', 'the regional prize for a third year.'],
        ],
        [72, 310],
        13,
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'The council met on Monday to discuss Meanwhile the school orchestra has won the new bridge across the northern bank. the regional prize for a third year.\n',
    );
  });

  it('When a cell of a row wraps onto a second line, then the wrapped text stays in its cell', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const xs = [72, 110, 300];
      const line = (y: number, cells: string[]): void =>
        cells.forEach((cell, c) => {
          if (cell) doc.text(cell, xs[c]!, y, { lineBreak: false });
        });
      line(100, ['Ln', 'Description', 'Total']);
      line(118, ['1', 'Replacement of the front', '$300']);
      line(130, ['', 'bumper and grille', '']);
      line(148, ['2', 'Paint', '$225']);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Ln | Description | Total |\n| --- | --- | --- |\n| 1 | Replacement of the front bumper and grille | $300 |\n| 2 | Paint | $225 |\n',
    );
  });

  it('When a line in a smaller size sits under a row’s cell, then it is a row of its own', async () => {
    const input = await pdf((doc) => {
      const xs = [72, 110, 300];
      const line = (y: number, cells: string[]): void =>
        cells.forEach((cell, c) => {
          if (cell) doc.text(cell, xs[c]!, y, { lineBreak: false });
        });
      doc.font('Helvetica').fontSize(10);
      line(100, ['Ln', 'Title', 'Total']);
      line(118, ['1', 'Winter Wonderland', '$300']);
      doc.fontSize(8);
      line(130, ['', '(Runtime: 98 min)', '']);
      doc.fontSize(10);
      line(148, ['2', 'New Year Mystery', '$225']);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Ln | Title | Total |\n| --- | --- | --- |\n| 1 | Winter Wonderland | $300 |\n|  | (Runtime: 98 min) |  |\n| 2 | New Year Mystery | $225 |\n',
    );
  });
});
