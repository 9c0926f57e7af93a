import { ruledTables, spanOf } from '../../src/readers/pdf/ruled-tables';
import type { Rule } from '../../src/readers/pdf/rulings';
import type { TextItem } from '../../src/readers/pdf/layout';
import { seeded } from '../seeded-random';

const h = (at: number, from: number, to: number): Rule => ({ horizontal: true, at, from, to });
const v = (at: number, from: number, to: number): Rule => ({ horizontal: false, at, from, to });
const item = (text: string, x: number, y: number): TextItem => ({ text, x, y, width: 20, size: 10, bold: false });

describe('A ruled grid read step by step', () => {
  it('When a position is looked up among grid edges, then the span is the one findIndex over the edges gave', () => {
    const random = seeded(22);
    const odd = [NaN, Infinity, -Infinity, -0];
    for (let n = 0; n < 2000; n++) {
      const length = 1 + Math.floor(random() * 8);
      const edges = Array.from({ length }, () => Math.round(random() * 20) * 5).sort((a, b) => a - b);
      const ascending = random() < 0.5;
      if (!ascending) edges.reverse();
      const count = length - 1;
      const value =
        random() < 0.05
          ? odd[Math.floor(random() * odd.length)]!
          : random() < 0.3
            ? edges[Math.floor(random() * length)]!
            : random() * 110 - 5;
      const expected = edges.findIndex((e, k) =>
        ascending
          ? k < count && value >= e && value <= edges[k + 1]!
          : k < count && value <= e && value >= edges[k + 1]!,
      );
      expect([n, spanOf(edges, count, value, ascending)]).toEqual([n, expected]);
    }
  });

  it('When rules are missing inside a grid, then the cells they would part are one, its text in each grid cell', () => {
    // Columns at 100/200/300/400, rows at 700/680/660/640 (top down); the rule between the top row's first two
    // cells is missing, and so is the one under the middle row's last cell.
    const rules = [
      ...[700, 680, 660, 640].flatMap((y) => [h(y, 100, 200), h(y, 200, 300), h(y, 300, 400)]),
      ...[100, 200, 300, 400].flatMap((x) => [v(x, 680, 700), v(x, 660, 680), v(x, 640, 660)]),
    ].filter(
      (r) =>
        !(r.horizontal === false && r.at === 200 && r.from === 680) &&
        !(r.horizontal && r.at === 660 && r.from === 300),
    );
    const items = [
      item('merged', 110, 685),
      item('c', 310, 685),
      item('d', 110, 665),
      item('e', 210, 665),
      item('tall', 310, 665),
      item('g', 110, 645),
      item('h', 210, 645),
    ];
    const { tables, rest } = ruledTables(rules, items);
    expect(rest).toEqual([]);
    expect(tables).toEqual([
      {
        top: 700,
        bottom: 640,
        left: 100,
        right: 400,
        rows: [
          ['merged', 'merged', 'c'],
          ['d', 'e', 'tall'],
          ['g', 'h', 'tall'],
        ],
      },
    ]);
  });

  it('When cells hold one item each (spaces around it, turned, or blank), then each cell reads as its trimmed text', () => {
    const rules = [...[700, 680, 660].map((y) => h(y, 100, 400)), ...[100, 200, 300, 400].map((x) => v(x, 660, 700))];
    const turned: TextItem = { text: ' Up  turned ', x: 210, y: 685, width: 0, size: 10, bold: false };
    const items = [
      item('  spaced  ', 110, 685),
      turned,
      item('x', 310, 685),
      item('   ', 110, 665),
      item('b', 210, 665),
    ];
    const { tables } = ruledTables(rules, items);
    expect(tables.map((t) => t.rows)).toEqual([
      [
        ['spaced', 'Up turned', 'x'],
        ['', 'b', ''],
      ],
    ]);
  });
});
