import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf, ruledGrid } from './make-pdf';

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

/** Draws one cell's text at a point, as a table writer draws it: one call per cell or wrapped line. */
function cellsOf(doc: PDFKit.PDFDocument): (text: string, x: number, y: number) => void {
  return (text, x, y) => void doc.text(text, x, y, { lineBreak: false });
}

/** The Markdown of a one-page PDF that `draw` draws. */
async function markdownOf(draw: (doc: PDFKit.PDFDocument) => void): Promise<string> {
  return (await convertIsolated(await pdf(draw), 'pdf', std, limits)).markdown;
}

describe('PDF tables set without rules', () => {
  it('When the header row leaves the row-label column empty, then the labels keep a column of their own', async () => {
    const markdown = await markdownOf((doc) => {
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
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      rows.forEach((row, r) => {
        doc.text(row[0]!, 72, 100 + r * 18, { lineBreak: false });
        doc.text(row[1]!, 200, 100 + r * 18, { width: 100, align: 'right', lineBreak: false });
        doc.text(row[2]!, 340, 100 + r * 18, { lineBreak: false });
      });
    });
    expect(markdown).toBe(
      '| Item | Amount | Paid |\n| --- | --- | --- |\n| Rent | 1,250.00 | yes |\n| Water | 42.10 | no |\n| Power | 7.00 | yes |\n',
    );
  });

  it('When a value sits off-centre under a wide column of labelled values, then it joins that column', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const xs = [72, 150, 330, 390];
      writeRows(doc, [['Name', 'Gabriel Diaz', 'Year', '2022']], xs);
      // The claim number stands right of where the column's other values start.
      writeRows(doc, [['Claim #', '999', 'Make', 'Jeep']], [72, 250, 330, 390], 18, 118);
      writeRows(doc, [['Email', 'gabriel.diaz@example.com', 'Model', 'Cherokee']], xs, 18, 136);
    });
    expect(markdown).toBe(
      '| Name | Gabriel Diaz | Year | 2022 |\n| --- | --- | --- | --- |\n| Claim # | 999 | Make | Jeep |\n| Email | gabriel.diaz@example.com | Model | Cherokee |\n',
    );
  });

  it('When a header and a single row split into the same three or more columns, then they are a table', async () => {
    const markdown = await markdownOf((doc) => {
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
    expect(markdown).toBe(
      '| Start date | End date | Shows | Amount |\n| --- | --- | --- | --- |\n| 12/20/24 | 12/31/24 | 48 | $12,500.00 |\n',
    );
  });

  it('When two lines of running text split into two columns each, then they stay prose', async () => {
    const markdown = await markdownOf((doc) => {
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
    expect(markdown).toBe(
      'The council met on Monday to discuss Meanwhile the school orchestra has won the new bridge across the northern bank. the regional prize for a third year.\n',
    );
  });

  it('When a cell of a row wraps onto a second line, then the wrapped text stays in its cell', async () => {
    const markdown = await markdownOf((doc) => {
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
    expect(markdown).toBe(
      '| Ln | Description | Total |\n| --- | --- | --- |\n| 1 | Replacement of the front bumper and grille | $300 |\n| 2 | Paint | $225 |\n',
    );
  });

  it('When a row is drawn cell by cell and a middle cell wraps, then the cells after the wrap stay in the row', async () => {
    // Word and LibreOffice draw a table cell by cell: a cell's wrapped line comes before the next cell of its row.
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const cell = cellsOf(doc);
      const cells: Array<[string, number, number]> = [
        ['Terminal', 72, 100],
        ['Purpose', 200, 100],
        ['Wire colour', 340, 100],
        ['COM', 72, 120],
        ['Common return for', 200, 120],
        ['all valves', 200, 134],
        ['White', 340, 120],
        ['1', 72, 154],
        ['Front lawn', 200, 154],
        ['Red', 340, 154],
        ['2', 72, 174],
        ['Vegetable beds', 200, 174],
        ['Blue', 340, 174],
      ];
      for (const [text, x, y] of cells) cell(text, x, y);
    });
    expect(markdown).toBe(
      '| Terminal | Purpose | Wire colour |\n| --- | --- | --- |\n| COM | Common return for all valves | White |\n| 1 | Front lawn | Red |\n| 2 | Vegetable beds | Blue |\n',
    );
  });

  it('When the first column’s text wraps closer than the rows stand, then the wrapped text stays in its cell', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const cell = cellsOf(doc);
      const row = (y: number, cells: string[], wrap?: string): void => {
        cell(cells[0]!, 72, y);
        if (wrap) cell(wrap, 72, y + 14);
        cells.slice(1).forEach((text, c) => cell(text, [180, 280, 360][c]!, y));
      };
      row(100, ['Article', 'Code', 'Unit', 'Price']);
      row(120, ['Desk, oak', 'D-160-OK', 'piece', '489.00'], 'veneer, 160 cm');
      row(154, ['Office chair,', 'C-MESH-01', 'piece', '229.00'], 'mesh back');
      row(188, ['Bookcase', 'B-5S-OK', 'piece', '265.00']);
    });
    expect(markdown).toBe(
      '| Article | Code | Unit | Price |\n| --- | --- | --- | --- |\n| Desk, oak veneer, 160 cm | D-160-OK | piece | 489.00 |\n| Office chair, mesh back | C-MESH-01 | piece | 229.00 |\n| Bookcase | B-5S-OK | piece | 265.00 |\n',
    );
  });

  it('When every row wraps in its first and last columns, then each row keeps its wrapped text', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const cell = cellsOf(doc);
      cell('Part', 72, 80);
      cell('Code', 220, 80);
      cell('Purpose', 340, 80);
      const row = (y: number, part: string[], code: string, purpose: string[]): void => {
        part.forEach((text, k) => cell(text, 72, y + k * 14));
        cell(code, 220, y);
        purpose.forEach((text, k) => cell(text, 340, y + k * 14));
      };
      row(100, ['Voltage regulator,', '800 mA, low dropout'], 'U-LDO33', [
        'Supply for the',
        'microcontroller and',
        'the radio',
      ]);
      row(148, ['Electrolytic capacitor,', '470 uF, 25 V'], 'C-470U', ['Bulk storage after', 'the regulator']);
      row(182, ['Schottky diode,', '40 V, 1 A'], 'D-SS14', ['Reverse polarity', 'protection']);
    });
    expect(markdown).toBe(
      '| Part | Code | Purpose |\n| --- | --- | --- |\n' +
        '| Voltage regulator, 800 mA, low dropout | U-LDO33 | Supply for the microcontroller and the radio |\n' +
        '| Electrolytic capacitor, 470 uF, 25 V | C-470U | Bulk storage after the regulator |\n' +
        '| Schottky diode, 40 V, 1 A | D-SS14 | Reverse polarity protection |\n',
    );
  });

  it('When a nested list sets its bullets apart with tabs, "•" then "–", then it is a nested list, not a table', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const item = (glyph: string, text: string, x: number, y: number): void => {
        doc.text(glyph, x, y, { lineBreak: false });
        doc.text(text, x + 24, y, { lineBreak: false });
      };
      item('•', 'Office days', 84, 100);
      item('–', 'Monday and Thursday for the whole team', 120, 118);
      item('–', 'one more day of your choice', 120, 136);
      item('•', 'Remote days', 84, 154);
      item('–', 'from home or a coworking space', 120, 172);
    });
    expect(markdown).toBe(
      '- Office days\n  - Monday and Thursday for the whole team\n  - one more day of your choice\n- Remote days\n  - from home or a coworking space\n',
    );
  });

  it('When two short columns of text are drawn one after the other, then their lines are not joined as rows', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      ['Northwind Traders', '12 Harbour Street', 'Bristol BS1 4QA'].forEach((t, k) =>
        doc.text(t, 72, 100 + k * 14, { lineBreak: false }),
      );
      ['Invoice 2026-114', 'Issued 3 March 2026', 'Due 2 April 2026'].forEach((t, k) =>
        doc.text(t, 330, 100 + k * 14, { lineBreak: false }),
      );
    });
    expect(markdown).toContain('Northwind Traders 12 Harbour Street Bristol BS1 4QA');
    expect(markdown).toContain('Invoice 2026-114 Issued 3 March 2026 Due 2 April 2026');
  });

  it('When a line in a smaller size sits under a row’s cell, then it is a row of its own', async () => {
    const markdown = await markdownOf((doc) => {
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
    expect(markdown).toBe(
      '| Ln | Title | Total |\n| --- | --- | --- |\n| 1 | Winter Wonderland | $300 |\n|  | (Runtime: 98 min) |  |\n| 2 | New Year Mystery | $225 |\n',
    );
  });

  it('When header cells stand centred over narrow columns and wrap onto two lines, then they are one header row', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(9);
      // Stream order as producers write it: the wrapped header's second line before the next header cell.
      doc.text('State funded', 300, 100, { lineBreak: false });
      doc.text('legal aid', 308, 111, { lineBreak: false });
      doc.text('CSOs', 380, 100, { lineBreak: false });
      writeRows(
        doc,
        [
          ['Children', '*', '*'],
          ['Women', '*', ''],
          ['Migrants', '', '*'],
        ],
        [72, 322, 388],
        16,
        130,
      );
    });
    expect(markdown).toBe(
      '|  | State funded legal aid | CSOs |\n| --- | --- | --- |\n| Children | \\* | \\* |\n| Women | \\* |  |\n| Migrants |  | \\* |\n',
    );
  });

  it('When a label stands alone over the label column above a table, then it stays outside the table', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Supplies', 72, 100, { lineBreak: false });
      writeRows(
        doc,
        [
          ['Paint', '60'],
          ['Body', '30'],
          ['Other', '15'],
        ],
        [72, 300],
        16,
        116,
      );
    });
    expect(markdown).toBe('Supplies\n\n| Paint | 60 |\n| --- | --- |\n| Body | 30 |\n| Other | 15 |\n');
  });

  it('When a label at the first column’s edge stands between rows, then it is not taken for wrapped text', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(9);
      // The label ends where the second column's entries end, flush right.
      const edge = 72 + doc.widthOfString('Alias list entries:');
      const row = (y: number, size: string, type: string, name: string): void => {
        doc.text(size, 72, y, { lineBreak: false });
        doc.text(type, edge - doc.widthOfString(type), y, { lineBreak: false });
        doc.text(name, 200, y, { lineBreak: false });
      };
      row(100, '4', 'CARD32', 'MAJOR_VERSION');
      row(112, '4', 'CARD32', 'MINOR_VERSION');
      row(124, '4', 'CARD32', 'ALIAS_LIST_OFFSET');
      doc.text('Alias list entries:', 72, 136, { lineBreak: false });
      row(148, '4', 'CARD32', 'N_ALIASES');
      row(160, '8', 'CARD64', 'ALIASES');
    });
    expect(markdown).toBe(
      '| 4 | CARD32 | MAJOR_VERSION |\n| --- | --- | --- |\n| 4 | CARD32 | MINOR_VERSION |\n| 4 | CARD32 | ALIAS_LIST_OFFSET |\n\nAlias list entries:\n\n| 4 | CARD32 | N_ALIASES |\n| --- | --- | --- |\n| 8 | CARD64 | ALIASES |\n',
    );
  });
});

describe('PDF tables drawn with rules', () => {
  it('When a header has no rule under it but the long column rules break there, then it is a row apart', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10).lineWidth(0.8);
      const rule = (x0: number, y0: number, x1: number, y1: number): void => {
        doc.moveTo(x0, y0).lineTo(x1, y1).stroke();
      };
      // No rule under the header; each column rule is one stroke beside the header and one down the body.
      for (const y of [100, 148, 172]) rule(72, y, 312, y);
      for (const x of [72, 192, 312]) {
        rule(x, 100, x, 124);
        rule(x, 124, x, 172);
      }
      [
        ['Region', 'Sales'],
        ['North', '120'],
        ['South', '90'],
      ].forEach((row, r) => row.forEach((text, c) => doc.text(text, 76 + c * 120, 107 + r * 24, { lineBreak: false })));
    });
    expect(markdown).toBe('| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 90 |\n');
  });

  it('When column rules are cut at every text line, then the lines between two row rules stay one row', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10).lineWidth(0.8);
      const rule = (x0: number, y0: number, x1: number, y1: number): void => {
        doc.moveTo(x0, y0).lineTo(x1, y1).stroke();
      };
      // As LaTeX draws a tabular: a column rule segment per text line, row rules only between rows.
      for (const y of [100, 136, 172]) rule(72, y, 312, y);
      for (const x of [72, 192, 312]) for (const y of [100, 118, 136, 154]) rule(x, y, x, y + 18);
      const cell = (text: string, c: number, y: number): void => {
        doc.text(text, 76 + c * 120, y, { lineBreak: false });
      };
      cell('Model', 0, 113);
      cell('Score', 1, 113);
      cell('OTSL', 0, 140);
      cell('0.96', 1, 140);
      cell('HTML', 0, 158);
      cell('0.97', 1, 158);
    });
    expect(markdown).toBe('| Model | Score |\n| --- | --- |\n| OTSL HTML | 0.96 0.97 |\n');
  });

  it('When a run of wide letters and narrow ones crosses a column rule, then the part after the rule is in the next cell', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      ruledGrid(
        doc,
        [72, 104, 150, 200],
        [100, 120, 140, 160],
        [
          ['MMM', 'ill', '1'],
          ['WWW', 'lit', '2'],
          ['MWM', 'tilt', '3'],
        ],
      );
    });
    expect(markdown).toBe('| MMM | ill | 1 |\n| --- | --- | --- |\n| WWW | lit | 2 |\n| MWM | tilt | 3 |\n');
  });
});

describe('PDF tables with turned headers', () => {
  it('When a ruled table’s column headers are turned to run upwards, then each header reads in order', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(9);
      ruledGrid(
        doc,
        [72, 232, 262, 292],
        [100, 170, 190, 210],
        [
          ['User action', '', ''],
          ['Start monitor', 'X', ''],
          ['End monitor', 'X', 'X'],
        ],
      );
      // Producers set turned text in pieces (kerning breaks the run), each placed up the column.
      for (const [pieces, x] of [
        [['*J', 'OB', 'CTL'], 250],
        [['QIB', 'M_DB_', 'SQLADM'], 280],
      ] as const) {
        doc.save().rotate(-90, { origin: [x, 166] });
        let along = x;
        for (const piece of pieces) {
          doc.text(piece, along, 166, { lineBreak: false });
          along += doc.widthOfString(piece) + 1;
        }
        doc.restore();
      }
    });
    expect(markdown).toBe(
      '| User action | \\*JOBCTL | QIBM_DB_SQLADM |\n| --- | --- | --- |\n| Start monitor | X |  |\n| End monitor | X | X |\n',
    );
  });

  it('When poppler joins a label and the next column’s figure into one run, then the figure goes back to its column', async () => {
    // pdftohtml joins words closer than about a letter's width: "Spotted flycatcher" ends 3 pt before "148".
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      writeRows(
        doc,
        [
          ['Species', 'This year', 'Last year', 'Trend'],
          ['Garden warbler', '17', '16', 'Falling'],
          ['Spotted flycatcher', '148', '175', 'Stable'],
          ['Marsh tit', '228', '172', 'Stable'],
        ],
        [72, 160, 260, 360],
      );
    });
    expect(markdown).toBe(
      '| Species | This year | Last year | Trend |\n| --- | --- | --- | --- |\n| Garden warbler | 17 | 16 | Falling |\n| Spotted flycatcher | 148 | 175 | Stable |\n| Marsh tit | 228 | 172 | Stable |\n',
    );
  });

  it('When a bold header row is set tighter than the rows under it, then its column names still part into cells', async () => {
    // A paper's table: the header's names 9-10 pt apart, the figures under them further apart.
    const markdown = await markdownOf((doc) => {
      const xs = [72, 150, 215, 330];
      doc.font('Helvetica-Bold').fontSize(10);
      ['Scheme', 'Peaks seen', 'Energy (relative)', 'Interval (min)'].forEach((name, c) =>
        doc.text(name, xs[c]!, 100, { lineBreak: false }),
      );
      doc.font('Helvetica');
      writeRows(
        doc,
        [
          ['Fixed, 1 min', '100%', '4.10', '1'],
          ['Fixed, 15 min', '71%', '1.00', '15'],
          ['Adaptive', '94%', '0.38', '24'],
        ],
        xs,
        16,
        118,
      );
    });
    expect(markdown).toBe(
      '| Scheme | Peaks seen | Energy (relative) | Interval (min) |\n| --- | --- | --- | --- |\n| Fixed, 1 min | 100% | 4.10 | 1 |\n| Fixed, 15 min | 71% | 1.00 | 15 |\n| Adaptive | 94% | 0.38 | 24 |\n',
    );
  });

  it('When a table drawn cell by cell wraps its first two cells in every row and sets a header cell to the bottom, then each row and the header stay whole', async () => {
    // Word's and LibreOffice's order: each cell's lines, top to bottom, then the next cell; the header's
    // last cell is set to the bottom of its row, so its first line stands above the others.
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const cell = cellsOf(doc);
      const cells: Array<[string, number, number]> = [
        ['Shift', 72, 117],
        ['Days', 171, 117],
        ['Hours', 270, 117],
        ['Volunteers', 369, 100],
        ['needed', 369, 117],
        ['Morning', 72, 137],
        ['sorting', 72, 154],
        ['Monday to', 171, 137],
        ['Friday', 171, 154],
        ['09:00-12:00', 270, 137],
        ['6', 369, 137],
        ['Afternoon', 72, 174],
        ['packing', 72, 191],
        ['Monday to', 171, 174],
        ['Friday', 171, 191],
        ['13:00-16:00', 270, 174],
        ['8', 369, 174],
        ['Saturday', 72, 211],
        ['delivery', 72, 228],
        ['Saturday', 171, 211],
        ['10:00-13:00', 270, 211],
        ['4 drivers', 369, 211],
      ];
      for (const [text, x, y] of cells) cell(text, x, y);
    });
    expect(markdown).toBe(
      '| Shift | Days | Hours | Volunteers needed |\n| --- | --- | --- | --- |\n' +
        '| Morning sorting | Monday to Friday | 09:00-12:00 | 6 |\n' +
        '| Afternoon packing | Monday to Friday | 13:00-16:00 | 8 |\n' +
        '| Saturday delivery | Saturday | 10:00-13:00 | 4 drivers |\n',
    );
  });

  it('When a short second column ends level with the first column’s last line, then its lines are not joined to that line', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const left = [
        'The survey ran for six weeks in spring.',
        'Most answers came in the first week.',
        'A reminder went out in week three.',
      ];
      left.forEach((t, k) => doc.text(t, 72, 100 + k * 14, { lineBreak: false }));
      ['Returns by week are', 'shown in the figure.'].forEach((t, k) =>
        doc.text(t, 320, 114 + k * 14, { lineBreak: false }),
      );
    });
    expect(markdown).not.toContain('|');
    expect(markdown).toContain('shown in the figure.');
    expect(markdown).toMatch(/A reminder went out in week three\.(?! Returns)/);
  });

  it('When poppler joins a cell’s text to the next column’s words, then the words go back to the column they start in', async () => {
    // Each row's second cell is set right after the first (LibreOffice fills a narrow column to its edge).
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const second = 72 + doc.widthOfString('Afternoon packing') + 3;
      writeRows(
        doc,
        [
          ['Shift', 'Days', 'Hours'],
          ['Morning', 'Monday to Friday', '09:00-12:00'],
          ['Afternoon packing', 'Monday to Friday', '13:00-16:00'],
          ['Saturday delivery', 'Saturday', '10:00-13:00'],
        ],
        [72, second, second + 120],
      );
    });
    expect(markdown).toBe(
      '| Shift | Days | Hours |\n| --- | --- | --- |\n| Morning | Monday to Friday | 09:00-12:00 |\n| Afternoon packing | Monday to Friday | 13:00-16:00 |\n| Saturday delivery | Saturday | 10:00-13:00 |\n',
    );
  });

  it('When a browser centres a row’s cells beside a cell wrapped onto two lines, and poppler joins two header names, then each row and the header stay whole', async () => {
    // A browser draws cell by cell and centres each cell in its row: a one-line cell stands half a line
    // below a wrapped cell's first line. "Aspect" and "Nodes" stand 3 pt apart: one run to poppler.
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica-Bold').fontSize(9);
      const cell = cellsOf(doc);
      const nodes = 260 + doc.widthOfString('Aspect') + 3;
      const header: Array<[string, number, number]> = [
        ['Catchment', 72, 105],
        ['Area', 140, 100],
        ['(km²)', 140, 110],
        ['Mean', 190, 100],
        ['elevation (m)', 190, 110],
        ['Aspect', 260, 105],
        ['Nodes', nodes, 105],
      ];
      for (const [text, x, y] of header) cell(text, x, y);
      doc.font('Helvetica');
      const rows: Array<[string[], string, string, string, string]> = [
        [['Val Ferret'], '20.4', '2310', 'North', '16'],
        [['Combe', 'Noire'], '8.7', '2590', 'East', '12'],
        [['Haut', 'Torrent'], '13.1', '2140', 'South', '14'],
      ];
      let y = 130;
      for (const [first, ...rest] of rows) {
        const middle = y + (first.length - 1) * 5;
        first.forEach((t, k) => cell(t, 72, y + k * 10));
        rest.forEach((t, k) => cell(t, [140, 190, 260, nodes][k]!, middle));
        y += first.length * 10 + 3;
      }
    });
    expect(markdown).toBe(
      '| Catchment | Area (km²) | Mean elevation (m) | Aspect | Nodes |\n| --- | --- | --- | --- | --- |\n' +
        '| Val Ferret | 20.4 | 2310 | North | 16 |\n| Combe Noire | 8.7 | 2590 | East | 12 |\n| Haut Torrent | 13.1 | 2140 | South | 14 |\n',
    );
  });

  it('When the column names are centred over columns whose first two cells poppler joins in every row, then the rows are cut where the names part', async () => {
    // A browser's table: names centred in bold, ids and descriptions set 4 pt apart (poppler joins them).
    const markdown = await markdownOf((doc) => {
      const names = ['Asset', 'Description', 'Location', 'State'];
      const centres = [90, 150, 250, 340];
      doc.font('Helvetica-Bold').fontSize(10);
      names.forEach((name, c) => doc.text(name, centres[c]! - doc.widthOfString(name) / 2, 100, { lineBreak: false }));
      doc.font('Helvetica');
      [
        ['FS-1001', 'Battery bank', 'Lower meadow', 'Good'],
        ['FS-1002', 'Soil probe', 'Pond edge', 'Needs repair'],
        ['FS-1003', 'Anemometer', 'North ridge', 'Good'],
        ['FS-1004', 'Rain gauge', 'Main lab', 'Fair'],
      ].forEach((cells, r) => {
        const y = 120 + r * 18;
        doc.text(cells[0]!, 72, y, { lineBreak: false });
        doc.text(cells[1]!, 72 + doc.widthOfString(cells[0]!) + 4, y, { lineBreak: false });
        doc.text(cells[2]!, 215, y, { lineBreak: false });
        doc.text(cells[3]!, 320, y, { lineBreak: false });
      });
    });
    expect(markdown).toBe(
      '| Asset | Description | Location | State |\n| --- | --- | --- | --- |\n' +
        '| FS-1001 | Battery bank | Lower meadow | Good |\n| FS-1002 | Soil probe | Pond edge | Needs repair |\n' +
        '| FS-1003 | Anemometer | North ridge | Good |\n| FS-1004 | Rain gauge | Main lab | Fair |\n',
    );
  });

  it('When a row joins two cells above the first row that fills their second column, then it is cut too', async () => {
    // The first row leaves the date empty; the second's place ends 3 pt before the date column, which only the
    // rows below show.
    const markdown = await markdownOf((doc) => {
      doc.font('Times-Roman').fontSize(10);
      const rows = [
        ['FS-1037', 'Spare mast', 'Boathouse', ''],
        ['FS-1038', 'Battery bank', 'Store room of the east wing', '2026-10-11'],
        ['FS-1039', 'Soil probe', 'Pond edge', '2026-09-20'],
        ['FS-1040', 'Rain gauge', 'Main lab', '2026-01-15'],
      ];
      const xs = [72, 130, 200, 200 + doc.widthOfString(rows[1]![2]!) + 3];
      rows.forEach((cells, r) =>
        cells.forEach((cell, c) => cell && doc.text(cell, xs[c]!, 100 + r * 18, { lineBreak: false })),
      );
    });
    expect(markdown).toContain('| FS-1038 | Battery bank | Store room of the east wing | 2026-10-11 |');
  });

  it('When a printed spreadsheet sets its column names flush left and its figures flush right, then the names head the figures', async () => {
    // Calc's and Excel's print: each cell 100 pt wide, text from its left edge, numbers up to its right edge.
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const starts = [72, 172, 272, 372];
      const rows = [
        ['Cost centre', 'Owner', 'Q1', 'Q2'],
        ['Facilities', 'L. Chen', '32,190', '78,678'],
        ['Research', 'A. Patel', '80,157', '63,135'],
        ['Outreach', 'R. Silva', '80,377', '2,725'],
      ];
      rows.forEach((cells, r) =>
        cells.forEach((cell, c) => {
          const figure = r > 0 && c > 1;
          const x = figure ? starts[c]! + 96 - doc.widthOfString(cell) : starts[c]! + 2;
          doc.text(cell, x, 100 + r * 15, { lineBreak: false });
        }),
      );
    });
    expect(markdown).toBe(
      '| Cost centre | Owner | Q1 | Q2 |\n| --- | --- | --- | --- |\n| Facilities | L. Chen | 32,190 | 78,678 |\n' +
        '| Research | A. Patel | 80,157 | 63,135 |\n| Outreach | R. Silva | 80,377 | 2,725 |\n',
    );
  });

  it('When poppler joins every cell of a table’s last row into one run, then the row stays in the table', async () => {
    // LibreOffice sets the last row's cells 2 pt apart, as wide as its columns: poppler gives one run.
    const markdown = await markdownOf((doc) => {
      doc.font('Times-Roman').fontSize(11);
      const last = ['Damselfly nymph', 'Three leaf-like', 'Caudal'];
      const xs = [72];
      xs.push(xs[0]! + doc.widthOfString(last[0]!) + 2, xs[0]! + doc.widthOfString(`${last[0]} ${last[1]}`) + 4);
      const rows = [
        ['Insect', 'Tails', 'Gills'],
        ['Mayfly nymph', 'Three', 'Abdominal'],
        ['Stonefly nymph', 'Two', 'Thoracic'],
        last,
      ];
      rows.forEach((cells, r) =>
        cells.forEach((cell, c) => doc.text(cell, xs[c]!, 100 + r * 20, { lineBreak: false })),
      );
      doc.text('The gills are the surest guide to the family.', 72, 200, { lineBreak: false });
    });
    expect(markdown).toContain('| Stonefly nymph | Two | Thoracic |\n| Damselfly nymph | Three leaf-like | Caudal |\n');
  });

  it('When a page lists contents with dot leaders and page numbers, then the entries are a table of entry and page', async () => {
    // A book's contents: spaced leaders and roman numbers, one title wrapped onto a second line.
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const entries: Array<[string, string]> = [
        ['Notices', 'vii'],
        ['Preface', 'xi'],
        ['Chapter 1. Securing the data', '1'],
        ['1.1 Security fundamentals', '2'],
      ];
      doc.text('Contents', 72, 72, { lineBreak: false });
      entries.forEach(([title, page], k) => {
        doc.text(`${title} ${'. '.repeat(40 - title.length / 2).trim()} ${page}`, 72, 100 + k * 14, {
          lineBreak: false,
        });
      });
      doc.text('1.2 Establishing and controlling accessibility by using', 72, 156, { lineBreak: false });
      doc.text(`the rule text ${'. '.repeat(30).trim()} 21`, 84, 170, { lineBreak: false });
      doc.text('This book is for security officers.', 72, 210, { lineBreak: false });
    });
    const leader = (title: string): string => `${title} ${'. '.repeat(40 - title.length / 2).trim()}`;
    expect(markdown).toBe(
      'Contents\n\n' +
        `| ${leader('Notices')} | vii |\n| --- | --- |\n| ${leader('Preface')} | xi |\n` +
        `| ${leader('Chapter 1. Securing the data')} | 1 |\n| ${leader('1.1 Security fundamentals')} | 2 |\n` +
        `| 1.2 Establishing and controlling accessibility by using the rule text ${'. '.repeat(30).trim()} | 21 |\n\n` +
        'This book is for security officers.\n',
    );
  });

  it('When a contract sets its clause numbers and lettered sub-clauses apart from their text by tabs, then they are not a table', async () => {
    // Word's hanging indents: "2.1" at the margin, its text at the tab; "(a)" at the tab, its text further in.
    const markdown = await markdownOf((doc) => {
      doc.font('Times-Roman').fontSize(11);
      const lines: Array<[number, string, number, string]> = [
        [72, '2.1', 108, 'The Buyer may place orders by email. Each order must state:'],
        [108, '(a)', 144, 'the quantity of each item of the Goods;'],
        [108, '(b)', 144, 'the delivery date and the delivery address; and'],
        [108, '(c)', 144, 'the name of the person who will receive them.'],
        [72, '2.2', 108, 'The Supplier shall confirm each order within two days.'],
      ];
      lines.forEach(([mx, mark, tx, text], k) => {
        doc.text(mark, mx, 100 + k * 16, { lineBreak: false });
        doc.text(text, tx, 100 + k * 16, { lineBreak: false });
      });
    });
    expect(markdown).not.toContain('|');
    expect(markdown).toContain('2.1 The Buyer may place orders by email. Each order must state:');
    expect(markdown).toContain('the name of the person who will receive them.');
  });

  it('When a table sets its columns 12 pt apart as TeX does, then its cells are parted at those gaps', async () => {
    // TeX's tabular: each column as wide as its widest entry, twice \tabcolsep (12 pt) between columns.
    const markdown = await markdownOf((doc) => {
      doc.font('Times-Roman').fontSize(10);
      const rows = [
        ['Asset', 'Description', 'Last inspection', 'Condition'],
        ['FS-1001', 'Battery bank', '2026-07-21', 'Good'],
        ['FS-1002', 'Weather mast', '2026-09-04', 'Needs repair'],
        ['FS-1003', 'Anemometer', '2026-09-07', 'Good'],
      ];
      const xs = [90];
      for (let c = 1; c < 4; c++) xs.push(xs[c - 1]! + Math.max(...rows.map((r) => doc.widthOfString(r[c - 1]!))) + 12);
      rows.forEach((cells, r) =>
        cells.forEach((cell, c) => doc.text(cell, xs[c]!, 100 + r * 12, { lineBreak: false })),
      );
    });
    expect(markdown).toBe(
      '| Asset | Description | Last inspection | Condition |\n| --- | --- | --- | --- |\n' +
        '| FS-1001 | Battery bank | 2026-07-21 | Good |\n| FS-1002 | Weather mast | 2026-09-04 | Needs repair |\n' +
        '| FS-1003 | Anemometer | 2026-09-07 | Good |\n',
    );
  });
});

/**
 * Draws a table cell by cell, as a browser or Word does: each cell's lines top to bottom, then the next cell,
 * rows `pitch` apart plus the tallest cell's lines; each cell set to the row's top or middle.
 */
function drawCellByCell(
  doc: PDFKit.PDFDocument,
  rows: string[][][],
  xs: number[],
  align: 'top' | 'middle',
  top = 100,
  leading = 13,
): number {
  let y = top;
  for (const row of rows) {
    const tallest = Math.max(...row.map((lines) => lines.length));
    row.forEach((lines, c) => {
      const offset = align === 'middle' ? ((tallest - lines.length) * leading) / 2 : 0;
      lines.forEach((line, k) => void doc.text(line, xs[c]!, y + offset + k * leading, { lineBreak: false }));
    });
    y += tallest * leading + 10;
  }
  return y;
}

describe('PDF tables without rules whose cells wrap onto several lines', () => {
  const wrapped = [
    [
      'Inspect the pump house and',
      'record the pressure on the',
      'sheet by the door before',
      'the morning shift starts.',
    ],
    ['Clean the intake screens of', 'leaves after every storm.'],
    [
      'Check the backup generator',
      'fuel level and run it for',
      'ten minutes, logging the',
      'hours and any warning',
      'lights on the panel.',
    ],
  ];
  const rows = [
    [['Task'], ['Instructions'], ['Owner']],
    [['T-1'], wrapped[0]!, ['Maria']],
    [['T-2'], wrapped[1]!, ['Facilities']],
    [['T-3'], wrapped[2]!, ['Night crew']],
  ];
  const expected =
    '| Task | Instructions | Owner |\n| --- | --- | --- |\n' +
    rows
      .slice(1)
      .map((r) => `| ${r.map((lines) => lines.join(' ')).join(' | ')} |`)
      .join('\n') +
    '\n';

  it('When a browser centres each row’s cells beside a cell wrapped onto three to five lines, then every row is whole', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      drawCellByCell(doc, rows, [72, 130, 330], 'middle');
    });
    expect(markdown).toBe(expected);
  });

  it('When Word sets the cells to the top and the first cell wraps too, beside a cell of five lines, then every row is whole', async () => {
    const labelled = rows.map((r, k) => (k === 0 ? r : [['Site', `area ${k}`], r[1]!, r[2]!]));
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      drawCellByCell(doc, labelled, [72, 130, 330], 'top');
    });
    expect(markdown).toBe(
      expected
        .replace('| T-1 |', '| Site area 1 |')
        .replace('| T-2 |', '| Site area 2 |')
        .replace('| T-3 |', '| Site area 3 |'),
    );
  });

  it('When an identifier wraps at its hyphen in a narrow cell, then it is one word again', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      drawCellByCell(
        doc,
        [
          [['Code'], ['Meaning'], ['Since']],
          [['RX-', 'valve'], ['Return valve on the', 'east loop'], ['2019']],
          [['TX-', 'pump'], ['Transfer pump beside', 'the tank'], ['2021']],
        ],
        [72, 130, 330],
        'middle',
      );
    });
    expect(markdown).toContain('| RX-valve | Return valve on the east loop | 2019 |');
    expect(markdown).toContain('| TX-pump | Transfer pump beside the tank | 2021 |');
  });

  it('When blocks of running text stand side by side in rows (a page of cards), then each stays a paragraph of its own', async () => {
    const cards = [
      ['Our gardeners visit every', 'week in the growing season', 'and once a month in winter.'],
      ['Every visit ends with a short', 'note about what was done', 'and what comes next time.'],
      ['Tools and green waste are', 'taken away the same day, so', 'nothing is left behind.'],
    ];
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      drawCellByCell(doc, [cards, cards.map((c) => [...c].reverse())], [72, 230, 390], 'top');
    });
    expect(markdown).not.toContain('|');
    expect(markdown).toContain('Our gardeners visit every week in the growing season and once a month in winter.');
  });

  it('When a page break cuts a row and its cell goes on for four lines at the top of the next page, then the row is whole', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      drawCellByCell(
        doc,
        [
          [['Step'], ['What to do'], ['Who']],
          [['1'], ['Open the valve'], ['Ann']],
          [['2'], ['Drain the tank into the', 'grey barrel and'], ['Bob']],
        ],
        [72, 130, 330],
        'top',
        680,
      );
      doc.addPage();
      drawCellByCell(
        doc,
        [[[], ['rinse it twice with', 'clean water, then', 'close the outlet and', 'note the time.'], []]],
        [72, 130, 330],
        'top',
        72,
      );
      drawCellByCell(
        doc,
        [
          [['3'], ['Refill the tank'], ['Ann']],
          [['4'], ['Check for leaks'], ['Bob']],
        ],
        [72, 130, 330],
        'top',
        134,
      );
    });
    expect(markdown).toContain(
      '| 2 | Drain the tank into the grey barrel and rinse it twice with clean water, then close the outlet and note the time. | Bob |',
    );
    expect(markdown).toContain('| 3 | Refill the tank | Ann |');
  });
});

describe('PDF tables of two columns, a label beside wrapped text', () => {
  const fields: Array<[string, string[]]> = [
    ['timeout', ['How long the client waits for', 'an answer before it gives up,', 'in seconds.']],
    ['retries', ['How many times a failed call', 'is tried again.']],
    ['base_url', ['The address of the service,', 'with its version path.']],
  ];

  it('When a browser centres each label beside its description wrapped onto two or three lines, then it is a table of two columns', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      drawCellByCell(
        doc,
        [[['Option'], ['Meaning']], ...fields.map(([name, text]) => [[name], text])],
        [72, 170],
        'middle',
      );
    });
    expect(markdown).toBe(
      '| Option | Meaning |\n| --- | --- |\n' +
        fields.map(([name, text]) => `| ${name} | ${text.join(' ')} |`).join('\n') +
        '\n',
    );
  });

  it('When a long label comes joined by poppler to its text’s first line under a row that wraps, then it is cut at the column', async () => {
    const rows: Array<[string, string[]]> = [
      ['id', ['The record’s number, given by', 'the service when it is made.']],
      ['created_at_time', ['When the record was made.']],
      ['owner', ['Who may change it.']],
    ];
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const column = 72 + doc.widthOfString('created_at_time') + 5;
      drawCellByCell(
        doc,
        [[['Field'], ['Meaning']], ...rows.map(([name, text]) => [[name], text])],
        [72, column],
        'top',
      );
    });
    expect(markdown).toContain('| created_at_time | When the record was made. |');
  });

  it('When bullets stand apart from their wrapped items, then they stay a list, not a table', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      drawCellByCell(
        doc,
        fields.map(([, text]) => [['•'], text]),
        [72, 90],
        'top',
      );
    });
    expect(markdown).not.toContain('|');
    expect(markdown).toContain('- How many times a failed call is tried again.');
  });
});

describe('PDF table cells hyphenated where they wrap', () => {
  it('When TeX hyphenates a word at a cell’s line end, row after row drawn line by line, then the word is whole again', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const lines: Array<[string[], number]> = [
        [['ID', 'Description', 'Priority'], 100],
        [['R-1', 'The system shall keep every doc-', 'High'], 116],
        [['', 'ument for thirty days.', ''], 128],
        [['R-2', 'Users can search by title.', 'Low'], 144],
        [['R-3', 'Reports come as PDF and as spread-', 'Low'], 160],
        [['', 'sheets with one header row.', ''], 172],
      ];
      for (const [cells, y] of lines)
        cells.forEach((text, c) => {
          if (text) doc.text(text, [72, 110, 300][c]!, y, { lineBreak: false });
        });
    });
    expect(markdown).toContain('| R-1 | The system shall keep every document for thirty days. | High |');
    expect(markdown).toContain('| R-3 | Reports come as PDF and as spreadsheets with one header row. | Low |');
  });
});

describe('PDF tables whose header row is set larger', () => {
  it('When a table’s header row is set larger than its rows, at their columns, then it stays the header', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica-Bold').fontSize(13);
      writeRows(doc, [['Food', 'Portion', 'Calories']], [72, 180, 300], 20, 80);
      doc.font('Helvetica').fontSize(10);
      writeRows(
        doc,
        [
          ['Leaves', 'One cup', '50'],
          ['Berries', 'Half a cup', '150'],
          ['Grain', 'One bowl', '200'],
        ],
        [72, 180, 300],
        16,
        104,
      );
    });
    expect(markdown).toContain('| Food | Portion | Calories |\n| --- | --- | --- |\n| Leaves | One cup | 50 |');
  });
});

describe('PDF tables whose cells are centred in their columns', () => {
  it('When a centred cell is wider than the ones above it and a date wraps at its hyphen, then both stay in their columns', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const centred = (text: string, middle: number, y: number): void =>
        void doc.text(text, middle - doc.widthOfString(text) / 2, y, { lineBreak: false });
      const rows = [
        ['Name', 'Notes', 'Due'],
        ['Ann', 'Short note', '2026-05-01'],
        ['Bob', 'A much longer note than the first one', '2026-06-12'],
        ['Cy', 'Mid-size note here', '2026-07-30'],
      ];
      rows.forEach((row, r) => {
        centred(row[0]!, 100, 100 + r * 34);
        centred(row[1]!, 260, 100 + r * 34);
        if (r === 0) centred(row[2]!, 420, 100);
        else {
          const [year, rest] = [row[2]!.slice(0, 5), row[2]!.slice(5)];
          centred(year, 420, 94 + r * 34);
          centred(rest, 420, 106 + r * 34);
        }
      });
    });
    expect(markdown).toBe(
      '| Name | Notes | Due |\n| --- | --- | --- |\n| Ann | Short note | 2026-05-01 |\n' +
        '| Bob | A much longer note than the first one | 2026-06-12 |\n| Cy | Mid-size note here | 2026-07-30 |\n',
    );
  });
});

describe('PDF label and value tables', () => {
  it('When poppler joins a middle row whose value is the table’s longest, then the row stays in the table', async () => {
    const markdown = await markdownOf((doc) => {
      doc.font('Helvetica').fontSize(10);
      // The values' column starts 3 pt after the longest label: that row is one run to poppler.
      const second = 72 + doc.widthOfString('Statement period') + 3;
      writeRows(
        doc,
        [
          ['Holder', 'Ms Ada Okonkwo'],
          ['Account', '0042 7781 93'],
          ['Statement period', '1 September 2026 to 30 September 2026'],
          ['Opening', '£1,204.55'],
          ['Closing', '£1,872.10'],
        ],
        [72, second],
        14,
      );
    });
    expect(markdown).toBe(
      '| Holder | Ms Ada Okonkwo |\n| --- | --- |\n| Account | 0042 7781 93 |\n' +
        '| Statement period | 1 September 2026 to 30 September 2026 |\n| Opening | £1,204.55 |\n| Closing | £1,872.10 |\n',
    );
  });
});
