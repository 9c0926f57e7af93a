import { loadLine, loadRecord, MAX_COUNTING_LOAD, withLoadAverage } from '../quiet-machine';

describe('Bench sections record the load average they ran at', () => {
  it('When both readings are at or below 1.5, then the section counts', () => {
    expect(loadRecord(0.4, MAX_COUNTING_LOAD)).toEqual({ start: 0.4, end: 1.5, counts: true });
    expect(loadLine(loadRecord(0.4, 0.9))).toBe('_load average 0.40 → 0.90: counts._');
  });

  it('When the load was above 1.5 at the start or at the end, then the section is marked as not counting', () => {
    expect(loadRecord(1.51, 0.2).counts).toBe(false);
    expect(loadRecord(0.2, 3).counts).toBe(false);
    expect(loadLine(loadRecord(0.2, 3))).toMatch(/^\*\*NOT COUNTING: load average 0\.20 → 3\.00/);
  });

  it('When a section runs, then the load is read before and after it', async () => {
    const readings = [0.3, 2.2];
    const order: string[] = [];
    const { result, load } = await withLoadAverage(
      async () => {
        order.push('run');
        return 42;
      },
      () => {
        order.push('read');
        return readings.shift()!;
      },
    );
    expect(order).toEqual(['read', 'run', 'read']);
    expect(result).toBe(42);
    expect(load).toEqual({ start: 0.3, end: 2.2, counts: false });
  });
});
