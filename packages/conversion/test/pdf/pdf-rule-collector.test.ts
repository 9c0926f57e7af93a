import { RuleCollector, type Matrix, type Rule } from '../../src/readers/pdf/rulings';
import { seeded } from '../seeded-random';

/** The collector as first written (a tuple per point, segment and box): the reference the flat arrays must match. */
function referenceRules(ops: Op[], vx: number, vy: number): Rule[] {
  const rules: Rule[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let segments: Array<[number, number, number, number]> = [];
  let boxes: Array<[number, number, number, number]> = [];
  let [cx, cy] = [0, 0];
  const apply = (m: Matrix, x: number, y: number): [number, number] => [
    m[0] * x + m[2] * y + m[4],
    m[1] * x + m[3] * y + m[5],
  ];
  const add = (x0: number, y0: number, x1: number, y1: number): void => {
    const [dx, dy] = [Math.abs(x1 - x0), Math.abs(y1 - y0)];
    if (dy < 0.5 && dx >= 6)
      rules.push({ horizontal: true, at: y0 - vy, from: Math.min(x0, x1) - vx, to: Math.max(x0, x1) - vx });
    else if (dx < 0.5 && dy >= 6)
      rules.push({ horizontal: false, at: x0 - vx, from: Math.min(y0, y1) - vy, to: Math.max(y0, y1) - vy });
  };
  for (const [name, a = 0, b = 0, c = 0, d = 0] of ops) {
    if (name === 'q') stack.push(ctm);
    else if (name === 'Q') ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (name === 'cm') {
      const [m, n] = [ctm, [a, b, c, d, a, d] as Matrix];
      ctm = [
        m[0] * n[0] + m[2] * n[1],
        m[1] * n[0] + m[3] * n[1],
        m[0] * n[2] + m[2] * n[3],
        m[1] * n[2] + m[3] * n[3],
        m[0] * n[4] + m[2] * n[5] + m[4],
        m[1] * n[4] + m[3] * n[5] + m[5],
      ];
    } else if (name === 'begin') [cx, cy] = [0, 0];
    else if (name === 're') {
      const [ax, ay] = apply(ctm, a, b);
      const [bx, by] = apply(ctm, a + c, b + d);
      boxes.push([Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)]);
    } else if (name === 'm') [cx, cy] = apply(ctm, a, b);
    else if (name === 'l') {
      const [nx, ny] = apply(ctm, a, b);
      segments.push([cx, cy, nx, ny]);
      [cx, cy] = [nx, ny];
    } else if (name === 'S') {
      for (const [x0, y0, x1, y1] of segments) add(x0, y0, x1, y1);
      for (const [x0, y0, x1, y1] of boxes) {
        add(x0, y0, x1, y0);
        add(x0, y1, x1, y1);
        add(x0, y0, x0, y1);
        add(x1, y0, x1, y1);
      }
      [segments, boxes] = [[], []];
    } else if (name === 'f') {
      for (const [x0, y0, x1, y1] of boxes) {
        if (y1 - y0 <= 2.5) add(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
        else if (x1 - x0 <= 2.5) add((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
      }
      [segments, boxes] = [[], []];
    } else if (name === 'n') [segments, boxes] = [[], []];
  }
  return rules;
}

type Op = [string, number?, number?, number?, number?];

function collected(ops: Op[], vx: number, vy: number): Rule[] {
  const rules = new RuleCollector(vx, vy);
  for (const [name, a = 0, b = 0, c = 0, d = 0] of ops) {
    if (name === 'q') rules.save();
    else if (name === 'Q') rules.restore();
    else if (name === 'cm') rules.transform([a, b, c, d, a, d]);
    else if (name === 'begin') rules.beginPath();
    else if (name === 're') rules.rectangle(a, b, c, d);
    else if (name === 'm') rules.moveTo(a, b);
    else if (name === 'l') rules.lineTo(a, b);
    else if (name === 'S') rules.stroke();
    else if (name === 'f') rules.fill();
    else if (name === 'n') rules.endPath();
  }
  return rules.rules;
}

describe('Path operators turned into rules', () => {
  it('When paths are built, transformed, stroked, filled and dropped, then the rules are those of the tuple-based collector', () => {
    const random = seeded(31);
    const names = ['q', 'Q', 'cm', 'begin', 're', 're', 'm', 'l', 'l', 'l', 'S', 'f', 'n'];
    const odd = [NaN, Infinity, -0];
    const value = (): number => (random() < 0.02 ? odd[Math.floor(random() * 3)]! : Math.round(random() * 80) * 2.5);
    const small = (): number => (random() < 0.3 ? random() * 3 : value());
    for (let n = 0; n < 500; n++) {
      const ops: Op[] = Array.from({ length: 1 + Math.floor(random() * 60) }, (): Op => {
        const name = names[Math.floor(random() * names.length)]!;
        if (name === 'cm')
          return [
            name,
            random() < 0.7 ? 1 : 0.5 + random(),
            random() < 0.8 ? 0 : random(),
            random() < 0.8 ? 0 : random(),
            value(),
          ];
        return [name, value(), value(), small(), small()];
      });
      const [vx, vy] = random() < 0.5 ? [0, 0] : [value(), value()];
      expect([n, collected(ops, vx, vy)]).toEqual([n, referenceRules(ops, vx, vy)]);
    }
  });
});
