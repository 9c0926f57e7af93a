import { PDFDocument, PDFOperator, PDFOperatorNames as Op, PDFNumber, PDFName } from 'pdf-lib';
import { openContentRules } from '../../src/readers/pdf/content-rules';

const op = (name: Op, ...args: number[]): PDFOperator =>
  PDFOperator.of(
    name,
    args.map((n) => PDFNumber.of(n)),
  );

/** The scanner's rules of a one-page file drawing `ops` (undefined: the page is left to pdf.js). */
async function scanned(ops: PDFOperator[]) {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).pushOperators(...ops);
  const scanner = await openContentRules(await doc.save());
  expect(scanner?.pageCount).toBe(1);
  return scanner?.pageRules(1);
}

const box = [op(Op.AppendRectangle, 72, 100, 200, 30), op(Op.StrokePath)];

describe('Content stream operands kept in typed arrays', () => {
  it('When a colour operator takes the most operands any operator takes (33), then the page is read', async () => {
    const colour = PDFOperator.of('scn' as Op, [
      ...Array.from({ length: 32 }, (_, i) => PDFNumber.of(i / 10)),
      PDFName.of('P0'),
    ]);
    expect(await scanned([colour, ...box])).toHaveLength(4);
  });

  it('When more operands come before an operator than any operator takes, then the page is left to pdf.js', async () => {
    const colour = PDFOperator.of(
      'scn' as Op,
      Array.from({ length: 34 }, (_, i) => PDFNumber.of(i)),
    );
    expect(await scanned([colour, ...box])).toBeUndefined();
    expect(
      await scanned([
        PDFOperator.of(
          'scn' as Op,
          Array.from({ length: 40 }, () => PDFName.of('A')),
        ),
      ]),
    ).toBeUndefined();
  });

  it('When numbers are negative or fractional, then each rule edge is read to the bit', async () => {
    const rules = await scanned([
      PDFOperator.of(Op.AppendRectangle, [
        PDFNumber.of(72.25),
        PDFNumber.of(100.125),
        PDFNumber.of(200.5),
        PDFNumber.of(-30.75),
      ]),
      op(Op.StrokePath),
    ]);
    expect(rules).toEqual([
      { horizontal: true, at: 69.375, from: 72.25, to: 272.75 },
      { horizontal: true, at: 100.125, from: 72.25, to: 272.75 },
      { horizontal: false, at: 72.25, from: 69.375, to: 100.125 },
      { horizontal: false, at: 272.75, from: 69.375, to: 100.125 },
    ]);
  });

  it('When a name operand is not a name where a resource is asked for, then the page is left to pdf.js', async () => {
    expect(await scanned([op('Do' as Op, 5), ...box])).toBeUndefined();
  });
});
