import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf } from './make-pdf';

// Structures of regulations, reports and papers set in narrow columns that held-out real-world PDFs lost
// (issue 23): marks of several kinds at one indent, run-in headings, running heads on left and right pages,
// sentences that go on in the next column, wrapped section titles.
afterAll(() => closeConversionWorkers());
const std = { enhanced: false };
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };

/** Writes `text` as lines of `width` characters at most, the first indented by `first` points. */
function paragraph(doc: PDFKit.PDFDocument, text: string, x: number, y: number, first = 8, width = 40): number {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + word.length + 1 <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  lines.forEach((line, k) => doc.text(line, k === 0 ? x + first : x, y + k * 11, { lineBreak: false }));
  return y + lines.length * 11;
}

describe('PDF enclosed marks of several kinds at one indent', () => {
  it('When "(1)" items follow an "(a)" paragraph at the same indent, then they nest under it and "(b)" goes back out', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      let y = 80;
      y = paragraph(
        doc,
        '(a) Each permit application shall be filed with the office and shall contain the following:',
        72,
        y,
      );
      y = paragraph(doc, '(1) The name and address of the applicant;', 72, y);
      y = paragraph(doc, '(2) The kind of permit that is sought;', 72, y);
      y = paragraph(doc, '(i) Its duration in months;', 72, y);
      y = paragraph(doc, '(ii) Its holder if not the applicant;', 72, y);
      y = paragraph(doc, '(3) The date of the application.', 72, y);
      paragraph(
        doc,
        '(b) The office shall notify the applicant of its decision within thirty days of the filing.',
        72,
        y,
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      [
        '1. Each permit application shall be filed with the office and shall contain the following:',
        '   1. The name and address of the applicant;',
        '   2. The kind of permit that is sought;',
        '      1. Its duration in months;',
        '      2. Its holder if not the applicant;',
        '   3. The date of the application.',
        '2. The office shall notify the applicant of its decision within thirty days of the filing.',
        '',
      ].join('\n'),
    );
  });

  it('When "(h)" is followed by "(i)", then "(i)" is the next letter, not a roman sub-item', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      let y = 80;
      for (const mark of 'abcdefghi') y = paragraph(doc, `(${mark}) Rule ${mark} of the office applies.`, 72, y);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      [...'abcdefghi'].map((mark, k) => `${k + 1}. Rule ${mark} of the office applies.`).join('\n') + '\n',
    );
  });

  it('When the second lettered paragraph opens in the next column, then the first still opens the list', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      let y = 80;
      y = paragraph(
        doc,
        '(a) The office shall keep a register of permits. The register shall contain the following:',
        72,
        y,
      );
      for (let n = 1; n <= 8; n++)
        y = paragraph(doc, `(${n}) Entry number ${n} of the register as the office keeps it;`, 72, y);
      paragraph(doc, '(b) The register may be inspected by any person during office hours.', 300, 80);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^1\. The office shall keep a register of permits\./);
    expect(markdown).toContain('\n   8. Entry number 8 of the register as the office keeps it;\n');
    expect(markdown).toContain('\n2. The register may be inspected by any person during office hours.\n');
  });
});

describe('PDF lettered paragraphs far apart or run in after their title', () => {
  it('When a section title carries its "(a)" on the same line, then "(a)" opens the list that "(b)" and "(c)" go on', async () => {
    const input = await pdf((doc) => {
      doc.fontSize(9);
      doc.font('Times-Bold').text('§ 1.32 Exempted preparations. ', 80, 80, { continued: true, lineBreak: false });
      doc.font('Times-Roman').text('(a) The chemical preparations listed', { lineBreak: false });
      doc.text('in the table below are exempted from the rules', 72, 91, { lineBreak: false });
      doc.text('of this part.', 72, 102, { lineBreak: false });
      let y = paragraph(
        doc,
        '(b) Any person may apply to the office for an exemption of a preparation not listed.',
        72,
        113,
      );
      y = paragraph(doc, '(c) The office may revoke an exemption when the preparation is misused.', 72, y);
      paragraph(doc, 'Other rules of the office are set out in part 2.', 72, y);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      [
        '**§ 1.32 Exempted preparations.**',
        '',
        '1. The chemical preparations listed in the table below are exempted from the rules of this part.',
        '2. Any person may apply to the office for an exemption of a preparation not listed.',
        '3. The office may revoke an exemption when the preparation is misused.',
        '',
        'Other rules of the office are set out in part 2.',
        '',
      ].join('\n'),
    );
  });

  it('When "(a)" mid-line is not followed by a "(b)" that opens a paragraph, then the line stays whole', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      const y = paragraph(
        doc,
        'The rule applies to all. (a) This note is one sentence of the text read as a whole here.',
        72,
        80,
      );
      paragraph(doc, 'A later paragraph cites (b) only inside its line and ends.', 72, y);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^1\. /m);
    expect(markdown).toContain('applies to all. (a) This note is one sentence');
  });

  it('When the "(a)" paragraph cites "paragraphs (b) to (d)" and "(a), (b) and (c)", and "(b)" cites "(c)", then the list holds them all', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      let y = paragraph(
        doc,
        '(a) Preparations approved under this part are exempt to the extent described in paragraphs (b) to (d) of this section and in § 1.74 (a), (b) and (c) of this chapter.',
        72,
        80,
      );
      y = paragraph(doc, '(b) Registration under paragraphs (c) and (d): any maker must be registered.', 72, y);
      paragraph(doc, '(c) Labeling: the label must name the maker of the preparation.', 72, y);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^1\. Preparations approved under this part/);
    expect(markdown).toContain('\n2. Registration under paragraphs (c) and (d): any maker must be registered.\n');
    expect(markdown).toContain('\n3. Labeling: the label must name the maker of the preparation.\n');
  });

  it('When an item wraps a citation "(c) and (d) of this section" to the start of a line, then that line stays in the item', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      const lines = [
        [80, '(a) The office keeps a register of permits.'],
        [80, '(b) The office shall decide on each application'],
        [72, 'under paragraphs'],
        [72, '(c) and (d) of this section. It shall publish its'],
        [72, 'decision in the register.'],
        [80, '(c) Any person may inspect the register.'],
      ] as const;
      lines.forEach(([x, text], k) => doc.text(text, x, 80 + k * 11, { lineBreak: false }));
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      [
        '1. The office keeps a register of permits.',
        '2. The office shall decide on each application under paragraphs (c) and (d) of this section. It shall publish its decision in the register.',
        '3. Any person may inspect the register.',
        '',
      ].join('\n'),
    );
  });

  it('When the "(a)" paragraph runs over 40 lines before its "(b)", then "(a)" still opens the list', async () => {
    const long = Array.from(
      { length: 40 },
      (_, k) => `Clause ${k + 1} of the first rule binds each holder of a permit.`,
    ).join(' ');
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      let y = paragraph(doc, `(a) ${long}`, 72, 50, 8, 48);
      y = paragraph(doc, '(b) The office shall notify the holder of any change to these rules.', 72, y);
      paragraph(doc, '(c) Notices are sent by mail to the address on the permit.', 72, y);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^1\. Clause 1 of the first rule/);
    expect(markdown).toContain('\n2. The office shall notify the holder of any change to these rules.\n');
    expect(markdown).toContain('\n3. Notices are sent by mail to the address on the permit.\n');
  });
});

describe('PDF run-in headings', () => {
  it('When an italic lead-in runs on in plain text on its line, then the paragraph is no heading', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      let y = paragraph(doc, '(a) The office reviews every application it receives in the order of filing.', 72, 80);
      doc.text('(b) ', 80, y, { continued: true, lineBreak: false });
      doc.font('Times-Italic').text('Stimulants. ', { continued: true, lineBreak: false });
      doc.font('Times-Roman').text('Unless specifi-', { lineBreak: false });
      y = paragraph(doc, 'cally excepted, any material which contains the following substances:', 72, y + 11, 0, 50);
      paragraph(doc, '(c) Depressants. Any material which contains any quantity of them.', 72, y);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^#/m);
    expect(markdown).toContain(
      '\n2. *Stimulants.* Unless specifically excepted, any material which contains the following substances:\n3. Depressants.',
    );
  });

  it('When a bold lead-in runs on in plain text, then it stays in its paragraph', async () => {
    const input = await pdf((doc) => {
      doc
        .font('Helvetica')
        .fontSize(10)
        .text('Every rider is lent a repair kit for the season.', 72, 80, { lineBreak: false });
      doc.font('Helvetica-Bold').text('Note. ', 72, 110, { continued: true, lineBreak: false });
      doc.font('Helvetica').text('Keep the kit dry and hand it', { lineBreak: false });
      doc.text('back at the end of the year.', 72, 122, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Every rider is lent a repair kit for the season.\n\n**Note.** Keep the kit dry and hand it back at the end of the year.\n',
    );
  });
});

describe('PDF running heads', () => {
  it("When left and right pages carry different running heads, set below the page's edge band, then both go", async () => {
    const input = await pdf((doc) => {
      for (let p = 1; p <= 9; p++) {
        if (p > 1) doc.addPage();
        doc.font('Helvetica-Bold').fontSize(9);
        // A page printed reduced on a larger sheet: the head stands a fifth of the way down.
        const head = p % 2 ? `Office of Permits, Rules § ${p}.1` : `§ ${p}.2 40 CFR Ch. IV (7–1–25 Edition)`;
        doc.text(head, 72, 170, { lineBreak: false });
        doc.font('Helvetica').fontSize(10);
        doc.text(`Text of page ${p} starts here and says what the page is about.`, 72, 200, { lineBreak: false });
        doc.text(`Page ${p} goes on with a second line of its own text.`, 72, 212, { lineBreak: false });
      }
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toContain('Office of Permits');
    expect(markdown).not.toContain('CFR');
    expect(markdown).toContain('Text of page 9 starts here');
  });
});

describe('PDF sentences cut at a column or page end', () => {
  it('When a paragraph breaks off at the foot of a column and goes on in lower case at the top of the next, then it is one paragraph', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      const words = 'the office keeps a register of every permit it grants and of the holder of each'.split(' ');
      let y = 700;
      doc.text('Register of permits', 72, 680, { lineBreak: false });
      doc.text('Each permit is entered in the register', 72, y, { lineBreak: false });
      y += 11;
      doc.text('when it is granted, and the entry names', 72, y, { lineBreak: false });
      y += 11;
      doc.text('the holder, the kind of permit and its', 72, y, { lineBreak: false });
      doc.text(`duration. ${words.slice(0, 6).join(' ')}.`, 300, 80, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain(
      'Each permit is entered in the register when it is granted, and the entry names the holder, the kind of permit and its duration.',
    );
  });

  it('When a list item breaks off at a page end and goes on in lower case on the next page, then the item keeps its text', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(10);
      doc.text('The register holds:', 72, 700, { lineBreak: false });
      doc.text('• The name of each holder of a permit', 72, 714, { lineBreak: false });
      doc.text('• The kind of permit granted and the', 72, 728, { lineBreak: false });
      doc.addPage();
      doc.text('date on which it was granted', 84, 72, { lineBreak: false });
      doc.text('• The date on which it ends', 72, 86, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'The register holds:\n\n- The name of each holder of a permit\n- The kind of permit granted and the date on which it was granted\n- The date on which it ends\n',
    );
  });
});

describe('PDF wrapped section titles', () => {
  it('When a section title wraps with a hanging indent and a hyphenated word, then it is one heading without the hyphen', async () => {
    const input = await pdf((doc) => {
      // A narrow column: the title's first line reaches its edge.
      doc.font('Times-Roman').fontSize(9);
      paragraph(doc, 'The office reviews every application in the order of filing.', 72, 47, 0, 38);
      doc.font('Times-Bold').fontSize(9);
      doc.text('§ 1307.22 Disposal of controlled sub-', 72, 80, { lineBreak: false });
      doc.text('stances by the Administration.', 84, 91, { lineBreak: false });
      doc.font('Times-Roman');
      paragraph(
        doc,
        'Any controlled substance delivered to the Administration may be destroyed by it.',
        72,
        104,
        8,
        38,
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^#+ § 1307\.22 Disposal of controlled substances by the Administration\.$/m);
  });

  it('When a wrapped title line ends with a comma, set wide in a font with a tall line gap, then the title goes on over it', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(9);
      paragraph(doc, 'Authority: the act of the year cited above and its later amendments.', 72, 47, 0, 38);
      doc.font('Helvetica-Bold').fontSize(10);
      doc.text('PART 1309—REGISTRATION OF', 72, 90, { lineBreak: false });
      doc.text('MANUFACTURERS, DISTRIBUTORS,', 82, 104.5, { lineBreak: false });
      doc.text('IMPORTERS AND EXPORTERS', 82, 119, { lineBreak: false });
      doc.font('Times-Roman').fontSize(9);
      paragraph(
        doc,
        'Each person who makes or sells a listed chemical shall register with the office.',
        72,
        140,
        8,
        38,
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/^#+ PART 1309—REGISTRATION OF MANUFACTURERS, DISTRIBUTORS, IMPORTERS AND EXPORTERS$/m);
  });
});

describe('PDF section titles in capitals at the body size (IEEE papers)', () => {
  /** A column of body text lines from `y`, 12 points apart. */
  function body(doc: PDFKit.PDFDocument, y: number, count: number): number {
    doc.font('Times-Roman').fontSize(10);
    for (let k = 0; k < count; k++)
      doc.text(`line ${k} of the text that this section holds and reads on`, 54, y + k * 12, { lineBreak: false });
    return y + count * 12;
  }
  /** A centred title; small capitals draw each word's first letter at 10 pt and the rest at 8 pt. */
  function title(doc: PDFKit.PDFDocument, text: string, y: number, smallCaps: boolean): void {
    doc.font('Times-Roman').fontSize(10);
    const width = doc.widthOfString(text);
    const column = doc.widthOfString('line 0 of the text that this section holds and reads on');
    let x = 54 + (column - width) / 2;
    for (const word of text.split(' ')) {
      doc.fontSize(10).text(word[0]!, x, y, { lineBreak: false });
      x += doc.widthOfString(word[0]!);
      doc.fontSize(smallCaps ? 8 : 10).text(`${word.slice(1)} `, x, smallCaps ? y + 1.6 : y, { lineBreak: false });
      x += doc.widthOfString(`${word.slice(1)} `);
    }
  }

  it.each([
    ['capitals', false],
    ['small capitals', true],
  ])(
    'When numbered section titles are set centred in %s, then they are headings and lettered ones nest under them',
    async (_, smallCaps) => {
      const input = await pdf((doc) => {
        doc.font('Times-Bold').fontSize(20).text('Control of Many Small Robots', 54, 60, { lineBreak: false });
        let y = body(doc, 100, 3);
        title(doc, 'I. INTRODUCTION', y + 10, smallCaps);
        y = body(doc, y + 28, 4);
        title(doc, 'II. METHOD', y + 10, smallCaps);
        y = body(doc, y + 28, 3);
        doc
          .font('Times-Italic')
          .fontSize(10)
          .text('A. Signals', 54, y + 8, { lineBreak: false });
        y = body(doc, y + 24, 3);
        title(doc, 'REFERENCES', y + 10, smallCaps);
        body(doc, y + 28, 2);
      });
      const { markdown } = await convertIsolated(input, 'pdf', std, limits);
      expect(markdown.split('\n').filter((l) => l.startsWith('#'))).toEqual([
        '# Control of Many Small Robots',
        '## I. INTRODUCTION',
        '## II. METHOD',
        '### A. Signals',
        '## REFERENCES',
      ]);
    },
  );

  it('When a line in capitals sits in running text, flush left and close under the line above, then it stays text', async () => {
    const input = await pdf((doc) => {
      const y = body(doc, 100, 3);
      doc.font('Times-Roman').fontSize(10).text('THE SOFTWARE IS PROVIDED AS IS', 54, y, { lineBreak: false });
      body(doc, y + 12, 3);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/^#/m);
  });
});

describe('PDF files whose owner forbids copying text', () => {
  it('When a PDF opens without a password but forbids copying, then its text is read', async () => {
    const input = await pdf(
      (doc) =>
        doc.font('Helvetica').fontSize(12).text('Copying is not allowed from this report, but it can be read.', 72, 72),
      {},
      { ownerPassword: 'owner', permissions: { copying: false, printing: 'highResolution' } },
    );
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('Copying is not allowed from this report, but it can be read.\n');
  });
});
