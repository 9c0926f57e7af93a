import { StatementBatch } from '../src';

/** A statement that answers each input doubled once `release` is called, recording each batch. */
function recorder(fail?: (inputs: number[]) => Error | undefined) {
  const batches: number[][] = [];
  const waiting: Array<() => void> = [];
  const run = (inputs: number[]): Promise<number[]> => {
    batches.push(inputs);
    return new Promise((resolve, reject) =>
      waiting.push(() => {
        const err = fail?.(inputs);
        if (err) reject(err);
        else resolve(inputs.map((n) => n * 2));
      }),
    );
  };
  const releaseAll = async () => {
    while (waiting.length > 0) {
      waiting.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { batches, run, releaseAll };
}

const settled = <T>(promises: Promise<T>[]) =>
  Promise.allSettled(promises).then((all) =>
    all.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)),
  );

describe('a statement batch', () => {
  it('When calls are made in one turn, then they go as one statement and each gets its own answer', async () => {
    const r = recorder();
    const batch = new StatementBatch({ run: r.run, maxBatch: 10 });
    const answers = [1, 2, 3].map((n) => batch.call(n));
    await new Promise((resolve) => setImmediate(resolve));
    await r.releaseAll();
    expect(await Promise.all(answers)).toEqual([2, 4, 6]);
    expect(r.batches).toEqual([[1, 2, 3]]);
  });

  it('When calls are made while a statement runs, then they wait and all go together in the next one', async () => {
    const r = recorder();
    const batch = new StatementBatch({ run: r.run, maxBatch: 10 });
    const first = batch.call(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batch.call(2), batch.call(3)];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const laterStill = batch.call(4);
    expect(r.batches).toEqual([[1]]);
    await r.releaseAll();
    expect(await Promise.all([first, ...later, laterStill])).toEqual([2, 4, 6, 8]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('When more calls wait than a statement takes, then they go in order over several statements', async () => {
    const r = recorder();
    const batch = new StatementBatch({ run: r.run, maxBatch: 2 });
    const answers = [1, 2, 3, 4, 5].map((n) => batch.call(n));
    await new Promise((resolve) => setImmediate(resolve));
    await r.releaseAll();
    expect(await Promise.all(answers)).toEqual([2, 4, 6, 8, 10]);
    expect(r.batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('When a call is to go alone, then it is sent at once by itself, beside the batch, and the others still go together', async () => {
    const r = recorder();
    const batch = new StatementBatch({ run: r.run, maxBatch: 10, alone: (n) => n >= 100 });
    const answers = [1, 2, 100, 3].map((n) => batch.call(n));
    await new Promise((resolve) => setImmediate(resolve));
    await r.releaseAll();
    expect(await Promise.all(answers)).toEqual([2, 4, 200, 6]);
    expect(r.batches).toEqual([[100], [1, 2, 3]]);
  });

  it('When calls share a key, then they never share a statement and each key keeps its order', async () => {
    const r = recorder();
    const batch = new StatementBatch({ run: r.run, maxBatch: 10, key: (n: number) => String(n % 10) });
    const answers = [1, 11, 2, 21, 3].map((n) => batch.call(n));
    await new Promise((resolve) => setImmediate(resolve));
    await r.releaseAll();
    expect(await Promise.all(answers)).toEqual([2, 22, 4, 42, 6]);
    expect(r.batches).toEqual([[1, 2, 3], [11], [21]]);
  });

  it('When a batch fails (not a lost connection), then each call runs alone and only the refused one fails', async () => {
    const r = recorder((inputs) => (inputs.includes(13) ? new Error('refused') : undefined));
    const alone: number[] = [];
    const batch = new StatementBatch({
      run: r.run,
      maxBatch: 10,
      runOne: async (n: number) => {
        alone.push(n);
        if (n === 13) throw new Error('refused alone');
        return n * 2;
      },
      isConnectionLoss: () => false,
    });
    const answers = settled([1, 13, 3].map((n) => batch.call(n)));
    await new Promise((resolve) => setImmediate(resolve));
    await r.releaseAll();
    expect(await answers).toEqual([2, 'refused alone', 6]);
    expect(alone).toEqual([1, 13, 3]);
  });

  it('When a batch loses its connection, then every call in it fails with that error, for its caller to retry', async () => {
    const r = recorder(() => new Error('Connection terminated'));
    const runOne = jest.fn(async (n: number) => n);
    const batch = new StatementBatch({
      run: r.run,
      maxBatch: 10,
      runOne,
      isConnectionLoss: (err) => /Connection terminated/.test((err as Error).message),
    });
    const answers = settled([1, 2].map((n) => batch.call(n)));
    await new Promise((resolve) => setImmediate(resolve));
    await r.releaseAll();
    expect(await answers).toEqual(['Connection terminated', 'Connection terminated']);
    expect(runOne).not.toHaveBeenCalled();
    // The batch goes on with later calls.
    const after = settled([batch.call(5)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.batches).toEqual([[1, 2], [5]]);
    await r.releaseAll();
    expect(await after).toEqual(['Connection terminated']);
  });
});
