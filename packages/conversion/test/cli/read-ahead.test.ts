import { BatchReadAhead, type ReadAhead } from '../../src/cli/read-ahead';

/** A read whose pdftohtml finishes when the test says so. */
function controlledReads(): {
  read: (file: string) => ReadAhead;
  started: string[];
  finish: (file: string) => Promise<void>;
} {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const read = (file: string): ReadAhead => {
    started.push(file);
    const prepared = new Promise<object>((resolve) => finishers.set(file, () => resolve({})));
    return { bytes: Promise.resolve(Buffer.from(file)), prepared };
  };
  // Lets the read's `finally` run, which starts the next one.
  const finish = async (file: string): Promise<void> => {
    finishers.get(file)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { read, started, finish };
}

const files = ['a', 'b', 'c', 'd', 'e', 'f'];
const sizes = files.map(() => 10);

describe('a one-worker batch read ahead (CLI)', () => {
  it('When the first file converts, then the next files are read at once, as many as there are tools, and the first is not read ahead', () => {
    const { read, started } = controlledReads();
    const ahead = new BatchReadAhead(files, sizes, read, 2, 16);
    expect(ahead.take(0)).toBeUndefined();
    expect(started).toEqual(['b', 'c']);
  });

  it('When a read ahead finishes, then the next file starts, up to the window past the converting file', async () => {
    const { read, started, finish } = controlledReads();
    const ahead = new BatchReadAhead(files, sizes, read, 2, 3);
    ahead.take(0);
    await finish('b');
    expect(started).toEqual(['b', 'c', 'd']);
    await finish('c');
    await finish('d');
    // The window is 3 files past file 0: d is the last one allowed until file 1 is taken.
    expect(started).toEqual(['b', 'c', 'd']);
    expect(ahead.take(1)).toBeDefined();
    expect(started).toEqual(['b', 'c', 'd', 'e']);
  });

  it('When a file’s turn comes before its read started, then it is not read ahead later (the worker reads it)', async () => {
    const { read, started, finish } = controlledReads();
    const ahead = new BatchReadAhead(files, sizes, read, 1, 16);
    ahead.take(0);
    expect(started).toEqual(['b']);
    expect(ahead.take(1)).toBeDefined();
    // c's turn comes while b's pdftohtml still runs and the one tool is busy.
    expect(ahead.take(2)).toBeUndefined();
    await finish('b');
    expect(started).toEqual(['b', 'd']);
  });

  it('When the files waiting read ahead reach the byte budget, then no more start until one is taken; a file larger than the budget still goes alone', async () => {
    const { read, started, finish } = controlledReads();
    const ahead = new BatchReadAhead(files, [1, 60, 50, 200, 10, 10], read, 4, 16, 120);
    ahead.take(0);
    // b (60) and c (50) wait: d (200) would pass the budget of 120.
    expect(started).toEqual(['b', 'c']);
    await finish('b');
    await finish('c');
    expect(started).toEqual(['b', 'c']);
    ahead.take(1);
    expect(started).toEqual(['b', 'c']);
    ahead.take(2);
    // Nothing waits now, so d goes alone, however large.
    expect(started).toEqual(['b', 'c', 'd']);
    await finish('d');
    expect(started).toEqual(['b', 'c', 'd']);
    ahead.take(3);
    expect(started).toEqual(['b', 'c', 'd', 'e', 'f']);
  });
});
