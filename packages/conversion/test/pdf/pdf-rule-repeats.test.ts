import { ruledTables, withoutRepeats } from '../../src/readers/pdf/ruled-tables';
import type { Rule } from '../../src/readers/pdf/rulings';
import type { TextItem } from '../../src/readers/pdf/layout';

const h = (at: number, from: number, to: number): Rule => ({ horizontal: true, at, from, to });
const v = (at: number, from: number, to: number): Rule => ({ horizontal: false, at, from, to });
const item = (text: string, x: number, y: number): TextItem => ({ text, x, y, width: 20, size: 10, bold: false });

/** A grid drawn cell by cell, each cell stroked as a box: every inner edge is drawn twice (pdfkit's `rect().stroke()` per cell). */
function cellBoxes(xs: number[], ys: number[]): Rule[] {
  const rules: Rule[] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    for (let c = 0; c + 1 < xs.length; c++) {
      const [x0, x1, y0, y1] = [xs[c]!, xs[c + 1]!, ys[r]!, ys[r + 1]!];
      rules.push(h(y0, x0, x1), h(y1, x0, x1), v(x0, y0, y1), v(x1, y0, y1));
    }
  }
  return rules;
}

/** The same grid with each cell edge drawn once. */
function cellSegments(xs: number[], ys: number[]): Rule[] {
  const rules: Rule[] = [];
  for (const y of ys) for (let c = 0; c + 1 < xs.length; c++) rules.push(h(y, xs[c]!, xs[c + 1]!));
  for (const x of xs) for (let r = 0; r + 1 < ys.length; r++) rules.push(v(x, ys[r]!, ys[r + 1]!));
  return rules;
}

describe('Rules drawn more than once', () => {
  it('When cells are stroked as boxes, then each shared edge is kept once, first drawing first, and marked repeated', () => {
    const boxes = cellBoxes([100, 200, 300, 400, 500], [600, 620, 640, 660, 680, 700, 720]);
    const { unique, repeated } = withoutRepeats(boxes);
    expect(boxes).toHaveLength(96);
    expect(unique).toHaveLength(58);
    expect(unique).toEqual(
      boxes.filter((r, i) => boxes.findIndex((s) => JSON.stringify(s) === JSON.stringify(r)) === i),
    );
    // Inner edges: 5 inner row lines x 4 cells + 3 inner column lines x 6 rows.
    expect(repeated.size).toBe(5 * 4 + 3 * 6);
  });

  it('When two rules differ only by the sign of a zero, or hold NaN, then neither is taken for a repeat', () => {
    const rules = [h(0, 10, 50), h(-0, 10, 50), h(NaN, 10, 50), h(NaN, 10, 50), v(20, NaN, 5), v(20, NaN, 5)];
    const { unique, repeated } = withoutRepeats(rules);
    expect(unique).toHaveLength(6);
    expect(repeated.size).toBe(0);
  });

  it('When a grid is stroked cell by cell, then its table and the text left are those of the grid drawn edge by edge', () => {
    const xs = [100, 200, 300, 400];
    const ys = [640, 660, 680, 700];
    const items = [
      item('A', 110, 685),
      item('B', 210, 685),
      item('C', 310, 685),
      item('D', 110, 665),
      item('E', 210, 665),
      item('F', 110, 645),
      item('body', 110, 500),
    ];
    const boxes = ruledTables(cellBoxes(xs, ys), items);
    expect(boxes).toEqual(ruledTables(cellSegments(xs, ys), items));
    expect(boxes.tables.map((t) => t.rows)).toEqual([
      [
        ['A', 'B', 'C'],
        ['D', 'E', ''],
        ['F', '', ''],
      ],
    ]);
  });

  it('When a grid has one row rule, drawn twice, then it still counts as two rules and the table is read', () => {
    // Column rules run through the row rule, so the grid has two rows; the row rule alone is one rule drawn twice.
    const rules = [h(660, 100, 300), v(100, 600, 720), v(200, 600, 720), v(300, 600, 720), h(660, 100, 300)];
    const items = [item('top left', 110, 690), item('top right', 210, 690), item('low left', 110, 630)];
    const { tables, rest } = ruledTables(rules, items);
    expect(tables.map((t) => t.rows)).toEqual([
      [
        ['top left', 'top right'],
        ['low left', ''],
      ],
    ]);
    expect(rest).toEqual([]);
    // Drawn once it is one rule, too few for a grid.
    expect(ruledTables(rules.slice(0, 4), items).tables).toEqual([]);
  });
});
