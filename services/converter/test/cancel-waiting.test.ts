import request from 'supertest';
import { CANCELLED_BY_REQUEST } from '@markwright/contracts';
import { eventually, silentLogger } from '@markwright/test-support';
import { bearer, startStack, type Stack } from '../../gateway/test/stack';
import { runConversion, type RunDeps } from '../src/domain/run-conversion';
import { RunningConversions } from '../src/domain/running-conversions';
import { WorkSlots } from '../src/domain/work-slots';

let stack: Stack;
beforeAll(async () => {
  // No converter of the stack's own: this file runs the job itself, with a slot it keeps busy.
  stack = await startStack({ converter: false });
});
afterAll(() => stack?.stop());

describe('E7: a job cancelled while it waits for a worker thread', () => {
  it('When the cancel comes while the only worker thread is busy, then the job ends without converting, refunded once, and is announced', async () => {
    const { token, workspaceId } = await stack.workspace('starter', 10);
    const queued = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .field('webhook_url', 'https://receiver.example/hook')
      .attach('file', Buffer.from('# Waiting\n'), 'waiting.md');
    expect(queued.status).toBe(202);
    const id = queued.body.id as string;

    const slots = new WorkSlots(1, 1024 * 1024);
    let freeTheSlot!: () => void;
    const busy = slots.converting(() => new Promise<void>((resolve) => (freeTheSlot = resolve)));
    const announced: string[] = [];
    const finished: string[] = [];
    const deps: RunDeps = {
      db: stack.gateway.db,
      logger: silentLogger,
      limits: { timeoutMs: 30_000, maxMemoryMb: 256 },
      slots,
      announce: async (conversionId) => void announced.push(conversionId),
      observe: { finished: (_ext, status) => void finished.push(status), refunded: () => undefined },
      running: new RunningConversions(),
    };
    const run = runConversion(deps, id);
    // Claimed (processing), then waiting for the busy slot.
    await eventually(async () => {
      const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
      return row.status === 'processing' ? true : undefined;
    });

    const cancel = await request(stack.gateway.url)
      .post(`/conversions/${id}/cancel`)
      .set(...bearer(token));
    expect(cancel.status).toBe(200);
    expect(deps.running.cancel(id)).toBe(true); // what the cancel consumer does on the broadcast

    // It ends while the only worker thread is still busy: it did not wait for it, so it did not convert.
    const outcome = await Promise.race([
      run.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref()),
    ]);
    expect(outcome).toBe('ended');
    const row = await stack.gateway.db.conversion.findUniqueOrThrow({ where: { id } });
    expect({ status: row.status, error: row.error, markdown: row.markdown }).toEqual({
      status: 'failed',
      error: CANCELLED_BY_REQUEST,
      markdown: null,
    });
    expect(announced).toEqual([id]);
    expect(finished).toEqual([]); // the gateway's cancel already failed it; nothing more is reported
    expect((await stack.ledger(workspaceId)).map((r) => r.type)).toEqual(['grant', 'charge', 'refund']);
    freeTheSlot();
    await busy;
  });
});
