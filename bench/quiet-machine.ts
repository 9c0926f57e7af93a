import os from 'node:os';

/**
 * A figure counts only when it was taken on a quiet machine: at a load average above this, on a
 * 2-core machine, the native baselines' threads starve and every ratio against them flatters us.
 */
export const MAX_COUNTING_LOAD = 1.5;

export interface LoadRecord {
  /** The 1-minute load average when the section started and when it ended. */
  start: number;
  end: number;
  /** False when either reading is above MAX_COUNTING_LOAD: the section's figures don't count. */
  counts: boolean;
}

/** The load record of a section from its two readings. */
export function loadRecord(start: number, end: number): LoadRecord {
  return { start, end, counts: Math.max(start, end) <= MAX_COUNTING_LOAD };
}

/** The line printed above a section's table: the load it ran at, and whether its figures count. */
export function loadLine(record: LoadRecord): string {
  const range = `load average ${record.start.toFixed(2)} → ${record.end.toFixed(2)}`;
  return record.counts
    ? `_${range}: counts._`
    : `**NOT COUNTING: ${range}, above ${MAX_COUNTING_LOAD}; measure again on a quiet machine.**`;
}

/** Runs one section and records the load average at its start and end. */
export async function withLoadAverage<T>(
  run: () => Promise<T>,
  readLoad: () => number = () => os.loadavg()[0]!,
): Promise<{ result: T; load: LoadRecord }> {
  const start = readLoad();
  const result = await run();
  return { result, load: loadRecord(start, readLoad()) };
}
