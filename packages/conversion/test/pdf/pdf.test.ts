import { closeConversionWorkers, convertIsolated } from '../../src';
import { drawRightToLeft, handWrittenPdf, makePdf as pdf } from './make-pdf';
import { MAX_PDF_PAGES } from '../../src/readers/pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };

describe('PDF text layer', () => {
  it('When a PDF has a large title, body paragraphs, a hyphenated break and bullets, then structure is rebuilt', async () => {
    const input = await pdf(
      (doc) => {
        doc.font('Helvetica-Bold').fontSize(24).text('Quarterly Review');
        doc.moveDown();
        doc
          .font('Helvetica')
          .fontSize(11)
          .text('Revenue grew in every region during the quarter, driven by strong de-', 72, 140, { width: 460 });
        doc.text('mand for services.', 72, 154);
        doc.moveDown();
        doc.text('• First bullet point');
        doc.text('• Second bullet point');
      },
      { Title: 'Q3', Author: 'Finance' },
    );
    const result = await convertIsolated(input, 'pdf', std, limits);
    expect(result.markdown).toBe(
      '# Quarterly Review\n\nRevenue grew in every region during the quarter, driven by strong demand for services.\n\n- First bullet point\n- Second bullet point\n',
    );
    expect(result.metadata).toEqual({ title: 'Q3', author: 'Finance', page_count: 1 });
  });

  it('When text is laid out in aligned columns over several rows, then it becomes a GFM table', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(11);
      const rows = [
        ['Item', 'Qty', 'Price'],
        ['Apples', '3', '1.20'],
        ['Pears', '10', '0.80'],
        ['Plums', '7', '2.10'],
      ];
      rows.forEach((row, r) =>
        row.forEach((cell, c) => doc.text(cell, 72 + c * 150, 100 + r * 20, { lineBreak: false })),
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Item | Qty | Price |\n| --- | --- | --- |\n| Apples | 3 | 1.20 |\n| Pears | 10 | 0.80 |\n| Plums | 7 | 2.10 |\n',
    );
  });

  it('When two columns of running text line up line by line, then they are not read as a table', async () => {
    const left = [
      'The council met on Monday to discuss',
      'the new bridge across the northern bank',
      'and its cost to the farmers of the valley.',
    ];
    const right = [
      'Meanwhile the school orchestra has won',
      'the regional prize for a third year with',
      'folk songs arranged by the pupils themselves.',
    ];
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(10);
      left.forEach((line, i) => {
        doc.text(line, 72, 100 + i * 13, { lineBreak: false });
        doc.text(right[i]!, 310, 100 + i * 13, { lineBreak: false });
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`${left.map((l, i) => `${l} ${right[i]}`).join(' ')}\n`);
  });

  it('When an aligned table has one column of long descriptions, then it is still a table', async () => {
    const rows = [
      ['Code', 'Description of the work to be done', 'Hours'],
      ['A1', 'Replace the worn seals on the main pump', '3'],
      ['B7', 'Clean and inspect the cooling water intake', '5'],
    ];
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      rows.forEach((row, r) =>
        row.forEach((cell, c) => doc.text(cell, [72, 130, 420][c]!, 100 + r * 18, { lineBreak: false })),
      );
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| Code | Description of the work to be done | Hours |\n| --- | --- | --- |\n| A1 | Replace the worn seals on the main pump | 3 |\n| B7 | Clean and inspect the cooling water intake | 5 |\n',
    );
  });

  it('When every page repeats a header and a page number, then they are removed', async () => {
    const input = await pdf((doc) => {
      for (let p = 1; p <= 4; p++) {
        if (p > 1) doc.addPage();
        doc.font('Helvetica').fontSize(9).text('ACME Corp Confidential', 72, 40, { lineBreak: false });
        doc.fontSize(11).text(`Body text of page ${p}.`, 72, 120);
        doc.fontSize(9).text(String(p), 290, 780, { lineBreak: false });
      }
    });
    const result = await convertIsolated(input, 'pdf', std, limits);
    expect(result.markdown).toBe(
      'Body text of page 1.\n\nBody text of page 2.\n\nBody text of page 3.\n\nBody text of page 4.\n',
    );
    expect(result.metadata.page_count).toBe(4);
  });

  it('When a page is set in two columns but drawn line by line across them, then enhanced mode reads column after column', async () => {
    const left = [
      'The river council met on Monday to discuss',
      'the new bridge across the northern bank of',
      'the valley and its cost to the farmers.',
      'Members agreed to publish a survey before',
      'the spring floods arrive this year.',
      'Engineers were asked for three designs.',
    ];
    const right = [
      'Meanwhile the school orchestra has won the',
      'regional prize for a third year in a row',
      'with folk songs arranged by the pupils;',
      'The prize money will buy a new piano for',
      'the music room and stands for the hall.',
      'Rehearsals begin again in the autumn.',
    ];
    const input = await pdf((doc) => {
      doc.font('Times-Bold').fontSize(18).text('Valley News', 72, 60);
      doc.font('Times-Roman').fontSize(10);
      left.forEach((line, i) => {
        doc.text(line, 72, 100 + i * 13, { lineBreak: false });
        doc.text(right[i]!, 310, 100 + i * 13, { lineBreak: false });
      });
    });
    const column = (lines: string[]): string => lines.join(' ');
    const standard = await convertIsolated(input, 'pdf', std, limits);
    const enhanced = await convertIsolated(input, 'pdf', { enhanced: true }, limits);
    expect(standard.markdown).not.toContain(column(left));
    expect(enhanced.markdown).toBe(`# Valley News\n\n${column(left)}\n\n${column(right)}\n`);
  });

  it('When a line is in a right-to-left script, then its words are read from the right edge, Latin words in place', async () => {
    const words = ['שלום', 'לכל', 'החברים', 'בצוות', 'Markwright', 'היום'];
    const input = await pdf((doc) => {
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(14);
      drawRightToLeft(doc, words, 500, 100);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`${words.join(' ')}\n`);
  });

  it('When an Arabic line has lam-alef ligatures and lam after alef, then each word keeps its letters in reading order', async () => {
    const words = ['تحسين', 'الإنتاجية', 'وحل', 'المشكلات', 'من', 'خلال', 'البرمجة'];
    const input = await pdf((doc) => {
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(14);
      drawRightToLeft(doc, words, 500, 100);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`${words.join(' ')}\n`);
  });

  it('When right-to-left bullets have texts of different lengths, then they are items of one list', async () => {
    const items = [
      ['تحليل', 'البيانات', 'الكبيرة'],
      ['التعلم', 'الآلي'],
    ];
    const input = await pdf((doc) => {
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(11);
      items.forEach((words, row) => {
        const y = 100 + row * 16;
        const x = 500 - doc.widthOfString('•');
        doc.text('•', x, y, { lineBreak: false });
        drawRightToLeft(doc, words, x - doc.widthOfString('  '), y);
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`- ${items[0]!.join(' ')}\n- ${items[1]!.join(' ')}\n`);
  });

  it('When right-to-left lines are numbered with the stop drawn left of the number, then they are a numbered list', async () => {
    const steps = [
      ['الخطوة', 'الأولى'],
      ['الخطوة', 'الثانية'],
    ];
    const input = await pdf((doc) => {
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(11);
      steps.forEach((words, row) => {
        const y = 100 + row * 16;
        // "1." in a right-to-left paragraph shows its stop on the left: ".1".
        const marker = `.${row + 1}`;
        const x = 500 - doc.widthOfString(marker);
        doc.text(marker, x, y, { lineBreak: false });
        drawRightToLeft(doc, words, x - doc.widthOfString('  '), y);
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`1. ${steps[0]!.join(' ')}\n2. ${steps[1]!.join(' ')}\n`);
  });

  it('When a right-to-left line holds a word in brackets drawn mirrored, then the brackets open and close around it in reading order', async () => {
    const input = await pdf((doc) => {
      doc.font('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').fontSize(12);
      // As drawn from the right: the opening bracket shows as ")" and the closing one as "(".
      const drawn = ['يوجد', ' ', 'هنا', ' ', ')', 'أقواس', '(', ' ', 'في', ' ', 'النص'];
      let x = 500;
      for (const part of drawn) {
        x -= doc.widthOfString(part);
        if (part.trim()) doc.text(part, x, 100, { lineBreak: false });
      }
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('يوجد هنا (أقواس) في النص\n');
  });

  it('When the PDF is truncated garbage, then it fails with corrupt_file', async () => {
    await expect(convertIsolated(Buffer.from('%PDF-1.7\n1 0 obj <<'), 'pdf', std, limits)).rejects.toMatchObject({
      code: 'corrupt_file',
    });
  });

  it('When a page has no text, then the Markdown is empty and page_count still counts it', async () => {
    const result = await convertIsolated(await pdf(() => undefined), 'pdf', std, limits);
    expect(result).toEqual({ markdown: '', metadata: { title: '', author: '', page_count: 1 } });
  });

  it('When the title and author are outside ASCII, then the metadata reads them as written', async () => {
    const input = await pdf((doc) => doc.text('Inhalt'), { Title: 'Bericht über Größen', Author: 'Zoë Ångström' });
    const result = await convertIsolated(input, 'pdf', std, limits);
    expect(result.metadata).toEqual({ title: 'Bericht über Größen', author: 'Zoë Ångström', page_count: 1 });
  });

  it('When the PDF needs a password to open, then it fails with encrypted_file and says so', async () => {
    const input = await pdf((doc) => doc.text('Secret'), {}, { userPassword: 'open sesame' });
    await expect(convertIsolated(input, 'pdf', std, limits)).rejects.toMatchObject({
      code: 'encrypted_file',
      message: 'The PDF is password-protected; remove the password and try again.',
    });
  });

  it('When the PDF is encrypted for certificates (the Adobe.PubSec handler), then it fails with encrypted_file and says why', async () => {
    const content = 'BT /F1 18 Tf 72 700 Td (Secret) Tj ET';
    const written = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 /V 4 /R 4 /Length 128 >>',
    ]).toString('latin1');
    const id = '<00112233445566778899aabbccddeeff>';
    const input = Buffer.from(
      written.replace('/Root 1 0 R >>', `/Root 1 0 R /Encrypt 6 0 R /ID [${id} ${id}] >>`),
      'latin1',
    );
    await expect(convertIsolated(input, 'pdf', std, limits)).rejects.toMatchObject({
      code: 'encrypted_file',
      message:
        'The PDF is encrypted for certain recipients (with certificates or a DRM plug-in, not a password); it cannot be opened without their key.',
    });
  });

  it('When the PDF has more pages than the limit, then it fails with too_large naming the count', async () => {
    const input = await pdf((doc) => {
      for (let p = 1; p <= MAX_PDF_PAGES; p++) doc.addPage();
    });
    await expect(convertIsolated(input, 'pdf', std, limits)).rejects.toMatchObject({
      code: 'too_large',
      message: `The PDF has ${MAX_PDF_PAGES + 1} pages; at most ${MAX_PDF_PAGES} can be converted.`,
    });
  });
});

describe('PDF running lines of a two-page document', () => {
  it('When both pages carry the same line at the same place in their edge bands, then it is dropped; the same words in the body stay', async () => {
    // A browser prints the date at the top and the address with "1/2", "2/2" at the foot of every page.
    const input = await pdf((doc) => {
      const page = (n: number, body: string): void => {
        doc.font('Helvetica').fontSize(8);
        doc.text('11/27/26, 5:34 PM', 24, 15, { lineBreak: false });
        doc.text(`file:///home/ana/report.html                                  ${n}/2`, 24, 800, { lineBreak: false });
        doc.fontSize(11).text('Opening hours', 72, 300, { lineBreak: false });
        doc.text(body, 72, 330, { lineBreak: false });
      };
      page(1, 'The reading room opens at nine on weekdays.');
      doc.addPage();
      page(2, 'On Saturdays it opens at ten and closes at four.');
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toMatch(/5:34 PM|file:|\d\/2/);
    expect(markdown.match(/Opening hours/g)).toHaveLength(2);
    expect(markdown).toContain('The reading room opens at nine on weekdays.');
    expect(markdown).toContain('On Saturdays it opens at ten and closes at four.');
  });

  it('When one page carries what a browser prints in its margins, then the print date and the address with its page count are dropped; a date in the body stays', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(8);
      doc.text('27.11.2026, 17:34          Opening hours', 24, 15, { lineBreak: false });
      doc.text('https://library.example.org/hours                                  1/1', 24, 800, {
        lineBreak: false,
      });
      doc.fontSize(11).text('Opening hours', 72, 300, { lineBreak: false });
      doc.text('27.11.2026, 17:34 is when this list was last changed.', 72, 330, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('Opening hours\n\n27.11.2026, 17:34 is when this list was last changed.\n');
  });
});

describe('PDF code', () => {
  it('When lines in monospaced type stand among text set in a proportional face, then they are a code block with their indents', async () => {
    const input = await pdf((doc) => {
      doc
        .font('Helvetica')
        .fontSize(11)
        .text('To record a donation, enter this in the search box:', 72, 100, { lineBreak: false });
      doc.font('Courier').fontSize(10);
      doc.text('add donation \\', 72, 124, { lineBreak: false });
      doc.text('--weight 12.5 --category tins', 96, 136, { lineBreak: false });
      doc.font('Helvetica').fontSize(11).text('The system prints a receipt number.', 72, 160, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      'To record a donation, enter this in the search box:\n\n```\nadd donation \\\n    --weight 12.5 --category tins\n```\n\nThe system prints a receipt number.\n',
    );
  });

  it('When the whole text is set in a monospaced face (a typed letter), then it is read as text, not code', async () => {
    const input = await pdf((doc) => {
      doc.font('Courier').fontSize(11);
      doc.text('Dear Ms Berg,', 72, 100, { lineBreak: false });
      doc.text('Thank you for your letter of the ninth.', 72, 130, { lineBreak: false });
      doc.text('We will deliver the parcels on Saturday.', 72, 144, { lineBreak: false });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).not.toContain('```');
    expect(markdown).toContain('Thank you for your letter of the ninth.');
  });

  it('When paragraphs are set as TeX sets them, no space between and each first line indented, then each is a paragraph of its own', async () => {
    const input = await pdf((doc) => {
      doc.font('Times-Roman').fontSize(10);
      const para = (text: string, indent: number): void => void doc.text(text, { width: 300, indent });
      doc.text('', 72, 100);
      para(
        'The survey ran for six weeks in the spring, and most of the answers came in during its first week, before the reminder went out.',
        0,
      );
      para(
        'A second round followed in the autumn. It reached fewer households, but those it reached answered at a higher rate than in spring.',
        12,
      );
      para('The figures below compare the two rounds by district and by the age of the person who answered.', 12);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown.split('\n\n').map((p) => p.slice(0, 20))).toEqual([
      'The survey ran for s',
      'A second round follo',
      'The figures below co',
    ]);
  });
});
