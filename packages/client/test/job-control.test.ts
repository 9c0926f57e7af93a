import { startStack, type Stack } from '../../../services/gateway/test/stack';
import { ConflictError, MarkwrightClient, NotFoundError, ValidationError } from '../src';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(() => stack.stop());

async function clientFor(credits = 10) {
  const { token, workspaceId } = await stack.workspace('business', credits);
  return { client: new MarkwrightClient({ baseUrl: stack.gateway.url, token }), workspaceId };
}
const balance = async (workspaceId: string) =>
  (await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance;
const file = (text = '# Keyed\n') => ({ data: Buffer.from(text), filename: 'keyed.md' });
const WEBHOOK = 'https://receiver.invalid/hook';

async function rejection<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}

describe('MarkwrightClient job control (E6-E8)', () => {
  it('When convert is retried with the same idempotencyKey, then the same result comes back and one credit is charged', async () => {
    const { client, workspaceId } = await clientFor();
    const first = await client.convert(file(), { idempotencyKey: 'client-retry' });
    const again = await client.convert(file(), { idempotencyKey: 'client-retry' });
    expect(again).toEqual(first);
    expect(await balance(workspaceId)).toBe(9);
  });

  it('When the idempotencyKey is reused for another file, then it throws ValidationError on Idempotency-Key', async () => {
    const { client } = await clientFor();
    await client.convert(file(), { idempotencyKey: 'client-reuse' });
    const err = await rejection(client.convert(file('# Other\n'), { idempotencyKey: 'client-reuse' }), ValidationError);
    expect(err.errors).toEqual({
      'Idempotency-Key': ['This Idempotency-Key was already used with a different request.'],
    });
  });

  it('When a queued conversion is cancelled, then cancel returns it failed, and a second cancel throws ConflictError not_cancellable', async () => {
    const { client, workspaceId } = await clientFor();
    await stack.stopConverter();
    try {
      const queued = await client.convert(file(), { webhookUrl: WEBHOOK });
      const cancelled = await client.cancel(queued.id);
      expect(cancelled).toMatchObject({ id: queued.id, status: 'failed', error: 'Cancelled by request.' });
      const err = await rejection(client.cancel(queued.id), ConflictError);
      expect([err.status, err.code]).toEqual([409, 'not_cancellable']);
      expect(await balance(workspaceId)).toBe(10);
    } finally {
      await stack.startConverter();
    }
  });

  it('When a finished conversion is deleted, then delete resolves and getConversion throws NotFoundError; an unfinished one throws ConflictError not_finished', async () => {
    const { client } = await clientFor();
    const queued = await client.convert(file(), { webhookUrl: WEBHOOK });
    await client.waitForConversion(queued.id, { initialDelayMs: 100 });
    await expect(client.delete(queued.id)).resolves.toBeUndefined();
    await rejection(client.getConversion(queued.id), NotFoundError);
    await stack.stopConverter();
    try {
      const pending = await client.convert(file('# Pending\n'), { webhookUrl: WEBHOOK });
      const err = await rejection(client.delete(pending.id), ConflictError);
      expect([err.status, err.code]).toEqual([409, 'not_finished']);
    } finally {
      await stack.startConverter();
    }
  });
});
