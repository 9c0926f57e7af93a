import { readFileSync } from 'node:fs';
import path from 'node:path';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf, ruledGrid } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };

/** Writes one paragraph from parts, each in its own font, continuing on the same line. */
function styled(doc: PDFKit.PDFDocument, parts: Array<[font: string, text: string]>, options = {}): void {
  parts.forEach(([font, text], i) =>
    doc
      .font(font)
      .fontSize(11)
      .text(text, { ...options, continued: i < parts.length - 1 }),
  );
}

describe('PDF inline styles', () => {
  it('When bold and italic words sit inside a wrapped paragraph, then they become strong and emphasis in one paragraph', async () => {
    const input = await pdf((doc) =>
      styled(doc, [
        ['Helvetica', 'The council '],
        ['Helvetica-Bold', 'approved the budget'],
        ['Helvetica', ' on Tuesday and '],
        ['Helvetica-Oblique', 'thanked the volunteers'],
        ['Helvetica', ' who had counted the ballots through the night, long after the hall had emptied out.'],
      ]),
    );
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'The council **approved the budget** on Tuesday and *thanked the volunteers* who had counted the ballots through the night, long after the hall had emptied out.\n',
    );
  });

  it('When a bold run is also italic, then the emphasis nests inside the strong text', async () => {
    const input = await pdf((doc) =>
      styled(doc, [
        ['Helvetica', 'Read '],
        ['Helvetica-BoldOblique', 'this notice'],
        ['Helvetica', ' before the meeting starts.'],
      ]),
    );
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('Read ***this notice*** before the meeting starts.\n');
  });

  it('When plain text holds Markdown characters, then the writer escapes them and no emphasis appears', async () => {
    const input = await pdf((doc) =>
      doc.font('Helvetica').fontSize(11).text('Multiply *both* sides by 2 and keep [the] total_sum and _notes_ safe.'),
    );
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('Multiply \\*both\\* sides by 2 and keep [the] total_sum and \\_notes\\_ safe.\n');
  });

  it('When the whole body is set in a bold font, then the body is plain text, not one long strong run', async () => {
    const input = await pdf((doc) =>
      doc
        .font('Helvetica-Bold')
        .fontSize(11)
        .text('Every line of this letter is printed in the same heavy type, from the first word to the last.'),
    );
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Every line of this letter is printed in the same heavy type, from the first word to the last.\n',
    );
  });

  it('When a list item starts with a bold term, then the item keeps the term strong after its marker', async () => {
    const input = await pdf((doc) => {
      styled(doc, [
        ['Helvetica', '• '],
        ['Helvetica-Bold', 'Apples:'],
        ['Helvetica', ' picked in autumn'],
      ]);
      styled(doc, [
        ['Helvetica', '• '],
        ['Helvetica-Bold', 'Pears:'],
        ['Helvetica', ' kept in the cellar'],
      ]);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('- **Apples:** picked in autumn\n- **Pears:** kept in the cellar\n');
  });
});

describe('PDF nested lists', () => {
  it('When sub-bullets are indented under a bullet, then they become a nested list under that item', async () => {
    const input = await pdf((doc) => {
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(11);
      const item = (x: number, text: string): void => {
        doc.text(text, x, undefined);
      };
      item(72, '• Fruit');
      item(90, '◦ Apples');
      item(90, '◦ Pears');
      item(72, '• Vegetables');
      item(90, '◦ Leeks');
      item(108, '▪ Winter leeks');
      item(72, '• Bread');
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('- Fruit\n  - Apples\n  - Pears\n- Vegetables\n  - Leeks\n    - Winter leeks\n- Bread\n');
  });

  it('When numbered steps have indented bullets, then the bullets nest under their step and the numbering goes on', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      doc.text('1. Open the valve', 72, 100);
      doc.text('• slowly', 92, undefined);
      doc.text('• by hand', 92, undefined);
      doc.text('2. Read the gauge', 72, undefined);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('1. Open the valve\n   - slowly\n   - by hand\n2. Read the gauge\n');
  });

  it('When a bullet wraps onto a second line, then the wrapped line stays in its item and is not nested', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      doc.text('• The first item is long enough to wrap', 72, 100);
      doc.text('onto a second line under its text', 80, undefined);
      doc.text('• Second item', 72, undefined);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('- The first item is long enough to wrap onto a second line under its text\n- Second item\n');
  });

  it('When a bold numbered question wraps onto a second line, then the wrapped line stays in its item and is no heading', async () => {
    const intro =
      'Answer each question below for your own district, using the figures of the last full year, and leave a question blank when no figure is kept.';
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10).text(intro, 72, 60, { width: 450 });
      doc
        .font('Helvetica-Bold')
        .text('23.  If your district runs a public defender office with salaried staff lawyers, what is', 72, 110, {
          lineBreak: false,
        });
      doc.text('the largest caseload per lawyer at one time?', 90, 122);
      doc.font('Helvetica').text('\u2022 Forty cases or fewer', 90, 140);
      doc.text('\u2022 More than forty cases', 90, 154);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      `${intro}\n\n23. **If your district runs a public defender office with salaried staff lawyers, what is the largest caseload per lawyer at one time?**\n    - Forty cases or fewer\n    - More than forty cases\n`,
    );
  });

  it("When a list goes on at the top of the next column, then its items are not nested under the first column's last item", async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('\u2022 Apples', 72, 100);
      doc.text('\u2022 Pears', 72, 114);
      doc.text('\u2022 Plums', 320, 100);
      doc.text('\u2022 Cherries', 320, 114);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('- Apples\n- Pears\n- Plums\n- Cherries\n');
  });
});

describe('PDF symbol-font bullets', () => {
  /** A bullet drawn as a letter in its own small font (how Wingdings or ZapfDingbats boxes read without a Unicode map), then the item. */
  function glyphItem(doc: PDFKit.PDFDocument, glyph: string, text: string, y: number): void {
    doc
      .font('Times-Roman')
      .fontSize(7)
      .text(glyph, 72, y + 2, { lineBreak: false });
    doc.font('Helvetica').fontSize(10).text(text, 82, y);
  }

  it('When the same letter in its own font leads several lines at one indent, then it is a bullet and the lines are list items', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10).text('Our engagements cover:', 72, 80);
      glyphItem(doc, 'r', 'Database performance and scalability', 100);
      glyphItem(doc, 'r', 'Query modernization for better reporting', 114);
      glyphItem(doc, 'r', 'Education and enablement', 128);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Our engagements cover:\n\n- Database performance and scalability\n- Query modernization for better reporting\n- Education and enablement\n',
    );
  });

  it('When a letter in its own font leads a single line, then it stays part of the text', async () => {
    const input = await pdf((doc) => {
      glyphItem(doc, 'A', 'note on the results follows in the next section.', 100);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('A note on the results follows in the next section.\n');
  });
});

describe('PDF spaces drawn after a styled run', () => {
  it("When the space that opens the text after an italic letter is drawn inside the letter's box (Chrome, small type), then the words stay apart", async () => {
    const SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
    const input = await pdf((doc) => {
      doc.font(SANS).fontSize(8);
      const lead = 'Write the letter ';
      doc.text(lead, 72, 100, { lineBreak: false });
      const x = 72 + doc.widthOfString(lead);
      doc.font('Helvetica-Oblique').text('a', x, 100, { lineBreak: false });
      // The italic letter's box reaches over the space drawn after it.
      const after = x + doc.widthOfString('a') - 1.5;
      doc.font(SANS).text(' before the word and go on to the end of the line.', after, 100, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('Write the letter *a* before the word and go on to the end of the line.\n');
  });
});

describe('PDF styled runs in aligned table cells', () => {
  // Embedded fonts, so that poppler gives each style its own text element (as in LibreOffice's PDFs).
  const SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
  const SANS_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

  it('When a cell of a table without rulings holds an italic or bold run whose space is drawn inside the run (LibreOffice), then its words stay apart', async () => {
    const input = await pdf((doc) => {
      doc.font(SANS).fontSize(10).text('Prices by region:', 72, 72);
      const rows: Array<[string, Array<[string, string]>, string]> = [
        ['Region', [[SANS_BOLD, 'Note']], 'Price'],
        [
          'North',
          [
            [SANS, 'an '],
            ['Helvetica-Oblique', 'italic '],
            [SANS, 'word here'],
          ],
          '10',
        ],
        [
          'South',
          [
            [SANS, 'a '],
            [SANS_BOLD, 'bold '],
            [SANS, 'run here'],
          ],
          '12',
        ],
        [
          'West',
          [
            [SANS, 'a plain '],
            ['Helvetica-Oblique', 'italic'],
            [SANS, ' run'],
          ],
          '14',
        ],
      ];
      rows.forEach(([name, parts, price], r) => {
        const y = 100 + r * 16;
        doc.font(SANS).fontSize(10).text(name, 72, y, { lineBreak: false });
        parts.forEach(([font, text], i) =>
          i === 0
            ? doc.font(font).text(text, 200, y, { continued: parts.length > 1, lineBreak: false })
            : doc.font(font).text(text, { continued: i < parts.length - 1, lineBreak: false }),
        );
        doc.font(SANS).text(price, 400, y, { lineBreak: false });
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('| North | an italic word here | 10 |');
    expect(markdown).toContain('| South | a bold run here | 12 |');
    expect(markdown).toContain('| West | a plain italic run | 14 |');
  });

  it('When a ruled cell sets an italic or bold run right before its punctuation, then no space comes between them', async () => {
    const input = await pdf((doc) => {
      doc.font(SANS).fontSize(10);
      ruledGrid(doc, [72, 160, 400], [100, 122, 144, 166], [['Name', 'Note']]);
      const rows: Array<[string, Array<[string, string]>]> = [
        [
          'North',
          [
            [SANS, 'an '],
            ['Helvetica-Oblique', 'ital'],
            [SANS, ', then '],
            [SANS_BOLD, 'bold'],
            [SANS, '. Done'],
          ],
        ],
        [
          'South',
          [
            [SANS, 'the '],
            [SANS_BOLD, 'strong'],
            [SANS, ' words, '],
            ['Helvetica-Oblique', 'here'],
            [SANS, '.'],
          ],
        ],
      ];
      // Each row in drawing order, its name first, as a word processor writes a table.
      rows.forEach(([name, runs], r) => {
        const y = 129 + r * 22;
        doc.font(SANS).text(name, 76, y, { lineBreak: false });
        runs.forEach(([font, text], i) =>
          i === 0
            ? doc.font(font).text(text, 164, y, { continued: true, lineBreak: false })
            : doc.font(font).text(text, { continued: i < runs.length - 1, lineBreak: false }),
        );
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('| North | an ital, then bold. Done |');
    expect(markdown).toContain('| South | the strong words, here. |');
  });
  it('When LibreOffice draws a ruled table whose cells set italic and bold runs before punctuation, then no space comes before the punctuation', async () => {
    // libreoffice-ruled-runs.fodt converted by LibreOffice 7.4 (`soffice --headless --convert-to pdf`).
    const input = readFileSync(path.join(__dirname, '../fixtures/pdf/libreoffice-ruled-runs.pdf'));
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Name | Note |\n| --- | --- |\n| North | an ital, then bold. Done |\n| South | the strong words, here. |\n',
    );
  });
});
