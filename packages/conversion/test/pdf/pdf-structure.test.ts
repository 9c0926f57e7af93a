import sharp from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf, ruledGrid, xfaOnlyPdf } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };

describe('PDF structure', () => {
  it('When a table is drawn with ruling lines and a header cell spans two columns, then it is a table with the merged cell repeated', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11).text('Sales by region', 72, 72);
      ruledGrid(
        doc,
        [72, 192, 312, 432],
        [100, 124, 148, 172, 196],
        [
          ['Region', 'Sales', ''],
          ['', '2023', '2024'],
          ['North', '120', '140'],
          ['South', '90', '95'],
        ],
        // No rule between the two Sales columns in the first row, none under Region.
        { vertical: [[0, 2]], horizontal: [[1, 0]] },
      );
      doc.text('The table ends here.', 72, 230);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Sales by region\n\n| Region | Sales | Sales |\n| --- | --- | --- |\n| Region | 2023 | 2024 |\n| North | 120 | 140 |\n| South | 90 | 95 |\n\nThe table ends here.\n',
    );
  });

  it('When poppler joins narrow letters before a rule and wide ones after it into one run, then the run is cut at the rule by the letters’ widths', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      const left = 'Lift with little tilt limit';
      // The rule 2 pt after the left cell's text: poppler joins the two cells' words into one run.
      const x = 76 + doc.widthOfString(left) + 2;
      ruledGrid(
        doc,
        [72, x, x + 120],
        [100, 120, 140, 160],
        [
          ['Part', 'Rating'],
          ['Pump', '2 kW'],
          [left, 'MW 4500 WM'],
        ],
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Part | Rating |\n| --- | --- |\n| Pump | 2 kW |\n| Lift with little tilt limit | MW 4500 WM |\n',
    );
  });

  it('When a ruled table follows a table set without rules closely, then both keep their rows', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      [
        ['(a)', 'Within ten days.'],
        ['(b)', 'At its own cost.'],
        ['(c)', 'Paid monthly.'],
      ].forEach(([mark, text], k) => {
        doc.text(mark!, 72, 100 + k * 14, { lineBreak: false });
        doc.text(text!, 120, 100 + k * 14, { lineBreak: false });
      });
      ruledGrid(
        doc,
        [72, 250, 400],
        [146, 166, 186, 206],
        [
          ['Service', 'Fee'],
          ['Hosting', '100'],
          ['Support', '50'],
        ],
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toContain('| Service | Fee |\n| --- | --- |\n| Hosting | 100 |\n| Support | 50 |\n');
    expect(markdown).toContain('Within ten days.');
  });

  it('When a heading set just above a ruled table dips under its top rule, then it stays above the table', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10).text('The fees are set once a year.', 72, 100, { lineBreak: false });
      doc.font('Helvetica-Bold').fontSize(13).text('Fees', 72, 149, { lineBreak: false });
      doc.font('Helvetica').fontSize(10);
      ruledGrid(
        doc,
        [72, 250, 400],
        [160, 180, 200, 220],
        [
          ['Service', 'Fee'],
          ['Hosting', '100'],
          ['Support', '50'],
        ],
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toMatch(/Fees\n\n\| Service \| Fee \|/);
  });

  it('When a ruled table has cells only one word apart, then each cell is read from its own box', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      ruledGrid(
        doc,
        [72, 100, 140],
        [100, 120, 140, 160],
        [
          ['Code', 'Name'],
          ['A1', 'Alpha'],
          ['B2', 'Beta'],
        ],
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('| Code | Name |\n| --- | --- |\n| A1 | Alpha |\n| B2 | Beta |\n');
  });

  it('When a PDF form has filled fields, then each value is read after its label', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      doc.initForm();
      doc.text('Full name:', 72, 100, { lineBreak: false });
      doc.formText('name', 160, 96, 200, 18, { value: 'Ada Lovelace' });
      doc.text('Subscribed:', 72, 130, { lineBreak: false });
      doc.formCheckbox('subscribed', 160, 126, 14, 14, { value: 'Yes' });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('Full name: Ada Lovelace\n\nSubscribed: ☒\n');
  });

  it('When a form has check boxes before their labels, then the lines are task items ticked as the boxes are', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const form = doc.getForm();
    [
      ['giftAid', 'Add Gift Aid to my subscription', true],
      ['post', 'Send me the newsletter by post', false],
    ].forEach(([name, label, ticked], i) => {
      const box = form.createCheckBox(name as string);
      box.addToPage(page, { x: 72, y: 700 - i * 24, width: 12, height: 12 });
      if (ticked) box.check();
      page.drawText(label as string, { x: 92, y: 702 - i * 24, size: 11, font });
    });
    const { markdown } = await convertIsolated(Buffer.from(await doc.save()), 'pdf', std, limits);
    expect(markdown).toBe('- [x] Add Gift Aid to my subscription\n- [ ] Send me the newsletter by post\n');
  });

  it('When a filled multi-line field draws its value wrapped onto two lines, then the value is read once, as typed', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Comments:', { x: 72, y: 720, size: 11, font });
    const field = doc.getForm().createTextField('comments');
    field.enableMultiline();
    field.setText('Happy to volunteer at the spring open day.');
    field.addToPage(page, { x: 160, y: 680, width: 200, height: 50, font });
    const { markdown } = await convertIsolated(Buffer.from(await doc.save()), 'pdf', std, limits);
    expect(markdown).toBe('Comments:\n\nHappy to volunteer at the spring open day.\n');
  });

  it('When a book’s running heads name each page’s chapter or section beside its printed number, then they are dropped', async () => {
    const heads = ['12 CHAPTER 2. THE HIVE', 'HIVES AND STANDS 13', '14 CHAPTER 3. THE YEAR', 'SPRING WORK 15'];
    const texts = [
      'The hive stands on a level slab facing the morning sun.',
      'A stand keeps the floor dry and the entrance clear of grass.',
      'The colony grows quickly once the willow is in flower.',
      'Inspect the brood every week from the middle of April.',
    ];
    const input = await pdf((doc) => {
      heads.forEach((head, i) => {
        if (i) doc.addPage();
        doc.font('Times-Italic').fontSize(10).text(head, 72, 60, { lineBreak: false });
        doc.font('Times-Roman').fontSize(11).text(texts[i]!, 72, 120, { lineBreak: false });
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`${texts.join('\n\n')}\n`);
  });

  it('When a form exists only as XFA, then its texts and field values (text, box, choice, notes) are read from the XFA', async () => {
    const field = (name: string, caption: string, ui: string, items = ''): string =>
      `<field name="${name}" w="5in" h="0.3in"><ui>${ui}</ui>${items}<caption reserve="1.5in"><value><text>${caption}</text></value></caption></field>`;
    const xdp = `<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/">
<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/">
<subform name="form1" layout="tb" locale="en_US">
<pageSet><pageArea name="Page1"><contentArea x="0.5in" y="0.5in" w="7.5in" h="10in"/><medium stock="letter" short="8.5in" long="11in"/></pageArea></pageSet>
<subform name="member" layout="tb" w="7.5in">
<draw name="Title" w="5in" h="0.4in"><value><text>Membership application</text></value></draw>
${field('Name', 'Full name', '<textEdit/>')}
${field('Paid', 'Fee paid', '<checkButton/>', '<items><integer>1</integer><integer>0</integer></items>')}
${field('Plan', 'Plan', '<choiceList/>', '<items><text>Basic</text><text>Premium</text></items>')}
${field('Notes', 'Notes', '<textEdit multiLine="1"/>')}
</subform>
</subform>
</template>
<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/"><xfa:data><form1><member>
<Name>Ada Lovelace</Name><Paid>1</Paid><Plan>Premium</Plan><Notes>Prefers evening meetings</Notes>
</member></form1></xfa:data></xfa:datasets>
</xdp:xdp>`;
    const result = await convertIsolated(xfaOnlyPdf(xdp), 'pdf', std, limits);
    expect(result.markdown).toBe(
      'Membership application\n\nFull name Ada Lovelace\n\nFee paid ☒\n\nPlan Premium\n\nNotes Prefers evening meetings\n',
    );
    expect(result.metadata.page_count).toBe(1);
  });

  it('When section titles are numbered and set in bold or italic at the body size, then they are headings nested by their numbers', async () => {
    const input = await pdf((doc) => {
      const body = 'The body text of this section runs over a full line so that it reads as a paragraph of prose.';
      doc.font('Helvetica-Bold').fontSize(11).text('1 Introduction');
      doc.font('Helvetica').text(body).moveDown();
      doc.font('Helvetica-Bold').text('1.1 Scope of the review');
      doc.font('Helvetica').text(body).moveDown();
      doc.font('Helvetica-Oblique').text('Background');
      doc.font('Helvetica').text(body);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    const body = 'The body text of this section runs over a full line so that it reads as a paragraph of prose.';
    expect(markdown).toBe(
      `# 1 Introduction\n\n${body}\n\n## 1.1 Scope of the review\n\n${body}\n\n# Background\n\n${body}\n`,
    );
  });

  it('When a page is set in smaller type than the document, then a bold line larger than the text under it is a heading', async () => {
    const body =
      'The annual report covers every branch of the cooperative and the figures of the past year in full detail.';
    const brief = 'Our consultants help members plan their storage and keep their records in order.';
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      for (let i = 0; i < 4; i++) doc.text(body).moveDown();
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(9).text('Who we are', 72, 100);
      doc.font('Helvetica').fontSize(7).text(brief, 72, 114);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`${`${body}\n\n`.repeat(4)}# Who we are\n\n${brief}\n`);
  });

  it('When a chapter number stands alone in large type above its title, then the number is a heading too', async () => {
    const body = 'This chapter describes how the data is secured and who may read which rows of each table.';
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(40).text('1', 500, 80);
      doc.fontSize(24).text('Securing the data', 72, 150);
      doc.font('Helvetica').fontSize(10).text(body, 72, 190);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`# 1\n\n## Securing the data\n\n${body}\n`);
  });

  it('When a title is set over two lines in slightly different sizes, then it is one heading', async () => {
    const body = 'This paper describes the row and column access controls of the database and how to set them up.';
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(33).text('Access Control', 72, 80);
      doc.fontSize(30).text('for the Database', 72, 120);
      doc.font('Helvetica').fontSize(10).text(body, 72, 180);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`# Access Control for the Database\n\n${body}\n`);
  });

  it('When a numbered section heading is followed right away by a slightly smaller numbered subheading, then they stay two headings', async () => {
    const body = 'Earlier work on table structure used hand-written rules over ruling lines and aligned words.';
    const input = await pdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(13).text('2 Related Work', 72, 80);
      doc.fontSize(12).text('2.1 Rule-based methods', 72, 100);
      doc.font('Helvetica').fontSize(10).text(body, 72, 118);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`# 2 Related Work\n\n## 2.1 Rule-based methods\n\n${body}\n`);
  });

  it('When list items are marked by a large symbol glyph or numbered from 3, then they are list items and the numbering is kept', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11).text('Steps to follow:');
      doc.text('3. Open the valve', 72, 120);
      doc.text('4. Read the gauge', 72, 136);
      doc.moveDown();
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(16).text('➢', 72, 177, { lineBreak: false });
      doc.font('Helvetica').fontSize(11).text('Pressure within range', 90, 182);
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(16).text('➢', 72, 195, { lineBreak: false });
      doc.font('Helvetica').fontSize(11).text('Valve closed again', 90, 200);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'Steps to follow:\n\n3. Open the valve\n4. Read the gauge\n\n- Pressure within range\n- Valve closed again\n',
    );
  });

  it('When a page carries a text layer of garbage over a picture of its text, then the page is read by OCR instead', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="200"><rect width="100%" height="100%" fill="white"/><text x="40" y="120" font-size="64" font-family="DejaVu Sans">Payment is due within thirty days</text></svg>`;
    const picture = await sharp(Buffer.from(svg)).png().toBuffer();
    const garbage = '#@% ~^ ¤¤ ¦§ ÷× ¬¬ }{ |~ ^^ ¤# @@ %% ~~ ¦¦ §§ ×÷ ¬} {| ~^ ¤¦ §× ÷¬ }{ |~ ^¤ ¦§ ×÷ ¬} {|';
    const input = await pdf((doc) => {
      doc.image(picture, 72, 100, { width: 450 });
      // The broken text layer is drawn in white, as an invisible OCR layer would be.
      doc.fillColor('white').font('Helvetica').fontSize(11).text(`${garbage} ${garbage}`, 72, 110, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, { ...limits, timeoutMs: 120_000 });
    expect(markdown).toBe('Payment is due within thirty days\n');
  }, 150_000);
});
