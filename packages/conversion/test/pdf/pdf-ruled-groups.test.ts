import { ruledTables } from '../../src/readers/pdf/ruled-tables';
import type { Rule } from '../../src/readers/pdf/rulings';
import type { TextItem } from '../../src/readers/pdf/layout';

/** A grid's rules: horizontal ones at `ys` from x0 to x1, vertical ones at `xs` from y0 to y1, each cut into per-cell segments. */
function grid(xs: number[], ys: number[]): Rule[] {
  const rules: Rule[] = [];
  for (const y of ys)
    for (let i = 0; i + 1 < xs.length; i++) rules.push({ horizontal: true, at: y, from: xs[i]!, to: xs[i + 1]! });
  for (const x of xs)
    for (let i = 0; i + 1 < ys.length; i++) rules.push({ horizontal: false, at: x, from: ys[i]!, to: ys[i + 1]! });
  return rules;
}

const item = (text: string, x: number, y: number): TextItem => ({ text, x, y, width: 20, size: 10, bold: false });

describe('Drawn tables grouped from their rules', () => {
  it('When a page has two grids, their segments interleaved, and a stray rule, then each grid is one table in page order', () => {
    const upper = grid([100, 200, 300], [660, 680, 700]);
    const lower = grid([100, 200, 300, 400], [360, 380, 400]);
    // Interleaved, as a content stream may draw them; the stray rule touches neither grid.
    const rules: Rule[] = [{ horizontal: true, at: 550, from: 100, to: 300 }];
    for (let i = 0; i < Math.max(upper.length, lower.length); i++) {
      if (lower[i]) rules.push(lower[i]!);
      if (upper[i]) rules.push(upper[i]!);
    }
    const items = [
      item('A', 110, 685),
      item('B', 210, 685),
      item('C', 110, 665),
      item('D', 210, 665),
      item('w', 110, 385),
      item('x', 210, 385),
      item('y', 310, 385),
      item('z', 110, 365),
      item('body', 110, 500),
    ];
    const { tables, rest } = ruledTables(rules, items);
    expect(tables.map((t) => t.rows)).toEqual([
      [
        ['A', 'B'],
        ['C', 'D'],
      ],
      [
        ['w', 'x', 'y'],
        ['z', '', ''],
      ],
    ]);
    expect(rest.map((i) => i.text)).toEqual(['body']);
  });

  it('When a run in a merged cell reaches over a rule that ends just under it, then its words keep their space', () => {
    // The top row is one cell: the column rule at 200 runs through the lower row only, ending at the run's baseline.
    const rules: Rule[] = [
      { horizontal: true, at: 700, from: 100, to: 300 },
      { horizontal: true, at: 680, from: 100, to: 300 },
      { horizontal: true, at: 660, from: 100, to: 300 },
      { horizontal: false, at: 100, from: 660, to: 700 },
      { horizontal: false, at: 300, from: 660, to: 700 },
      { horizontal: false, at: 200, from: 660, to: 680 },
    ];
    const items = [
      { ...item('Units sold during the year', 110, 679.5), width: 150 },
      item('A', 110, 665),
      item('B', 210, 665),
    ];
    const { tables } = ruledTables(rules, items);
    expect(tables.map((t) => t.rows)).toEqual([
      [
        ['Units sold during the year', 'Units sold during the year'],
        ['A', 'B'],
      ],
    ]);
  });
});
