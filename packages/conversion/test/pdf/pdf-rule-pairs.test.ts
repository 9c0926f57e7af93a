import { connectedGroups, runsThroughRow } from '../../src/readers/pdf/ruled-tables';
import type { Rule } from '../../src/readers/pdf/rulings';
import { seeded } from '../seeded-random';

const TOLERANCE = 3;

/** Every pair compared, as the grouping was first written: the reference the sorted sweeps must match. */
function groupsByAllPairs(rules: Rule[]): Rule[][] {
  const parent = rules.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const crosses = (h: Rule, v: Rule): boolean =>
    v.at >= h.from - TOLERANCE && v.at <= h.to + TOLERANCE && h.at >= v.from - TOLERANCE && h.at <= v.to + TOLERANCE;
  const touches = (a: Rule, b: Rule): boolean =>
    a.horizontal === b.horizontal
      ? Math.abs(a.at - b.at) <= TOLERANCE && a.from <= b.to + TOLERANCE && b.from <= a.to + TOLERANCE
      : a.horizontal
        ? crosses(a, b)
        : crosses(b, a);
  for (let i = 0; i < rules.length; i++)
    for (let j = i + 1; j < rules.length; j++) if (touches(rules[i]!, rules[j]!)) parent[find(i)] = find(j);
  const groups = new Map<number, Rule[]>();
  rules.forEach((r, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), r]));
  return [...groups.values()];
}

/** Rules on a coarse lattice (so many meet within the tolerance, or just miss it), some degenerate. */
function rules(random: () => number, count: number): Rule[] {
  const odd = [NaN, Infinity, -Infinity];
  const value = (): number => (random() < 0.02 ? odd[Math.floor(random() * 3)]! : Math.round(random() * 40) * 2.5);
  return Array.from({ length: count }, () => {
    const from = value();
    return { horizontal: random() < 0.5, at: value(), from, to: random() < 0.1 ? from - 5 : from + random() * 30 };
  });
}

describe('Drawn rules compared only where they can meet', () => {
  it('When rules are grouped, then the groups and their order are those of comparing every pair', () => {
    const random = seeded(7);
    for (let n = 0; n < 400; n++) {
      const set = rules(random, 1 + Math.floor(random() * 60));
      expect([n, connectedGroups(set)]).toEqual([n, groupsByAllPairs(set)]);
    }
  });

  it('When column rules are checked for crossing a row rule between their ends, then the answer is that of every pair', () => {
    const random = seeded(8);
    for (let n = 0; n < 400; n++) {
      const set = rules(random, 1 + Math.floor(random() * 40));
      const vertical = set.filter((r) => !r.horizontal);
      const horizontal = set.filter((r) => r.horizontal);
      const everyPair = vertical.some((v) =>
        horizontal.some(
          (h) =>
            h.at > v.from + TOLERANCE &&
            h.at < v.to - TOLERANCE &&
            h.from - TOLERANCE <= v.at &&
            v.at <= h.to + TOLERANCE,
        ),
      );
      expect([n, runsThroughRow(vertical, horizontal)]).toEqual([n, everyPair]);
    }
  });
});
