import { closeConversionWorkers, convertIsolated } from '../../src';
import { makePdf as pdf, ruledGrid } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };

const ROWS = [
  ['Region', 'Schools', 'Pupils', 'Teachers'],
  ['North Valley', '124', '18,402', '1,210'],
  ['South Coast', '98', '15,977', '1,034'],
  ['East Highlands', '61', '7,315', '588'],
  ['West Plains', '143', '21,660', '1,402'],
];

/** A landscape table printed on a portrait page: drawn upright, then the page's drawing turned a quarter. */
async function turnedTable(degrees: number): Promise<string> {
  const input = await pdf((doc) => {
    doc.save();
    doc.rotate(degrees, { origin: [297, 421] });
    doc.font('Helvetica').fontSize(12).text('Table 3: Schools, pupils and teachers by region', 130, 290);
    doc.fontSize(10);
    // Rows as tight as print sets them: a line placed by the wrong edge of its letters falls in the next row.
    // Header cells typed with trailing spaces, as word processors leave them: spaces are no ink, and reach over the rule.
    const header = ROWS[0]!.map((cell) => `${cell}${' '.repeat(8)}`);
    ruledGrid(doc, [130, 260, 310, 370, 430], [320, 336, 352, 368, 384, 400], [header, ...ROWS.slice(1)]);
    doc.restore();
  });
  return (await convertIsolated(input, 'pdf', { enhanced: false }, limits)).markdown;
}

const EXPECTED = [
  '| Region | Schools | Pupils | Teachers |',
  '| --- | --- | --- | --- |',
  '| North Valley | 124 | 18,402 | 1,210 |',
  '| South Coast | 98 | 15,977 | 1,034 |',
  '| East Highlands | 61 | 7,315 | 588 |',
  '| West Plains | 143 | 21,660 | 1,402 |',
].join('\n');

describe('PDF pages set a quarter turn', () => {
  it('When a ruled table is printed turned clockwise on a portrait page, then it reads as the upright table', async () => {
    const markdown = await turnedTable(90);
    expect(markdown).toContain('Table 3: Schools, pupils and teachers by region');
    expect(markdown).toContain(EXPECTED);
  }, 60_000);

  it('When a ruled table is printed turned anticlockwise on a portrait page, then it reads as the upright table', async () => {
    const markdown = await turnedTable(-90);
    expect(markdown).toContain('Table 3: Schools, pupils and teachers by region');
    expect(markdown).toContain(EXPECTED);
  }, 60_000);
});
