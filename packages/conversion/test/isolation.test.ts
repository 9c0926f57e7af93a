import { closeConversionWorkers, conversionWorkersAreHardened, convertIsolated, recycledWorkerPools } from '../src';

const std = { enhanced: false };
const limits = { timeoutMs: 60_000, maxMemoryMb: 256 };

describe('conversion workers', () => {
  afterAll(() => closeConversionWorkers());

  it('When a worker runs, then the built-ins every parser shares are frozen', async () => {
    expect(await conversionWorkersAreHardened(limits)).toBe(true);
  });

  it('When a worker outgrows the recycle threshold, then it is replaced and the next conversion still succeeds', async () => {
    const before = recycledWorkerPools();
    const tiny = { ...limits, recycleHeapMb: 1 };
    await convertIsolated(Buffer.from('# One\n'), 'md', std, tiny);
    expect(recycledWorkerPools()).toBe(before + 1);
    const next = await convertIsolated(Buffer.from('# Two\n'), 'md', std, tiny);
    expect(next.markdown).toBe('# Two\n');
  });

  it('When a worker stays under the threshold, then it is kept', async () => {
    await convertIsolated(Buffer.from('warm'), 'txt', std, limits);
    const before = recycledWorkerPools();
    await convertIsolated(Buffer.from('again'), 'txt', std, limits);
    expect(recycledWorkerPools()).toBe(before);
  });
});
