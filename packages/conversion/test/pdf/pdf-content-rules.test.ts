import { execFile } from 'node:child_process';
import path from 'node:path';
import {
  PDFDocument,
  PDFOperator,
  PDFOperatorNames as Op,
  PDFNumber,
  PDFHexString,
  PDFString,
  StandardFonts,
  degrees,
  rgb,
} from 'pdf-lib';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { openContentRules } from '../../src/readers/pdf/content-rules';
import type { Rule } from '../../src/readers/pdf/rulings';
import { makePdf as pdf, ruledGrid } from './make-pdf';

afterAll(() => closeConversionWorkers());

const tsx = require.resolve('tsx/cli');
const script = path.join(__dirname, 'rules-sources.ts');

/** Every page's rules from both sources (null: the scanner leaves the page to pdf.js), from a child process. */
async function bothSources(
  input: Uint8Array,
): Promise<{ opened: boolean; pdfjs: Rule[][]; scanned: Array<Rule[] | null> }> {
  const child = execFile(process.execPath, [tsx, script], { maxBuffer: 64 << 20 });
  const output = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`rules-sources exited ${code}`))));
  });
  child.stdin!.end(Buffer.from(input));
  return JSON.parse(await output) as { opened: boolean; pdfjs: Rule[][]; scanned: Array<Rule[] | null> };
}

async function expectSameRules(input: Uint8Array, minRules = 1): Promise<Rule[][]> {
  const { opened, pdfjs, scanned } = await bothSources(input);
  expect(opened).toBe(true);
  expect(scanned).toEqual(pdfjs);
  expect(pdfjs.flat().length).toBeGreaterThanOrEqual(minRules);
  return pdfjs;
}

const op = (name: Op, ...args: number[]): PDFOperator =>
  PDFOperator.of(
    name,
    args.map((n) => PDFNumber.of(n)),
  );

describe('Drawn rules read from the content stream', () => {
  it('When pdfkit strokes cells, strokes lines and fills thin boxes, then the scanner gives the rules pdf.js gives', async () => {
    const input = await pdf((doc) => {
      doc.font('Helvetica').fontSize(10).text('A table (with [brackets] and \\ in its text)', 72, 60);
      ruledGrid(
        doc,
        [72, 192, 312],
        [100, 124, 148],
        [
          ['Region', 'Sales'],
          ['North', '120'],
        ],
      );
      for (let x = 72; x < 300; x += 110) doc.rect(x, 200, 100, 18).stroke();
      doc.rect(72, 260, 240, 1).fill();
      doc.rect(72, 280, 1.5, 60).fill();
      doc.rect(72, 360, 100, 40).fill(); // a filled box, not a rule
      doc.moveTo(72, 420).bezierCurveTo(100, 430, 150, 430, 200, 420).stroke(); // a curve, not a rule
      doc.addPage();
      ruledGrid(doc, [72, 300], [72, 96, 120], [['Second'], ['page']]);
    });
    const rules = await expectSameRules(input, 20);
    expect(rules[0]!.some((r) => r.horizontal && r.from === 72 && r.to === 312)).toBe(true);
  });

  it('When rules are drawn under nested saves, translations, scaling and rotation, then both sources agree', async () => {
    const input = await pdf((doc) => {
      doc.save().translate(50, 40);
      doc.rect(72, 100, 200, 20).stroke();
      doc.save().scale(1.5).moveTo(60, 120).lineTo(160, 120).stroke().restore();
      doc
        .save()
        .rotate(90, { origin: [300, 300] })
        .moveTo(300, 300)
        .lineTo(400, 300)
        .stroke()
        .restore();
      doc
        .save()
        .rotate(30, { origin: [300, 500] })
        .rect(300, 500, 80, 20)
        .stroke()
        .restore();
      doc.restore();
      doc.moveTo(72, 700).lineTo(300, 700).stroke();
    });
    await expectSameRules(input, 8);
  });

  it('When rules sit in form XObjects (nested, scaled), on rotated and cropped pages, in object streams, then both sources agree', async () => {
    const inner = await PDFDocument.create();
    const innerPage = inner.addPage([300, 200]);
    innerPage.drawRectangle({ x: 10, y: 10, width: 200, height: 100, borderWidth: 1, borderColor: rgb(0, 0, 0) });
    innerPage.drawLine({ start: { x: 10, y: 60 }, end: { x: 210, y: 60 }, thickness: 1 });
    const middle = await PDFDocument.create();
    const middlePage = middle.addPage([400, 300]);
    // Each page is embedded from saved bytes, so its own forms are copied with it.
    const [innerForm] = await middle.embedPdf(await inner.save());
    middlePage.drawPage(innerForm!, { x: 20, y: 30, xScale: 0.8, yScale: 0.8 });
    middlePage.drawLine({ start: { x: 5, y: 5 }, end: { x: 5, y: 250 }, thickness: 1 });

    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const [form] = await doc.embedPdf(await middle.save());
    const plain = doc.addPage([595, 842]);
    plain.drawText('Forms drawn twice', { x: 72, y: 800, size: 12, font });
    plain.drawPage(form!, { x: 50, y: 400 });
    plain.drawPage(form!, { x: 50, y: 50, xScale: 1.2, yScale: 0.5 });
    const rotated = doc.addPage([595, 842]);
    rotated.setRotation(degrees(90));
    rotated.drawPage(form!, { x: 100, y: 100 });
    const cropped = doc.addPage([595, 842]);
    cropped.setMediaBox(-20, -30, 640, 900);
    cropped.setCropBox(10, 20, 500, 700);
    cropped.drawRectangle({ x: 72, y: 72, width: 300, height: 200, borderWidth: 1, borderColor: rgb(0, 0, 0) });
    const input = Buffer.from(await doc.save({ useObjectStreams: true }));

    const rules = await expectSameRules(input, 12);
    expect(rules[2]!.some((r) => r.horizontal && r.from === 62 && r.to === 362)).toBe(true);
  });

  it('When path operators sit inside text objects, follow curves or are split by other operators, then both sources agree', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    const fontName = page.node.newFontDictionary('F', font.ref);
    page.pushOperators(
      op(Op.PushGraphicsState),
      op(Op.BeginText),
      PDFOperator.of(Op.SetFontAndSize, [fontName, PDFNumber.of(10)]),
      PDFOperator.of(Op.ShowText, [PDFString.of('re S (1 2 m) [0 0 9 9 re] <f> % S')]),
      PDFOperator.of(Op.ShowText, [PDFHexString.fromText('re S')]),
      op(Op.MoveTo, 72, 500),
      op(Op.LineTo, 300, 500),
      op(Op.EndText),
      op(Op.StrokePath),
      // A curve does not move the point the next line starts from, in pdf.js's list as here.
      op(Op.MoveTo, 72, 450),
      op(Op.AppendBezierCurve, 100, 460, 150, 460, 200, 450),
      op(Op.LineTo, 400, 450),
      op(Op.ClosePath),
      op(Op.StrokePath),
      // A colour between two path operators starts a new path (its point back at the origin).
      op(Op.MoveTo, 72, 400),
      op(Op.NonStrokingColorGray, 0),
      op(Op.LineTo, 72, 300),
      op(Op.StrokePath),
      op(Op.AppendRectangle, 72, 200, 200, 30),
      op(Op.EndPath),
      op(Op.AppendRectangle, 72, 150, 200, 1),
      op(Op.FillNonZero),
      // Unclosed saves; one restore too many.
      op(Op.PushGraphicsState),
      op(Op.ConcatTransformationMatrix, 1, 0, 0, 1, 10, 10),
      op(Op.PopGraphicsState),
      op(Op.PopGraphicsState),
      op(Op.PopGraphicsState),
      op(Op.AppendRectangle, 72, 100, 200, 30),
      op(Op.StrokePath),
      op(Op.PushGraphicsState),
      op(Op.ConcatTransformationMatrix, 2, 0, 0, 2, 0, 0),
    );
    const input = Buffer.from(await doc.save({ useObjectStreams: false }));
    await expectSameRules(input, 6);
  });

  it('When the file is encrypted or a page has an annotation that draws, then those pages are left to pdf.js and the table is still found', async () => {
    const table = (doc: PDFKit.PDFDocument): void => {
      doc.font('Helvetica').fontSize(11).text('Prices', 72, 72);
      ruledGrid(
        doc,
        [72, 192, 312],
        [100, 124, 148],
        [
          ['Item', 'Price'],
          ['Tea', '3.50'],
        ],
      );
      doc.text('Table above.', 72, 200);
    };
    const encrypted = await pdf(table, {}, { ownerPassword: 'owner', permissions: { copying: true } });
    expect(await openContentRules(encrypted)).toBeUndefined();

    const annotated = await pdf((doc) => {
      table(doc);
      doc.note(400, 400, 20, 20, 'A sticky note');
    });
    const scanner = await openContentRules(annotated);
    expect(scanner?.pageRules(1)).toBeUndefined();

    for (const input of [encrypted, annotated]) {
      const { markdown } = await convertIsolated(
        input,
        'pdf',
        { enhanced: false },
        { timeoutMs: 60_000, maxMemoryMb: 512 },
      );
      expect(markdown).toContain('| Item | Price |\n| --- | --- |\n| Tea | 3.50 |');
    }
  });

  it('When a content stream is damaged (an unknown operator, a wrong operand count), then the page is left to pdf.js', async () => {
    for (const ops of [
      [PDFOperator.of('xx' as Op, []), op(Op.AppendRectangle, 72, 100, 200, 30), op(Op.StrokePath)],
      [op(Op.AppendRectangle, 72, 100, 200), op(Op.StrokePath)],
    ]) {
      const doc = await PDFDocument.create();
      doc.addPage([595, 842]).pushOperators(...ops);
      const scanner = await openContentRules(await doc.save());
      expect(scanner?.pageCount).toBe(1);
      expect(scanner?.pageRules(1)).toBeUndefined();
    }
  });
});
