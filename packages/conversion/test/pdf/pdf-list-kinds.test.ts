import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf } from './make-pdf';

// Kinds of lists that real-world reports, forms and papers set and that held-out PDFs lost (issue 23, point 3).
afterAll(() => closeConversionWorkers());
const std = { enhanced: false };
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

describe('PDF bullets in a symbol font on their own baseline', () => {
  /** A bullet glyph set smaller in its own font, lower than the text, and a tab's width left of the item. */
  function item(doc: PDFKit.PDFDocument, glyph: string, text: string, y: number): void {
    doc
      .font(DEJAVU)
      .fontSize(7)
      .text(glyph, 72, y + 3, { lineBreak: false });
    doc.font('Helvetica').fontSize(10).text(text, 96, y, { lineBreak: false });
  }

  it('When a symbol-font bullet reads as a symbol and sits off the text baseline, then the lines are list items, not a table', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10).text('Measuring the blood gases:', 72, 80, { lineBreak: false });
      item(doc, '¢', 'Blood drawn into a heparin syringe', 100);
      item(doc, '¢', 'From an artery rather than a vein', 116);
      item(doc, '¢', 'Partial pressures of oxygen and carbon dioxide', 132);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Measuring the blood gases:\n\n- Blood drawn into a heparin syringe\n- From an artery rather than a vein\n- Partial pressures of oxygen and carbon dioxide\n',
    );
  });

  it('When the bullet glyph is drawn twice (a fake-bold bullet), then it is one marker', async () => {
    const input = await pdf((doc) => {
      item(doc, '¢¢', 'On an arterial sample', 100);
      item(doc, '¢¢', 'On a venous sample', 116);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('- On an arterial sample\n- On a venous sample\n');
  });

  it('When a lone glyph in its own font leads one line nested under a bulleted line (Word\'s "o"), then it is a sub-item', async () => {
    const input = await pdf((doc) => {
      const line = (glyph: string, font: string, x: number, text: string, y: number) => {
        doc.font(font).fontSize(11).text(glyph, x, y, { lineBreak: false });
        doc
          .font('Helvetica')
          .fontSize(11)
          .text(text, x + 18, y, { lineBreak: false });
      };
      line('•', 'Helvetica', 90, 'Tools for the road', 100);
      line('•', 'Helvetica', 90, 'Spares', 116);
      line('o', 'Courier', 108, 'Inner tube', 132);
      line('•', 'Helvetica', 90, 'Lights', 148);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('- Tools for the road\n- Spares\n  - Inner tube\n- Lights\n');
  });

  it('When a symbol leads a single line in its own font, then it stays part of the text', async () => {
    const input = await pdf((doc) => {
      item(doc, '¢', 'is the cent sign, shown here once.', 100);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('¢ is the cent sign, shown here once.\n');
  });
});

describe('PDF bullets in a symbol font that read as "!"', () => {
  /** WordPerfect's bullet: the symbol font's first code (0x21, "!") in its own font, a tab left of the item. */
  function item(doc: PDFKit.PDFDocument, text: string, y: number, bold: boolean): void {
    doc.font(DEJAVU).fontSize(12).text('!', 72, y, { lineBreak: false });
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(12)
      .text(text, 108, y, { lineBreak: false });
  }

  it('When "!" in its own font leads lines at one indent, then they are list items, bold ones included, not headings', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(12).text('The act is divided into three titles:', 72, 80, { lineBreak: false });
      item(doc, 'Title I, the treaties implementation act', 104, true);
      item(doc, 'Title II, the liability limitation act', 122, true);
      item(doc, 'Title III contains miscellaneous provisions.', 140, false);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'The act is divided into three titles:\n\n- **Title I, the treaties implementation act**\n- **Title II, the liability limitation act**\n- Title III contains miscellaneous provisions.\n',
    );
  });
});

describe('PDF bullets whose code reads as another symbol in the text font', () => {
  it('When the same symbol and a space lead three lines at one indent, then they are list items', async () => {
    const input = await pdf((doc) => {
      doc.font(DEJAVU).fontSize(10);
      doc.text('Details', 72, 80, { lineBreak: false });
      doc.text('¥ Limit one voucher per person.', 72, 100, { lineBreak: false });
      doc.text('¥ Location must be selected at checkout.', 72, 114, { lineBreak: false });
      doc.text('¥ Cannot be combined with other offers.', 72, 128, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Details\n\n- Limit one voucher per person.\n- Location must be selected at checkout.\n- Cannot be combined with other offers.\n',
    );
  });

  it('When a currency sign leads only two lines, then they stay text', async () => {
    const input = await pdf((doc) => {
      doc.font(DEJAVU).fontSize(10);
      doc.text('¥ Prices are in yen.', 72, 100, { lineBreak: false });
      doc.text('¥ Tax is included.', 72, 114, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^- /m);
    expect(markdown).toContain('¥ Prices are in yen.');
  });
});

describe('PDF items whose bullets are drawn, not written', () => {
  const INTRO =
    'Every rider who joins the club tour is lent a repair kit for the season. It is checked before each ride and handed back at the end of the year.';

  it('When short lines indented under a line ending with a colon each stop short of the edge, then they are list items', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11).text(INTRO, 72, 40, { width: 450 });
      doc.text('The kit contains:', 72, 80, { lineBreak: false });
      ['A canvas bag for the tools', 'Two spare inner tubes', 'A pump with a pressure gauge'].forEach((t, k) => {
        doc.circle(80, 104 + k * 16, 2.2).fill('#000');
        doc.fillColor('#000').text(t, 90, 100 + k * 16, { lineBreak: false });
      });
      doc.text('Keep the bag dry between rides.', 72, 160, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain(
      'The kit contains:\n\n- A canvas bag for the tools\n- Two spare inner tubes\n- A pump with a pressure gauge\n\nKeep the bag dry between rides.\n',
    );
  });

  it("When the first item stands a paragraph's spacing below the line ending with a colon (Word's picture bullets), then the lines are still items", async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(11).text(INTRO, 72, 40, { width: 450 });
      doc.text('Here is a list:', 72, 80, { lineBreak: false });
      ['Bullet 1', 'Bullet 2', 'Bullet 3'].forEach((t, k) => {
        doc.rect(92, 106 + k * 16, 4, 4).fill('#000');
        doc.fillColor('#000').text(t, 108, 104 + k * 16, { lineBreak: false });
      });
      doc.text('Here is a numbered list:', 72, 170, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('Here is a list:\n\n- Bullet 1\n- Bullet 2\n- Bullet 3\n');
  });

  it('When drawn-bullet items go on the sentence before them, in lower case ending "…;", then they are list items', async () => {
    // A browser prints a list's discs as drawings: only the items' text is in the PDF.
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11).text(INTRO, 72, 40, { width: 450 });
      doc.text('The committee will:', 72, 80, { lineBreak: false });
      [
        'write to the council asking for bollards;',
        'remind parents in the newsletter; and',
        'organise a walking bus as a trial.',
      ].forEach((t, k) => {
        doc.circle(82, 104 + k * 16, 2.2).fill('#000');
        doc.fillColor('#000').text(t, 94, 100 + k * 16, { lineBreak: false });
      });
      doc.text('The meeting closed at nine.', 72, 160, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain(
      'The committee will:\n\n- write to the council asking for bollards;\n- remind parents in the newsletter; and\n- organise a walking bus as a trial.\n\nThe meeting closed at nine.\n',
    );
  });

  it('When drawn-bullet items wrap in a narrow column, each running to the edge until its last line, then each is one list item', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Earlier work used fixed thresholds, which fail when the baseline drifts during a season.', 72, 60, {
        width: 222,
      });
      doc.text('Our contributions are the following:', 72, 100, { lineBreak: false });
      const item = (text: string, y: number): number => {
        doc.circle(84, y + 4, 1.8).fill('#000');
        doc.fillColor('#000').text(text, 94, y, { width: 200, lineGap: 2 });
        return doc.y;
      };
      let y = item('a threshold that adapts to the seasonal baseline using a running median;', 118);
      y = item('a field deployment of forty-two nodes over two seasons;', y);
      item('an energy model validated against measured battery discharge.', y);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain(
      'Our contributions are the following:\n\n- a threshold that adapts to the seasonal baseline using a running median;\n- a field deployment of forty-two nodes over two seasons;\n- an energy model validated against measured battery discharge.\n',
    );
  });

  it('When an indented quotation of two paragraphs follows a colon, its paragraphs set further apart than its lines, then it is not a list', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('The founder wrote in the first annual letter:', 72, 100, { lineBreak: false });
      doc.text(
        'We started with one van and a borrowed shed, and we delivered to nine families in the first week of the winter.',
        94,
        118,
        { width: 228 },
      );
      doc.text(
        'Today we reach four hundred homes, and every one of them was brought to us by a neighbour.',
        94,
        doc.y + 8,
        {
          width: 228,
        },
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^- /m);
  });

  it('When indented lines in lower case do not end as items going on a sentence do, then they stay text', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11).text(INTRO, 72, 40, { width: 450 });
      doc.text('The poem opens:', 72, 80, { lineBreak: false });
      ['when the tide goes out', 'the gulls come down', 'to walk the shining sand'].forEach((t, k) =>
        doc.text(t, 94, 100 + k * 16, { lineBreak: false }),
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^- /m);
    expect(markdown).toContain('when the tide goes out');
  });

  it('When the indented lines are code in monospaced type, or a quotation whose line wraps, then they are not items', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11).text(INTRO, 72, 40, { width: 450 });
      doc.text('Install it with:', 72, 80, { lineBreak: false });
      doc.font('Courier').fontSize(10).text('Run the installer', 90, 98, { lineBreak: false });
      doc.text('Restart the service', 90, 112, { lineBreak: false });
      doc.font('Helvetica').fontSize(11).text('Put this notice after the title page:', 72, 140, { lineBreak: false });
      doc.text('Copyright (C) the year and your name.', 90, 158, { lineBreak: false });
      doc.text('Permission is granted to copy and distribute this document under the', 90, 172, { lineBreak: false });
      doc.text('terms of the licence, with no invariant sections.', 90, 186, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^- /m);
  });
});

describe('PDF list items that wrap back to the column edge', () => {
  /** One item wrapped to a 200 pt column: its first line indented after the bullet, the others flush with the column's edge. */
  function unindentedItem(doc: PDFKit.PDFDocument, text: string, y: number): number {
    doc.font('Helvetica').fontSize(10);
    doc.text('•', 82, y, { lineBreak: false });
    doc.text(text, 72, y, { width: 200, indent: 20, lineGap: 2 });
    return doc.y;
  }

  it('When an item wraps to the left of its bullet, then the wrapped lines stay in the item', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10).text('Send comments by any of these:', 72, 80, { lineBreak: false });
      let y = unindentedItem(doc, 'Fax: 202-493-2251.', 100);
      y = unindentedItem(
        doc,
        'Mail: U.S. Department of Transportation, Docket Operations, West Building Ground Floor, Room W12-140.',
        y,
      );
      unindentedItem(
        doc,
        'Hand delivery: to the mail address above between 9 a.m. and 5 p.m., Monday through Friday.',
        y,
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Send comments by any of these:\n\n' +
        '- Fax: 202-493-2251.\n' +
        '- Mail: U.S. Department of Transportation, Docket Operations, West Building Ground Floor, Room W12-140.\n' +
        '- Hand delivery: to the mail address above between 9 a.m. and 5 p.m., Monday through Friday.\n',
    );
  });

  it('When an item in a narrow column stops short under a wider running header and its next line opens in lower case, then that line stays in the item', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / Proposed Rules', 72, 60, {
        lineBreak: false,
      });
      doc.text('(1) In the Operating Procedures chapter,', 82, 100, { lineBreak: false });
      doc.text('replace the existing paragraph with figure 2 to', 72, 112, { lineBreak: false });
      doc.text('paragraph (h)(3) of this AD.', 72, 124, { lineBreak: false });
      doc.text('(2) In the Operating Procedures chapter, add', 82, 140, { lineBreak: false });
      doc.text('the information in figure 3 to paragraph', 72, 152, { lineBreak: false });
      doc.text('(h)(4) of this AD.', 72, 164, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain(
      '1. In the Operating Procedures chapter, replace the existing paragraph with figure 2 to paragraph (h)(3) of this AD.\n' +
        '2. In the Operating Procedures chapter, add the information in figure 3 to paragraph (h)(4) of this AD.\n',
    );
  });

  it('When a short item is followed by a line at the column edge, then that line starts a paragraph', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('•', 82, 100, { lineBreak: false });
      doc.text('Design considerations', 92, 100, { lineBreak: false });
      doc.text('•', 82, 112, { lineBreak: false });
      doc.text('Case study', 92, 112, { lineBreak: false });
      doc.text('The module then turns to budgets and the planning of resources.', 72, 124, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '- Design considerations\n- Case study\n\nThe module then turns to budgets and the planning of resources.\n',
    );
  });
});

describe('PDF paper title block with raised affiliation marks', () => {
  const BODY =
    'We describe a method for reading the structure of printed documents and measure it on reports that were not used to build it.';

  it('When each author name carries a smaller raised mark, then the marks stay on the names line and no name is a heading', async () => {
    const input = await pdf((doc) => {
      doc
        .font('Helvetica-Bold')
        .fontSize(18)
        .text('Reading Structure from Printed Reports', 72, 72, { lineBreak: false });
      // Names at 11 pt (larger than the 9 pt body), each followed by a 7 pt mark raised above the baseline.
      let x = 90;
      for (const [name, mark] of [
        ['Alice Martin', '∗+'],
        [', Bob Chen', '∗'],
        [', Carol Diaz', '#'],
      ] as const) {
        doc.font('Helvetica').fontSize(11).text(name, x, 110, { lineBreak: false });
        x += doc.widthOfString(name);
        doc.font(DEJAVU).fontSize(7).text(mark, x, 107, { lineBreak: false });
        x += doc.widthOfString(mark) + 1;
      }
      doc.font('Helvetica-Bold').fontSize(11).text('Abstract', 72, 150, { lineBreak: false });
      doc.font('Helvetica').fontSize(9).text(BODY, 72, 168, { width: 450 });
      doc.text(BODY, 72, 200, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    const headings = markdown.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual(['# Reading Structure from Printed Reports', '## Abstract']);
    expect(markdown).toContain('Alice Martin∗+, Bob Chen∗, Carol Diaz#');
  });
});

describe('PDF items numbered in parentheses', () => {
  it('When lines start with (1), (2), (3), then they are an ordered list', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('I certify that the proposed regulation:', 72, 80, { lineBreak: false });
      doc.text('(1) Is not a significant regulatory action,', 72, 94, { lineBreak: false });
      doc.text('(2) Will not affect intrastate aviation, and', 72, 108, { lineBreak: false });
      doc.text('(3) Will not have a significant economic impact.', 72, 122, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'I certify that the proposed regulation:\n\n1. Is not a significant regulatory action,\n2. Will not affect intrastate aviation, and\n3. Will not have a significant economic impact.\n',
    );
  });

  it('When an inline enumeration wraps so that its (1) starts a line and its (2) sits inside one, then it stays running text', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Achieving this requires addressing two critical questions:', 72, 80, { lineBreak: false });
      doc.text('(1) How can we design agents that are capable and', 72, 94, { lineBreak: false });
      doc.text('reusable? (2) How can we develop a unified interface for', 72, 108, { lineBreak: false });
      doc.text('them? In practice, both questions matter to every team.', 72, 122, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Achieving this requires addressing two critical questions: (1) How can we design agents that are capable and reusable? (2) How can we develop a unified interface for them? In practice, both questions matter to every team.\n',
    );
  });

  it('When lines start with (i), (ii), (iii), then they are an ordered list', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('The tenant shall:', 72, 80, { lineBreak: false });
      doc.text('(i) pay the rent on time,', 72, 94, { lineBreak: false });
      doc.text('(ii) keep the premises clean, and', 72, 108, { lineBreak: false });
      doc.text('(iii) allow inspections with notice.', 72, 122, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'The tenant shall:\n\n1. pay the rent on time,\n2. keep the premises clean, and\n3. allow inspections with notice.\n',
    );
  });

  it('When (3) ends a page and (4) opens the next one under a running header, then (4) goes on with the list; a reference wrapped to a line start stays text', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Revise the manual as follows:', 72, 80, { lineBreak: false });
      doc.text('(1) Remove the old limits.', 72, 94, { lineBreak: false });
      doc.text('(2) Revise the general paragraph.', 72, 108, { lineBreak: false });
      doc.text('(3) Replace the airspeed paragraph.', 72, 122, { lineBreak: false });
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(12).text('Federal Notices, Part Two', 72, 60, { lineBreak: false });
      doc.font('Helvetica').fontSize(10);
      doc.text('(4) Replace the stabilizer paragraph.', 72, 94, { lineBreak: false });
      doc.text('The changes take effect when the manual is revised as in paragraph', 72, 122, { lineBreak: false });
      doc.text('(5) of this section, not before.', 72, 136, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Revise the manual as follows:\n\n1. Remove the old limits.\n2. Revise the general paragraph.\n3. Replace the airspeed paragraph.\n\n' +
        '# Federal Notices, Part Two\n\n4. Replace the stabilizer paragraph.\n\n' +
        'The changes take effect when the manual is revised as in paragraph (5) of this section, not before.\n',
    );
  });

  it('When a number in parentheses that starts no sequence opens a line of running text, then it stays text', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('The two results of the last section, equations', 72, 80, { lineBreak: false });
      doc.text('(3) and (4), are the same when the load is zero.', 72, 94, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'The two results of the last section, equations (3) and (4), are the same when the load is zero.\n',
    );
  });
});

describe('PDF list items set large or widely spaced', () => {
  it('When a bullet line is set larger than the body, then it is a list item, not a heading', async () => {
    const input = await pdf((doc) => {
      doc
        .font('Helvetica')
        .fontSize(10)
        .text('Text size examples follow in the list below, from small to large.', 72, 80, { lineBreak: false });
      doc.text('• This text is normal size.', 72, 100, { lineBreak: false });
      doc.fontSize(18).text('• This text is larger.', 72, 116, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^#/m);
    expect(markdown).toContain('- This text is larger.');
  });

  it('When a double-spaced item wraps under its text, then the wrapped line stays in the item', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      doc.text('•', 43, 100, { lineBreak: false });
      // The wrapped line stands 22 pt under the first, as far as the next item stands under it.
      doc.text(
        '(rp): trobopan: Loads a test page and pans to the bottom and back to the top. This measures the lag',
        57,
        100,
        {
          lineBreak: false,
        },
      );
      doc.text('time in rendering the page.', 71, 122, { lineBreak: false });
      doc.text('•', 43, 145, { lineBreak: false });
      doc.text('(pr): tprovider: Fills the awesomebar database with thousands of entries.', 57, 145, {
        lineBreak: false,
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '- (rp): trobopan: Loads a test page and pans to the bottom and back to the top. This measures the lag time in rendering the page.\n- (pr): tprovider: Fills the awesomebar database with thousands of entries.\n',
    );
  });
});

describe('PDF numbered items whose numbers stand a tab apart from their text', () => {
  it('When "1." "2." "3." stand in a column of their own beside wrapped text, then they are a numbered list, not a table', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(12);
      doc.text('The four exceptions are as follows:', 72, 80, { lineBreak: false });
      const item = (n: number, lines: string[], y: number) => {
        doc.text(`${n}.`, 90, y, { lineBreak: false });
        lines.forEach((l, k) => doc.text(l, 126, y + k * 14, { lineBreak: false }));
      };
      item(
        1,
        ['Libraries and archives (section 4(d)). Libraries may copy a work', 'to decide whether to acquire it.'],
        104,
      );
      item(
        2,
        ['Reverse engineering (section 4(f)). Programs may be studied', 'to make other programs work with them.'],
        138,
      );
      item(3, ['Security testing (section 4(j)).'], 172);
      item(4, ['Personal privacy (section 4(i)).'], 188);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'The four exceptions are as follows:\n\n' +
        '1. Libraries and archives (section 4(d)). Libraries may copy a work to decide whether to acquire it.\n' +
        '2. Reverse engineering (section 4(f)). Programs may be studied to make other programs work with them.\n' +
        '3. Security testing (section 4(j)).\n' +
        '4. Personal privacy (section 4(i)).\n',
    );
  });

  it('When a two-column table numbers its rows without counting up by one, then it stays a table', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      [
        ['1.', 'Opening balance brought forward'],
        ['3.', 'Receipts of the quarter'],
        ['7.', 'Payments of the quarter'],
      ].forEach(([a, b], r) => {
        doc.text(a!, 72, 100 + r * 16, { lineBreak: false });
        doc.text(b!, 140, 100 + r * 16, { lineBreak: false });
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('| 3. | Receipts of the quarter |');
  });
});

describe('PDF numbered items with their text hung under them (an agenda)', () => {
  const PREAMBLE =
    'Welcome to the meeting of the board. If you would like to address the board during public comments on any item, please fill out a card available in the hallway and give it to the assistant before the meeting starts.';

  it('When bold numbered items are set larger than a small-print preamble, with their text indented under them, then they are list items, not headings', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(8);
      for (let k = 0; k < 4; k++) doc.text(PREAMBLE, 50, 80 + k * 40, { width: 500 });
      const item = (text: string, y: number) =>
        doc.font('Helvetica-Bold').fontSize(11).text(text, 77, y, { lineBreak: false });
      // The text under an item is indented with spaces, as a word processor's tab stops were drawn.
      const under = (text: string, y: number) =>
        doc.font('Helvetica').fontSize(10).text(`          ${text}`, 77, y, { lineBreak: false });
      item('1.     CALL TO ORDER', 260);
      item('2.     PUBLIC COMMENT', 286);
      under('The public may address the board on any item on the agenda and on', 300);
      under('any item not on it, for three minutes at most.', 312);
      item('3.     CLOSED SESSION', 338);
      under('Closed sessions are not open to the public.', 352);
      doc
        .font('Helvetica')
        .fontSize(11)
        .text('3.1  Performance evaluation of the superintendent', 104, 370, { lineBreak: false });
      item('4.     ADJOURNMENT', 396);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^#/m);
    expect(markdown).toContain(
      '1. **CALL TO ORDER**\n' +
        '2. **PUBLIC COMMENT** The public may address the board on any item on the agenda and on any item not on it, for three minutes at most.\n' +
        '3. **CLOSED SESSION** Closed sessions are not open to the public.\n' +
        '   - 3.1 Performance evaluation of the superintendent\n' +
        '4. **ADJOURNMENT**\n',
    );
  });

  it("When numbered section titles have their text back at the number's edge, then they stay headings", async () => {
    const input = await pdf((doc) => {
      const body =
        'We describe a method for reading documents and measure it on reports that were not used to build it.';
      doc.font('Helvetica-Bold').fontSize(13).text('1. Introduction', 72, 80, { lineBreak: false });
      doc.font('Helvetica').fontSize(10).text(body, 72, 100, { width: 300 });
      doc.font('Helvetica-Bold').fontSize(13).text('2. Method', 72, 150, { lineBreak: false });
      doc.font('Helvetica').fontSize(10).text(body, 72, 170, { width: 300 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown.split('\n').filter((l) => l.startsWith('#'))).toEqual(['# 1. Introduction', '# 2. Method']);
  });
});

describe('PDF numbered section titles with bulleted items under one of them', () => {
  it('When section "3." goes on from sections 1 and 2 in their type and bullets hang under it, then 3 and 4 stay headings', async () => {
    const input = await pdf((doc) => {
      const body = 'The board discussed the matter and agreed on the text read out by the chair.';
      const title = (text: string, y: number) =>
        doc.font('Helvetica-Bold').fontSize(13).text(text, 72, y, { lineBreak: false });
      const text = (line: string, y: number, x = 72) =>
        doc.font('Helvetica').fontSize(10).text(line, x, y, { lineBreak: false });
      title('1. Approval of the minutes', 80);
      text(body, 100);
      title('2. Financial statement', 130);
      text(body, 150);
      title('3. Decisions', 180);
      ['The lease was renewed for three years.', 'The conference will be held in Ghent.'].forEach((item, k) => {
        text('•', 200 + k * 16, 84);
        text(item, 200 + k * 16, 96);
      });
      title('4. Any other business', 250);
      text(body, 270);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '# 1. Approval of the minutes',
      '# 2. Financial statement',
      '# 3. Decisions',
      '# 4. Any other business',
    ]);
    expect(markdown).toContain('- The lease was renewed for three years.\n- The conference will be held in Ghent.\n');
  });
});

describe('PDF numbered paragraphs set flush with their marks (regulations)', () => {
  it("When a lettered paragraph's sentence ends at the column's edge and the paragraph goes on at the marks' edge, then the next line stays in the item", async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(10);
      const line = (text: string, y: number) => doc.text(text, 72, y, { lineBreak: false });
      // Each line's last word stops at the column's edge (about 330 pt); (a)'s first sentence ends there.
      line('(a) Schedule II shall consist of the drugs and other substances listed in this section.', 100);
      line('Unless specifically excepted or unless listed in another schedule, any material', 112);
      line('containing them is subject to this part.', 124);
      line('(b) Substances of vegetable origin or produced by chemical synthesis, directly or', 136);
      line('indirectly, are listed in paragraph (c).', 148);
      line('(c) Opiates, including their isomers, esters, ethers and salts, are listed below.', 160);
      line('The Administrator publishes changes to this list in the register.', 184);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain(
      '1. Schedule II shall consist of the drugs and other substances listed in this section. Unless specifically excepted or unless listed in another schedule, any material containing them is subject to this part.\n' +
        '2. Substances of vegetable origin or produced by chemical synthesis, directly or indirectly, are listed in paragraph (c).\n' +
        '3. Opiates, including their isomers, esters, ethers and salts, are listed below.\n\nThe Administrator publishes',
    );
  });
});

describe('PDF lettered paragraphs longer than a dozen lines', () => {
  const TEXT =
    'shall file an application with the Administrator, who shall review it within a reasonable period of time and shall publish a notice of the application in the register, stating the name of the applicant, the substance for which the exemption is sought, the reasons given for it, and the period within which interested persons may comment on it or ask for a hearing. The Administrator may require further information, including the results of tests, the labelling, the quantities expected to be made in each year, and the names and addresses of the persons who will make, distribute or sell it.';

  it('When (a), (b) and (c) each open a paragraph of some twenty-five lines, then they are items', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9.5);
      const paragraphs = [
        '(a) Any person seeking an exclusion',
        '(b) Any person seeking an exemption',
        '(c) Any person seeking a revocation',
      ];
      doc.text(paragraphs.map((p) => `${p} ${TEXT} Moreover, the applicant ${TEXT}`).join('\n'), 54, 72, {
        width: 240,
        paragraphGap: 3,
        indent: 10,
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^1\. Any person seeking an exclusion shall file/m);
    expect(markdown).toMatch(/^2\. Any person seeking an exemption shall file/m);
    expect(markdown).toMatch(/^3\. Any person seeking a revocation shall file/m);
  });

  it('When a (1) wrapped to a line start is followed far below by a (2) inside a line, then both stay running text', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9.5);
      doc.text(
        `The rule sets two tests. (1) The applicant ${TEXT} The second test, (2) the public interest, is weighed last.`,
        54,
        72,
        {
          width: 240,
        },
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^\d\. /m);
  });
});

describe('PDF section titles that end with a period', () => {
  const BODY =
    'Any person seeking to have a substance excluded shall file an application with the Administrator, who shall review it within a reasonable period of time.';

  it('When a bold title ending with a period wraps in a narrow column, then both lines are one heading', async () => {
    const input = await pdf((doc) => {
      doc
        .font('Times-Bold')
        .fontSize(10)
        .text('§ 1308.21 Application for exclusion of a nonnarcotic substance.', 54, 60, { width: 240 });
      doc.font('Times-Roman').fontSize(9.5).text(BODY, 54, 90, { width: 240 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^#+ § 1308\.21 Application for exclusion of a nonnarcotic substance\.\n\nAny person/);
  });

  it("When a bold line ending with a period stands a paragraph's spacing under a heading, then it stays text", async () => {
    const input = await pdf((doc) => {
      doc
        .font('Times-Bold')
        .fontSize(10)
        .text('Summary of the findings of the committee of inquiry', 54, 60, { lineBreak: false });
      doc.text('All recommendations were accepted.', 54, 80, { lineBreak: false });
      doc.font('Times-Roman').fontSize(9.5).text(BODY, 54, 100, { width: 240 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toContain('inquiry All recommendations');
  });
});

describe('PDF look-alikes of lists that stay as they are', () => {
  it('When a table of several columns has the same glyph in every row of its first column, then it stays a table', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('State funded legal aid', 260, 80, { lineBreak: false });
      doc.text('CSOs', 400, 80, { lineBreak: false });
      ['Persons with disabilities', 'Children', 'Women'].forEach((group, r) => {
        const y = 98 + r * 16;
        doc.text('y', 72, y, { lineBreak: false });
        doc.text(group, 100, y, { lineBreak: false });
        doc.text('*', 300, y, { lineBreak: false });
        doc.text('*', 410, y, { lineBreak: false });
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('| y | Persons with disabilities |');
    expect(markdown).not.toMatch(/^- /m);
  });

  it('When numbered points run into one paragraph, then its wrapped line is not joined into the first point', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('Recommendations:', 72, 80, { lineBreak: false });
      doc.text(
        '1. Immediate review of the handling procedures. 2. Implement additional verification for critical',
        72,
        94,
        {
          lineBreak: false,
        },
      );
      doc.text('items. 3. Schedule a follow-up audit for high-value products.', 72, 106, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain(
      '1. Immediate review of the handling procedures. 2. Implement additional verification for critical\n\nitems.',
    );
  });
});

describe('PDF math and figure labels that look like markers', () => {
  it('When steps of a proof each start with an implication arrow, then they are not list items', async () => {
    const input = await pdf((doc) => {
      doc.font(DEJAVU).fontSize(10);
      doc.text('Suppose A meets neither part.', 72, 80, { lineBreak: false });
      doc.text('⇒ A lies in the second part', 72, 94, { lineBreak: false });
      doc.text('⇒ First part is empty', 72, 108, { lineBreak: false });
      doc.text('⇒ Contradiction with the assumption', 72, 122, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^- /m);
  });

  it('When sub-figure labels (a) and (b) stand on one line, then the line is not an item', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      doc.text('(a) Cube', 120, 100, { lineBreak: false });
      doc.text('(b) Pyramid', 320, 100, { lineBreak: false });
      doc.text('Figure 2. Two solids drawn from the same net of faces.', 72, 120, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^1\. /m);
  });
});

describe('PDF headings wrapped after a colon', () => {
  const BODY =
    'This module considers immediate actions following a product idea, including market research and planning.';

  it('When a bold heading wraps after a colon, then both lines are one heading', async () => {
    const input = await pdf((doc) => {
      doc
        .font('Helvetica-Bold')
        .fontSize(11)
        .text('Module Two: Initial Planning and Step 1:', 72, 80, { lineBreak: false });
      doc.text('Concept Development', 72, 93, { lineBreak: false });
      doc.font('Helvetica').fontSize(10).text(BODY, 72, 110, { width: 450 });
      doc.text(BODY, 72, 150, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '# Module Two: Initial Planning and Step 1: Concept Development',
    ]);
  });

  it('When a bold label ending with a colon stands over body text, then it stays a paragraph', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(10).text('Recommendations:', 72, 80, { lineBreak: false });
      doc.font('Helvetica').fontSize(10).text(BODY, 72, 93, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^#/m);
  });
});

describe('PDF subscripts set close to their letter', () => {
  it('When a smaller letter is set lowered right after a letter, then no space comes between them', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9).text('If the loop', 72, 100, { lineBreak: false });
      doc.font('Times-Italic').fontSize(9).text('L', 113, 100, { lineBreak: false });
      const after = 113 + doc.widthOfString('L') + 1;
      // The subscript 1 pt after the L, lower, at 6 pt: wider than a 6 pt word space, narrower than a 9 pt one.
      doc.font('Helvetica-Oblique').fontSize(6).text('O', after, 104, { lineBreak: false });
      doc
        .font('Times-Roman')
        .fontSize(9)
        .text('has a compiled trace tree, we call it.', 128, 100, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('*LO* has a compiled trace tree');
  });

  it('When an ordinal\'s ending is set smaller and raised right after its number ("1er", "21st"), then it joins the number', async () => {
    const input = await pdf((doc) => {
      const ordinal = (before: string, end: string, after: string, y: number) => {
        doc.font('Helvetica').fontSize(9).text(before, 93, y, { lineBreak: false });
        const x = 93 + doc.widthOfString(before);
        doc.fontSize(6).text(end, x, y - 1, { lineBreak: false });
        const next = x + doc.widthOfString(end) + 3;
        doc.fontSize(9).text(after, next, y, { lineBreak: false });
      };
      doc.font('Helvetica').fontSize(9).text('Meetings were held with the groups:', 72, 80, { lineBreak: false });
      ordinal('- Le 1', 'er', 'décembre avec SAFE;', 96);
      ordinal('- On the 21', 'st', 'of May with the trail club.', 110);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('- Le 1er décembre avec SAFE;\n- On the 21st of May with the trail club.');
  });
});

describe('PDF lines opening with a capital and a period', () => {
  const write = (lines: string[]) =>
    pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      lines.forEach((text, k) => doc.text(text, 72, 100 + k * 24, { lineBreak: false }));
    });

  it('When a paragraph after a numbered list opens with a name’s initial, then it is a paragraph, not the next item', async () => {
    const input = await write([
      '1. The lease was renewed for three years.',
      '2. The conference will be held in Ghent.',
      'R. Tanaka reported that the website goes live in April.',
    ]);
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '1. The lease was renewed for three years.\n2. The conference will be held in Ghent.\n\nR. Tanaka reported that the website goes live in April.\n',
    );
  });

  it('When capitals and periods letter a list, then its items stay items', async () => {
    const input = await write(['A. Scope of the audit', 'B. Methods used', 'C. Findings and follow-up']);
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^1\. Scope of the audit\n2\. Methods used\n3\. Findings and follow-up\n$/);
  });
});
