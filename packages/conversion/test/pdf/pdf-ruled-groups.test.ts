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

  it('When framed boxes stand about a page on guide lines across it, then they are no table and their text is read as text', () => {
    // Two guide lines cross the page; each box straddles one, its edges where no other box has one (a layout demo).
    const rules: Rule[] = [
      { horizontal: true, at: 400, from: 0, to: 600 },
      { horizontal: false, at: 300, from: 0, to: 800 },
    ];
    const boxes: Array<[number, number, number, number, string]> = [
      [20, 140, 385, 415, 'left box'],
      [160, 290, 380, 420, 'middle left box'],
      [320, 430, 390, 410, 'middle right box'],
      [450, 590, 375, 425, 'right box'],
      [230, 370, 700, 760, 'top box'],
      [250, 350, 150, 190, 'bottom box'],
    ];
    const items: TextItem[] = [];
    for (const [x0, x1, y0, y1, text] of boxes) {
      rules.push(
        { horizontal: true, at: y0, from: x0, to: x1 },
        { horizontal: true, at: y1, from: x0, to: x1 },
        { horizontal: false, at: x0, from: y0, to: y1 },
        { horizontal: false, at: x1, from: y0, to: y1 },
      );
      items.push(item(text, x0 + 4, y0 + 4));
    }
    const { tables, rest } = ruledTables(rules, items);
    expect(tables).toEqual([]);
    expect(rest.map((i) => i.text)).toEqual(boxes.map((b) => b[4]));
  });

  it('When a ruled table of eight columns has a merged heading over its body rows, then it is still a table', () => {
    const xs = [100, 150, 200, 250, 300, 350, 400, 450, 500];
    const rules = grid(xs, [600, 620, 640]);
    // The heading row is one cell: its inner column rules are left out.
    rules.push({ horizontal: true, at: 660, from: 100, to: 500 });
    rules.push({ horizontal: false, at: 100, from: 640, to: 660 }, { horizontal: false, at: 500, from: 640, to: 660 });
    const items = [item('Heading', 110, 645)];
    for (const y of [605, 625]) xs.slice(0, -1).forEach((x, k) => items.push(item(`c${k}`, x + 5, y)));
    const { tables } = ruledTables(rules, items);
    expect(tables.map((t) => t.rows.length)).toEqual([3]);
    expect(tables[0]!.rows[1]).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
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
