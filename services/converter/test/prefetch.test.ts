import { execFileSync } from 'node:child_process';
import { topologyNames } from '@markwright/contracts';
import { startStack, type Stack } from '../../gateway/test/stack';
import { PREFETCH_PER_SLOT } from '../src/converter-service';

/** The prefetch the broker gives the consumer of `queue` (rabbitmqctl, as the broker-restart test uses it). */
function consumerPrefetch(queue: string): number | undefined {
  const lines = execFileSync('rabbitmqctl', ['-q', 'list_consumers', 'queue_name', 'prefetch_count'], {
    timeout: 30_000,
  })
    .toString()
    .split('\n');
  const line = lines.map((l) => l.trim().split(/\s+/)).find(([name]) => name === queue);
  return line ? Number(line[1]) : undefined;
}

let stack: Stack;
afterEach(() => stack?.stop());

describe("the converter's prefetch window", () => {
  it('When CONVERTER_PREFETCH is unset, then the converter takes 32 jobs per conversion slot from the queue', async () => {
    stack = await startStack({ env: { CONVERTER_CONCURRENCY: '3' } });
    const names = topologyNames(stack.env.config.QUEUE_PREFIX);
    expect(PREFETCH_PER_SLOT).toBe(32);
    expect(consumerPrefetch(names.jobsQueue)).toBe(96);
  });

  it('When CONVERTER_PREFETCH is set, then it is the window', async () => {
    stack = await startStack({ env: { CONVERTER_CONCURRENCY: '3', CONVERTER_PREFETCH: '5' } });
    const names = topologyNames(stack.env.config.QUEUE_PREFIX);
    expect(consumerPrefetch(names.jobsQueue)).toBe(5);
  });
});
