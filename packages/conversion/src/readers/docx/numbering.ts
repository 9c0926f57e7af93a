import type { DocxPackage, LevelInfo } from './parts';
import { formatNumber } from '../shared/list-numbers';

export interface NumberedLevel {
  level: LevelInfo;
  /** The counter value of this item at its level. */
  value: number;
  /** The label as Word draws it, e.g. "2.1." (empty for bullets). */
  label: string;
  /** The label refers to more than its own level ("1.2."), so Markdown's own numbering cannot reproduce it. */
  multiLevel: boolean;
  /**
   * The list the item belongs to: an instance that restarts its numbering (start overrides) is its
   * own; a plain instance continues the last restarting instance of the same abstract numbering, as
   * Word's shared counters show it (LibreOffice gives a list's first item a restarting instance and
   * the rest the plain one).
   */
  sequence: string;
}

/** Word's list counters: one sequence per abstract numbering, deeper levels restart when a parent advances. */
export class ListNumbering {
  private readonly counters = new Map<string, number[]>();
  private readonly seenNums = new Set<string>();
  /** The last restarting instance used, by abstract numbering. */
  private readonly lastRestart = new Map<string, string>();

  constructor(private readonly pkg: DocxPackage) {}

  level(numId: string, ilvl: number): LevelInfo | undefined {
    const num = this.pkg.nums.get(numId);
    return num ? this.pkg.abstracts.get(num.abstractId)?.[ilvl] : undefined;
  }

  next(numId: string, ilvl: number): NumberedLevel | undefined {
    const num = this.pkg.nums.get(numId);
    const levels = num ? this.pkg.abstracts.get(num.abstractId) : undefined;
    const level = levels?.[ilvl];
    if (!num || !levels || !level) return undefined;
    let counts = this.counters.get(num.abstractId);
    if (!counts) this.counters.set(num.abstractId, (counts = []));
    if (!this.seenNums.has(numId)) {
      this.seenNums.add(numId);
      // A numbering instance with start overrides begins its own sequence.
      for (const [l, start] of num.startOverrides) counts[l] = start - 1;
    }
    if (num.startOverrides.size) this.lastRestart.set(num.abstractId, numId);
    counts[ilvl] = (counts[ilvl] ?? (levels[ilvl]?.start ?? 1) - 1) + 1;
    counts.length = ilvl + 1;
    const refs = [...level.text.matchAll(/%(\d)/g)].map((m) => Number(m[1]) - 1);
    const label =
      level.format === 'bullet'
        ? ''
        : level.text.replace(/%(\d)/g, (_, d: string) => {
            const l = Number(d) - 1;
            return formatNumber(counts![l] ?? levels[l]?.start ?? 1, levels[l]?.format ?? 'decimal');
          });
    return {
      level,
      value: counts[ilvl]!,
      label,
      multiLevel: refs.some((l) => l !== ilvl),
      sequence: num.startOverrides.size ? numId : (this.lastRestart.get(num.abstractId) ?? numId),
    };
  }
}
