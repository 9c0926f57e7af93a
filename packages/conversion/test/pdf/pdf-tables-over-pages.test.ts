import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf, ruledGrid } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };

const XS = [72, 160, 280, 400];
const HEADER = ['Item', 'Place', 'Checked', 'State'];
const PLACES = ['North ridge', 'Boathouse', 'Lower meadow', 'Main lab'];
const STATES = ['Good', 'Fair', 'Needs repair'];

/** Row n of a register: an id, a place, a date and a state. */
function row(n: number): string[] {
  return [`FS-${1000 + n}`, PLACES[n % 4]!, `2026-0${(n % 9) + 1}-1${n % 10}`, STATES[n % 3]!];
}

/** The register's Markdown table of rows 1..n under its header. */
function register(n: number): string {
  const lines = [HEADER, ['---', '---', '---', '---']];
  for (let k = 1; k <= n; k++) lines.push(row(k));
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n') + '\n';
}

/** Writes the cells of `rows` at the columns' x positions, one row every 18 points from `top`. */
function writeRows(doc: PDFKit.PDFDocument, rows: string[][], top: number): void {
  rows.forEach((cells, r) =>
    cells.forEach((cell, c) => {
      if (cell) doc.text(cell, XS[c]!, top + r * 18, { lineBreak: false });
    }),
  );
}

/** Rows `from`..`to` of the register, the header first when `header`. */
function rows(from: number, to: number, header: boolean): string[][] {
  const out = header ? [HEADER] : [];
  for (let k = from; k <= to; k++) out.push(row(k));
  return out;
}

describe('PDF tables over page breaks', () => {
  it('When a table set without rules runs over three pages repeating its header on each, then it is one table with one header', async () => {
    const markdown = (
      await convertIsolated(
        await pdf((doc) => {
          doc.font('Helvetica').fontSize(10);
          doc.text('Equipment register', 72, 72, { lineBreak: false });
          writeRows(doc, rows(1, 34, true), 100);
          doc.addPage();
          writeRows(doc, rows(35, 70, true), 80);
          doc.addPage();
          writeRows(doc, rows(71, 80, true), 80);
          doc.text('Items needing repair are listed again in the plan.', 72, 300, { lineBreak: false });
        }),
        'pdf',
        std,
        limits,
      )
    ).markdown;
    // Read page by page, the header would be a running head (at the top of three pages) and the parts three tables.
    expect(markdown).toBe(
      `Equipment register\n\n${register(80)}\nItems needing repair are listed again in the plan.\n`,
    );
  });

  it('When a table goes on over a page break without repeating its header, and a row is broken by the break, then its rows and that row stay whole', async () => {
    const markdown = (
      await convertIsolated(
        await pdf((doc) => {
          doc.font('Helvetica').fontSize(10);
          writeRows(doc, rows(1, 36, true), 80);
          // Row 37's last two cells fall on the next page, above row 38.
          writeRows(doc, [[...row(37).slice(0, 2), '', '']], 80 + 37 * 18);
          doc.addPage();
          writeRows(doc, [['', '', ...row(37).slice(2)], ...rows(38, 45, false)], 80);
        }),
        'pdf',
        std,
        limits,
      )
    ).markdown;
    expect(markdown).toBe(register(45));
  });

  it('When ruled tables on two pages repeat their header row, then they are one table', async () => {
    const grid = (doc: PDFKit.PDFDocument, body: string[][], top: number): void => {
      const ys = [top, ...body.map((_, r) => top + (r + 1) * 20)];
      ruledGrid(doc, [...XS, 500], ys, body);
    };
    const markdown = (
      await convertIsolated(
        await pdf((doc) => {
          doc.font('Helvetica').fontSize(10);
          grid(doc, rows(1, 30, true), 80);
          doc.addPage();
          grid(doc, rows(31, 40, true), 80);
        }),
        'pdf',
        std,
        limits,
      )
    ).markdown;
    expect(markdown).toBe(register(40));
  });

  it('When the next page opens with a table of other columns, or pages are asked for, then the tables stay apart', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      writeRows(doc, rows(1, 36, true), 80);
      doc.addPage();
      [
        ['Code', 'Meaning'],
        ['G', 'Good'],
        ['F', 'Fair'],
        ['R', 'Needs repair'],
      ].forEach((cells, r) =>
        cells.forEach((cell, c) => doc.text(cell, [72, 200][c]!, 80 + r * 18, { lineBreak: false })),
      );
      doc.addPage();
      writeRows(doc, rows(37, 40, true), 80);
    });
    const whole = (await convertIsolated(input, 'pdf', std, limits)).markdown;
    expect(whole).toBe(
      `${register(36)}\n| Code | Meaning |\n| --- | --- |\n| G | Good |\n| F | Fair |\n| R | Needs repair |\n\n| ${HEADER.join(' | ')} |\n| --- | --- | --- | --- |\n${rows(
        37,
        40,
        false,
      )
        .map((cells) => `| ${cells.join(' | ')} |`)
        .join('\n')}\n`,
    );
    const paged = await convertIsolated(input, 'pdf', { ...std, includePages: true }, limits);
    expect(paged.pages!.map((p) => p.markdown.startsWith('| Item |') || p.markdown.startsWith('| Code |'))).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe('PDF page numbers set high above the foot', () => {
  it('When TeX sets the page number apart under the text, more than a tenth of the page up, then it is dropped and a table goes on over the break', async () => {
    const markdown = (
      await convertIsolated(
        await pdf((doc) => {
          doc.font('Helvetica').fontSize(10);
          for (let p = 0; p < 3; p++) {
            if (p) doc.addPage();
            writeRows(doc, rows(p * 30 + 1, p * 30 + 30, p === 0), 80);
            // 842 pt page: the number 100 pt above the foot (outside the 84 pt edge band), 40 pt under the text.
            doc.text(String(p + 1), 295, 742, { lineBreak: false });
          }
        }),
        'pdf',
        std,
        limits,
      )
    ).markdown;
    expect(markdown).toBe(register(90));
  });
});
