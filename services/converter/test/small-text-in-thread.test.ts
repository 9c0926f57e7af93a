import request from 'supertest';
import { silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { runConversion, type RunDeps } from '../src/domain/run-conversion';
import { RunningConversions } from '../src/domain/running-conversions';
import { WorkSlots } from '../src/domain/work-slots';

let stack: Stack;
beforeAll(async () => {
  // No converter of the stack's own: this file runs the jobs itself, with the only worker slot kept busy.
  stack = await startStack({ converter: false });
});
afterAll(() => stack?.stop());

async function queued(token: string, file: Buffer, name: string): Promise<string> {
  const res = await request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', 'https://receiver.example/hook')
    .attach('file', file, name);
  expect(res.status).toBe(202);
  return res.body.id as string;
}

function depsWith(slots: WorkSlots, finished: string[]): RunDeps {
  return {
    db: stack.gateway.db,
    logger: silentLogger,
    limits: { timeoutMs: 30_000, maxMemoryMb: 256 },
    slots,
    announce: async () => undefined,
    observe: { finished: (_ext, status) => void finished.push(status), refunded: () => undefined },
    running: new RunningConversions(),
  };
}

const settled = (run: Promise<void>): Promise<string> =>
  Promise.race([
    run.then(() => 'ended'),
    new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 3_000).unref()),
  ]);

describe('Small plain text converts on the main thread', () => {
  it('When a 1 KB .txt job comes while the only worker thread is busy, then it completes without waiting for it', async () => {
    const { token } = await stack.workspace('starter', 10);
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1024);
    const id = await queued(token, Buffer.from(`# Title\n\n${text}`), 'small.txt');
    const slots = new WorkSlots(1, 1024 * 1024);
    let freeTheSlot!: () => void;
    const busy = slots.converting(() => new Promise<void>((resolve) => (freeTheSlot = resolve)));
    const finished: string[] = [];

    expect(await settled(runConversion(depsWith(slots, finished), id))).toBe('ended');
    const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
    expect({ status: row.status, markdown: row.markdown, title: (row.metadata as { title?: string }).title }).toEqual({
      status: 'completed',
      markdown: `# Title\n\n${text.trim()}\n`,
      title: 'Title',
    });
    expect(finished).toEqual(['completed']);
    freeTheSlot();
    await busy;
  });

  it('When the .txt is larger than the in-thread limit, then it waits for the worker thread as any document', async () => {
    const { token } = await stack.workspace('starter', 10);
    const id = await queued(token, Buffer.from('word '.repeat(1000)), 'larger.txt');
    const slots = new WorkSlots(1, 1024 * 1024);
    let freeTheSlot!: () => void;
    const busy = slots.converting(() => new Promise<void>((resolve) => (freeTheSlot = resolve)));
    const run = runConversion(depsWith(slots, []), id);

    expect(await settled(run)).toBe('still waiting');
    freeTheSlot();
    await busy;
    await run;
    const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('completed');
  });
});
