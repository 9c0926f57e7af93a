import { stopInOrder } from '../src';

describe('stopInOrder (a service stop)', () => {
  it('When a step fails, then the steps after it still run, in order, and the first failure is thrown at the end', async () => {
    const ran: string[] = [];
    const stopping = stopInOrder([
      () => ran.push('consumer'),
      async () => {
        ran.push('sweeper');
        throw new Error('sweeper failed');
      },
      () => {
        ran.push('broker');
        throw new Error('broker failed too');
      },
      async () => {
        await new Promise((r) => setTimeout(r, 10));
        ran.push('database');
      },
    ]);
    await expect(stopping).rejects.toThrow('sweeper failed');
    expect(ran).toEqual(['consumer', 'sweeper', 'broker', 'database']);
  });

  it('When every step succeeds, then it resolves after the last one', async () => {
    const ran: number[] = [];
    await expect(stopInOrder([1, 2, 3].map((n) => async () => void ran.push(n)))).resolves.toBeUndefined();
    expect(ran).toEqual([1, 2, 3]);
  });
});
