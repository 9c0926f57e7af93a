import { LeftTheLine, WorkSlots } from '../src/domain/work-slots';

/** A job that records how many like it run at once, and finishes when released. */
function gate() {
  let running = 0;
  let most = 0;
  const releases: Array<() => void> = [];
  const job = () => {
    running++;
    most = Math.max(most, running);
    return new Promise<void>((resolve) =>
      releases.push(() => {
        running--;
        resolve();
      }),
    );
  };
  const settle = () => new Promise((r) => setImmediate(r));
  return { job, releases, running: () => running, most: () => most, settle };
}

describe('A converter holds many jobs and bounds what they use', () => {
  it('When more jobs are taken than there are worker threads, then at most that many convert at once', async () => {
    const slots = new WorkSlots(2, 1024 * 1024);
    const g = gate();
    const all = Array.from({ length: 6 }, () => slots.converting(g.job));
    await g.settle();
    expect(g.running()).toBe(2);
    while (g.releases.length) {
      g.releases.shift()!();
      await g.settle();
    }
    await Promise.all(all);
    expect(g.most()).toBe(2);
  });

  it('When the uploads in flight would pass the byte budget, then the next job waits until one gives its bytes back', async () => {
    const slots = new WorkSlots(8, 100 * 1024);
    const g = gate();
    const first = slots.holdingBytes(60 * 1024, g.job);
    const second = slots.holdingBytes(60 * 1024, g.job);
    await g.settle();
    expect(g.running()).toBe(1);
    g.releases.shift()!();
    await first;
    await g.settle();
    expect(g.running()).toBe(1);
    g.releases.shift()!();
    await second;
  });

  it('When one upload is larger than the whole budget, then it still runs, alone', async () => {
    const slots = new WorkSlots(8, 100 * 1024);
    const g = gate();
    const small = slots.holdingBytes(1024, g.job);
    const huge = slots.holdingBytes(10 * 1024 * 1024, g.job);
    await g.settle();
    expect(g.running()).toBe(1);
    g.releases.shift()!();
    await small;
    await g.settle();
    expect(g.running()).toBe(1);
    g.releases.shift()!();
    await huge;
    expect(g.most()).toBe(1);
  });
  it('When a large upload waits for bytes, then smaller ones taken after it wait behind it (first come, first served)', async () => {
    const slots = new WorkSlots(8, 100 * 1024);
    const g = gate();
    const order: string[] = [];
    const tagged = (name: string) => () => {
      order.push(name);
      return g.job();
    };
    const first = slots.holdingBytes(60 * 1024, tagged('first'));
    const large = slots.holdingBytes(80 * 1024, tagged('large'));
    const small = slots.holdingBytes(10 * 1024, tagged('small'));
    await g.settle();
    // 40 KB are free: enough for the small one, but it came after the large one.
    expect(order).toEqual(['first']);
    g.releases.shift()!();
    await first;
    await g.settle();
    expect(order).toEqual(['first', 'large', 'small']);
    expect(g.running()).toBe(2);
    while (g.releases.length) g.releases.shift()!();
    await Promise.all([large, small]);
  });

  it('When a budget of 256 MB is taken and given back many times, then every job runs and the whole budget is free again', async () => {
    const slots = new WorkSlots(2, 256 * 1024 * 1024);
    const done = await Promise.all(
      Array.from({ length: 2000 }, (_, i) => slots.holdingBytes(1024 * (1 + (i % 7)), async () => i)),
    );
    expect(done).toHaveLength(2000);
    const g = gate();
    const whole = slots.holdingBytes(256 * 1024 * 1024, g.job);
    await g.settle();
    expect(g.running()).toBe(1);
    g.releases.shift()!();
    await whole;
  });
});

describe('A converter that stops', () => {
  it('When it stops, then jobs waiting for a worker thread give up (to be requeued) and the running one finishes', async () => {
    const slots = new WorkSlots(1, 1024 * 1024);
    const g = gate();
    const running = slots.converting(g.job);
    const waiting = slots.converting(g.job);
    await g.settle();
    slots.stopWaiting();
    await expect(waiting).rejects.toThrow();
    expect(g.running()).toBe(1);
    g.releases.shift()!();
    await expect(running).resolves.toBeUndefined();
  });
});

describe('A cancelled job waiting for a slot', () => {
  it('When its cancel comes while it waits for a worker thread, then it leaves the line at once and is never run; the slot goes on to the next', async () => {
    const slots = new WorkSlots(1, 1024 * 1024);
    const g = gate();
    const running = slots.converting(g.job);
    const cancel = new AbortController();
    let ran = false;
    const waiting = slots.converting(async () => {
      ran = true;
    }, cancel.signal);
    const next = slots.converting(g.job);
    await g.settle();
    cancel.abort();
    await expect(waiting).rejects.toBeInstanceOf(LeftTheLine);
    expect(g.running()).toBe(1); // the first still holds the only slot: the cancelled one did not wait for it
    g.releases.shift()!();
    await running;
    await g.settle();
    expect({ ran, running: g.running() }).toEqual({ ran: false, running: 1 });
    g.releases.shift()!();
    await expect(next).resolves.toBeUndefined();
  });

  it('When it was cancelled before it asked, or while it waited for upload bytes, then its work never runs', async () => {
    const slots = new WorkSlots(1, 1024 * 1024);
    const cancelled = new AbortController();
    cancelled.abort();
    let ran = 0;
    const work = async () => void ran++;
    await expect(slots.converting(work, cancelled.signal)).rejects.toBeInstanceOf(LeftTheLine);
    const g = gate();
    const big = slots.holdingBytes(1024 * 1024, g.job);
    const cancel = new AbortController();
    const waiting = slots.holdingBytes(1024, work, cancel.signal);
    await g.settle();
    cancel.abort();
    await expect(waiting).rejects.toBeInstanceOf(LeftTheLine);
    g.releases.shift()!();
    await big;
    await expect(slots.holdingBytes(1024 * 1024, work)).resolves.toBeUndefined(); // the whole budget is back
    expect(ran).toBe(1);
  });
});
